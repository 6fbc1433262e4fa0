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
