package cache

import (
	"sort"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

func names(objs []runtime.Object) []string {
	var out []string
	for _, o := range objs {
		m := o.(object)
		out = append(out, m.Namespace+"/"+m.Name)
	}
	sort.Strings(out)
	return out
}

func TestGenericListerListsAndGetsByNamespaceAndLabels(t *testing.T) {
	for _, indexed := range []bool{true, false} {
		indexers := Indexers{}
		if indexed {
			indexers[NamespaceIndex] = MetaNamespaceIndexFunc
		}
		idx := NewIndexer(MetaNamespaceKeyFunc, indexers)
		for _, o := range []any{
			testObjectWithLabels("a", "x", "1", map[string]string{"app": "web"}),
			testObjectWithLabels("a", "y", "1", map[string]string{"app": "db"}),
			testObjectWithLabels("b", "x", "1", map[string]string{"app": "web"}),
		} {
			if err := idx.Add(o); err != nil {
				t.Fatal(err)
			}
		}
		l := NewGenericLister(idx, schema.GroupResource{Resource: "things"})
		web := labels.SelectorFromSet(labels.Set{"app": "web"})
		tests := []struct {
			name string
			list func() ([]runtime.Object, error)
			want []string
		}{
			{"all", func() ([]runtime.Object, error) { return l.List(labels.Everything()) }, []string{"a/x", "a/y", "b/x"}},
			{"by label", func() ([]runtime.Object, error) { return l.List(web) }, []string{"a/x", "b/x"}},
			{"nothing", func() ([]runtime.Object, error) { return l.List(labels.Nothing()) }, nil},
			{"namespace", func() ([]runtime.Object, error) { return l.ByNamespace("a").List(labels.Everything()) }, []string{"a/x", "a/y"}},
			{"namespace and label", func() ([]runtime.Object, error) { return l.ByNamespace("a").List(web) }, []string{"a/x"}},
		}
		for _, tt := range tests {
			got, err := tt.list()
			if err != nil || len(names(got)) != len(tt.want) || (len(tt.want) > 0 && names(got)[0] != tt.want[0]) {
				t.Errorf("indexed=%v %s: %v, %v; want %v", indexed, tt.name, names(got), err, tt.want)
			}
		}
		if o, err := l.ByNamespace("b").Get("x"); err != nil || o.(object).Namespace != "b" {
			t.Errorf("indexed=%v ByNamespace(b).Get(x) = %v, %v", indexed, o, err)
		}
		if o, err := l.Get("a/y"); err != nil || o.(object).Name != "y" {
			t.Errorf("indexed=%v Get(a/y) = %v, %v", indexed, o, err)
		}
		if _, err := l.ByNamespace("b").Get("y"); !apierrors.IsNotFound(err) {
			t.Errorf("indexed=%v Get of a missing object: %v, want NotFound", indexed, err)
		}
	}
}

// TestGenericListerByNamespaceGetReadsNamespaceSlashName pins client-go's
// key for ByNamespace(ns).Get: ns + "/" + name, even for ns "", where a
// cluster-scoped object is not found (Get on the lister itself finds it).
func TestGenericListerByNamespaceGetReadsNamespaceSlashName(t *testing.T) {
	idx := NewIndexer(MetaNamespaceKeyFunc, Indexers{NamespaceIndex: MetaNamespaceIndexFunc})
	for _, o := range []any{testObject("", "cluster", "1"), testObject("a", "x", "1")} {
		if err := idx.Add(o); err != nil {
			t.Fatal(err)
		}
	}
	l := NewGenericLister(idx, schema.GroupResource{Group: "example.com", Resource: "things"})
	tests := []struct {
		name     string
		get      func(string) (runtime.Object, error)
		arg      string
		notFound string // the NotFound error's message; "" when found
	}{
		{"lister, cluster-scoped name", l.Get, "cluster", ""},
		{"lister, namespace/name key", l.Get, "a/x", ""},
		{"lister, bare name of a namespaced object", l.Get, "x", `things.example.com "x" not found`},
		{"ByNamespace(a)", l.ByNamespace("a").Get, "x", ""},
		{"ByNamespace(b)", l.ByNamespace("b").Get, "x", `things.example.com "x" not found`},
		{`ByNamespace("") of a cluster-scoped object`, l.ByNamespace("").Get, "cluster", `things.example.com "cluster" not found`},
	}
	for _, tt := range tests {
		obj, err := tt.get(tt.arg)
		switch {
		case tt.notFound == "" && err != nil:
			t.Errorf("%s: Get(%q) error %v, want the object", tt.name, tt.arg, err)
		case tt.notFound != "" && (!apierrors.IsNotFound(err) || err.Error() != tt.notFound || obj != nil):
			t.Errorf("%s: Get(%q) = %v, %v; want nil, %s", tt.name, tt.arg, obj, err, tt.notFound)
		}
	}
}
