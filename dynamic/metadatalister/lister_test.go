package metadatalister_test

import (
	"errors"
	"fmt"
	"reflect"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	clientgolister "k8s.io/client-go/metadata/metadatalister"
	clientgocache "k8s.io/client-go/tools/cache"

	"github.com/informer-gen/informer-gen/dynamic/metadatalister"
	"github.com/informer-gen/informer-gen/runtime/cache"
)

var widgets = schema.GroupVersionResource{Group: "example.com", Version: "v1", Resource: "widgets"}

func object(namespace, name, app string) *metav1.PartialObjectMetadata {
	return &metav1.PartialObjectMetadata{
		TypeMeta:   metav1.TypeMeta{APIVersion: "example.com/v1", Kind: "Widget"},
		ObjectMeta: metav1.ObjectMeta{Namespace: namespace, Name: name, Labels: map[string]string{"app": app}},
	}
}

// call is one lister call, made the same way on client-go's lister and
// ours; it returns the result as a comparable value.
type call struct {
	name string
	do   func(l listers) (any, error)
}

// listers are the two views a call may use: the Lister and its generic
// shim.
type listers struct {
	lister  interface{ Namespace(string) namespaceLister }
	generic genericLister
}

type namespaceLister interface {
	List(labels.Selector) ([]*metav1.PartialObjectMetadata, error)
	Get(string) (*metav1.PartialObjectMetadata, error)
}

type genericLister interface {
	List(labels.Selector) ([]runtime.Object, error)
	Get(string) (runtime.Object, error)
	ByNamespace(string) interface {
		List(labels.Selector) ([]runtime.Object, error)
		Get(string) (runtime.Object, error)
	}
}

// The calls compared: the shim's lists are checked for nil against empty.
var calls = func() []call {
	app := labels.SelectorFromSet(labels.Set{"app": "x"})
	none := labels.SelectorFromSet(labels.Set{"app": "none"})
	var out []call
	for _, ns := range []string{"a", "b", "missing", ""} {
		for _, sel := range []labels.Selector{labels.Everything(), app, none, labels.Nothing()} {
			out = append(out,
				call{fmt.Sprintf("Namespace(%q).List(%v)", ns, sel), func(l listers) (any, error) { return l.lister.Namespace(ns).List(sel) }},
				call{fmt.Sprintf("ByNamespace(%q).List(%v)", ns, sel), func(l listers) (any, error) { return l.generic.ByNamespace(ns).List(sel) }},
			)
		}
		for _, name := range []string{"w1", "w3", "c1", "missing"} {
			out = append(out,
				call{fmt.Sprintf("Namespace(%q).Get(%q)", ns, name), func(l listers) (any, error) { return l.lister.Namespace(ns).Get(name) }},
				call{fmt.Sprintf("ByNamespace(%q).Get(%q)", ns, name), func(l listers) (any, error) { return l.generic.ByNamespace(ns).Get(name) }},
			)
		}
	}
	for _, sel := range []labels.Selector{labels.Everything(), labels.SelectorFromSet(labels.Set{"app": "x"}), labels.Nothing()} {
		out = append(out, call{fmt.Sprintf("generic List(%v)", sel), func(l listers) (any, error) { return l.generic.List(sel) }})
	}
	for _, name := range []string{"c1", "w1", "a/w1", "missing"} {
		out = append(out, call{fmt.Sprintf("generic Get(%q)", name), func(l listers) (any, error) { return l.generic.Get(name) }})
	}
	return out
}()

// Our listers return what client-go's metadatalister returns for the same
// objects and calls: the same objects (nil or empty alike), and errors
// of the same type, message, reason and details.
func TestListerBehavesAsClientGos(t *testing.T) {
	objs := []*metav1.PartialObjectMetadata{object("a", "w1", "x"), object("a", "w2", "y"), object("b", "w3", "x"), object("", "c1", "x")}
	theirs := clientgocache.NewIndexer(clientgocache.MetaNamespaceKeyFunc, clientgocache.Indexers{clientgocache.NamespaceIndex: clientgocache.MetaNamespaceIndexFunc})
	ours := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc})
	for _, o := range objs {
		if err := theirs.Add(o); err != nil {
			t.Fatal(err)
		}
		if err := ours.Add(o); err != nil {
			t.Fatal(err)
		}
	}
	theirLister := clientgolister.New(theirs, widgets)
	ourLister := metadatalister.New(ours, widgets)
	theirView := listers{lister: theirAdapter{theirLister}, generic: theirGeneric{clientgolister.NewRuntimeObjectShim(theirLister)}}
	ourView := listers{lister: ourAdapter{ourLister}, generic: ourGeneric{metadatalister.NewRuntimeObjectShim(ourLister)}}
	for _, c := range calls {
		t.Run(c.name, func(t *testing.T) {
			want, wantErr := c.do(theirView)
			got, gotErr := c.do(ourView)
			compareResults(t, got, want)
			compareErrors(t, gotErr, wantErr)
		})
	}
	// The cluster-wide Lister too.
	for _, sel := range []labels.Selector{labels.Everything(), labels.Nothing(), labels.SelectorFromSet(labels.Set{"app": "none"})} {
		want, wantErr := theirLister.List(sel)
		got, gotErr := ourLister.List(sel)
		compareResults(t, sortedCopy(got), sortedCopy(want))
		compareErrors(t, gotErr, wantErr)
	}
	for _, name := range []string{"c1", "w1", "a/w1"} {
		want, wantErr := theirLister.Get(name)
		got, gotErr := ourLister.Get(name)
		compareResults(t, got, want)
		compareErrors(t, gotErr, wantErr)
	}
}

func compareResults(t *testing.T, got, want any) {
	t.Helper()
	gv, wv := reflect.ValueOf(got), reflect.ValueOf(want)
	if gv.Kind() == reflect.Slice {
		if gv.IsNil() != wv.IsNil() {
			t.Errorf("nil %t, client-go's nil %t", gv.IsNil(), wv.IsNil())
		}
		got, want = sortedCopy(got), sortedCopy(want)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, client-go's %v", got, want)
	}
}

func compareErrors(t *testing.T, got, want error) {
	t.Helper()
	if (got == nil) != (want == nil) {
		t.Fatalf("error %v, client-go's %v", got, want)
	}
	if got == nil {
		return
	}
	var gs, ws apierrors.APIStatus
	if got.Error() != want.Error() || reflect.TypeOf(got) != reflect.TypeOf(want) ||
		errors.As(got, &gs) != errors.As(want, &ws) || (gs != nil && !reflect.DeepEqual(gs.Status(), ws.Status())) {
		t.Errorf("error %T %q, client-go's %T %q", got, got, want, want)
	}
}

// sortedCopy returns a list's objects by key, so that map order does not
// matter; other values pass through.
func sortedCopy(v any) any {
	keys := func(n int, at func(int) any) []string {
		out := make([]string, n)
		for i := range n {
			out[i], _ = cache.MetaNamespaceKeyFunc(at(i))
		}
		return out
	}
	switch l := v.(type) {
	case []*metav1.PartialObjectMetadata:
		return sortStrings(keys(len(l), func(i int) any { return l[i] }))
	case []runtime.Object:
		return sortStrings(keys(len(l), func(i int) any { return l[i] }))
	}
	return v
}

func sortStrings(s []string) []string {
	for i := range s {
		for j := i + 1; j < len(s); j++ {
			if s[j] < s[i] {
				s[i], s[j] = s[j], s[i]
			}
		}
	}
	return s
}

// Adapters giving both sides' listers the test's interfaces.
type theirAdapter struct{ l clientgolister.Lister }

func (a theirAdapter) Namespace(ns string) namespaceLister { return a.l.Namespace(ns) }

type ourAdapter struct{ l metadatalister.Lister }

func (a ourAdapter) Namespace(ns string) namespaceLister { return a.l.Namespace(ns) }

type theirGeneric struct{ clientgocache.GenericLister }

func (g theirGeneric) ByNamespace(ns string) interface {
	List(labels.Selector) ([]runtime.Object, error)
	Get(string) (runtime.Object, error)
} {
	return g.GenericLister.ByNamespace(ns)
}

type ourGeneric struct{ cache.GenericLister }

func (g ourGeneric) ByNamespace(ns string) interface {
	List(labels.Selector) ([]runtime.Object, error)
	Get(string) (runtime.Object, error)
} {
	return g.GenericLister.ByNamespace(ns)
}
