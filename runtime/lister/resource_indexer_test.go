package lister

import (
	"reflect"
	"sort"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/informer-gen/informer-gen/runtime/cache"
)

type object = *metav1.PartialObjectMetadata

func obj(ns, name string, lbls map[string]string) object {
	return &metav1.PartialObjectMetadata{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name, Labels: lbls}}
}

var widgets = schema.GroupResource{Group: "stable.example.com", Resource: "widgets"}

func names(objs []object) []string {
	var out []string
	for _, o := range objs {
		out = append(out, o.Namespace+"/"+o.Name)
	}
	sort.Strings(out)
	return out
}

func fill(t *testing.T, indexers cache.Indexers) cache.Indexer {
	t.Helper()
	idx := cache.NewIndexer(cache.MetaNamespaceKeyFunc, indexers)
	for _, o := range []object{
		obj("a", "x", map[string]string{"app": "web"}),
		obj("a", "y", map[string]string{"app": "db"}),
		obj("b", "x", map[string]string{"app": "web"}),
	} {
		if err := idx.Add(o); err != nil {
			t.Fatal(err)
		}
	}
	return idx
}

func TestListFiltersByNamespaceAndSelector(t *testing.T) {
	web := labels.SelectorFromSet(labels.Set{"app": "web"})
	for _, withIndex := range []bool{true, false} {
		indexers := cache.Indexers{}
		if withIndex {
			indexers[cache.NamespaceIndex] = cache.MetaNamespaceIndexFunc
		}
		all := New[object](fill(t, indexers), widgets)
		tests := []struct {
			name     string
			r        ResourceIndexer[object]
			selector labels.Selector
			want     []string
		}{
			{"all namespaces, everything", all, labels.Everything(), []string{"a/x", "a/y", "b/x"}},
			{"all namespaces, nil selector", all, nil, []string{"a/x", "a/y", "b/x"}},
			{"all namespaces, label", all, web, []string{"a/x", "b/x"}},
			{"one namespace, everything", NewNamespaced(all, "a"), labels.Everything(), []string{"a/x", "a/y"}},
			{"one namespace, label", NewNamespaced(all, "a"), web, []string{"a/x"}},
			{"empty namespace", NewNamespaced(all, "c"), labels.Everything(), nil},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				got, err := tt.r.List(tt.selector)
				if err != nil {
					t.Fatal(err)
				}
				if !reflect.DeepEqual(names(got), tt.want) {
					t.Fatalf("namespace index %v: List = %v, want %v", withIndex, names(got), tt.want)
				}
			})
		}
	}
}

func TestGetReturnsNotFoundNamingTheResource(t *testing.T) {
	all := New[object](fill(t, cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc}), widgets)
	got, err := NewNamespaced(all, "b").Get("x")
	if err != nil || got.Namespace != "b" || got.Name != "x" {
		t.Fatalf("Get(b/x) = %v, %v", got, err)
	}
	_, err = NewNamespaced(all, "b").Get("y")
	if !apierrors.IsNotFound(err) {
		t.Fatalf("Get(b/y) error = %v, want NotFound", err)
	}
	if status := err.(apierrors.APIStatus).Status(); status.Details.Group != widgets.Group || status.Details.Kind != widgets.Resource {
		t.Fatalf("NotFound details = %+v, want resource %v", status.Details, widgets)
	}
}

func TestGetClusterScoped(t *testing.T) {
	idx := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{})
	if err := idx.Add(obj("", "g", nil)); err != nil {
		t.Fatal(err)
	}
	got, err := New[object](idx, widgets).Get("g")
	if err != nil || got.Name != "g" {
		t.Fatalf("Get(g) = %v, %v", got, err)
	}
}

// TestListReturnsNilWhenNothingMatches pins client-go's nil (not empty)
// result: callers compare it with reflect.DeepEqual or against nil.
func TestListReturnsNilWhenNothingMatches(t *testing.T) {
	for _, withIndex := range []bool{true, false} {
		indexers := cache.Indexers{}
		if withIndex {
			indexers[cache.NamespaceIndex] = cache.MetaNamespaceIndexFunc
		}
		all := New[object](fill(t, indexers), widgets)
		empty := New[object](cache.NewIndexer(cache.MetaNamespaceKeyFunc, indexers), widgets)
		tests := []struct {
			name     string
			r        ResourceIndexer[object]
			selector labels.Selector
		}{
			{"empty cache", empty, labels.Everything()},
			{"empty cache, one namespace", NewNamespaced(empty, "a"), labels.Everything()},
			{"no label matches", all, labels.SelectorFromSet(labels.Set{"app": "none"})},
			{"labels.Nothing", all, labels.Nothing()},
			{"namespace without objects", NewNamespaced(all, "c"), labels.Everything()},
		}
		for _, tt := range tests {
			got, err := tt.r.List(tt.selector)
			if err != nil || got != nil {
				t.Errorf("namespace index %v, %s: List = %#v, %v; want nil, nil", withIndex, tt.name, got, err)
			}
		}
	}
}
