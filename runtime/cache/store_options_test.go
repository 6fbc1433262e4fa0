package cache

import (
	"errors"
	"testing"

	"k8s.io/apimachinery/pkg/runtime/schema"
)

func TestStoreRecordsTheResourceVersionOfReplaceAndBookmark(t *testing.T) {
	s := NewStore(MetaNamespaceKeyFunc)
	if rv := s.LastStoreSyncResourceVersion(); rv != "" {
		t.Fatalf("fresh store rv %q", rv)
	}
	if err := s.Replace([]any{testObject("a", "x", "5")}, "10"); err != nil {
		t.Fatal(err)
	}
	if rv := s.LastStoreSyncResourceVersion(); rv != "10" {
		t.Fatalf("after Replace rv %q, want 10", rv)
	}
	s.Bookmark("12")
	if rv := s.LastStoreSyncResourceVersion(); rv != "12" {
		t.Fatalf("after Bookmark rv %q, want 12", rv)
	}
	if len(s.List()) != 1 {
		t.Fatal("Bookmark changed the content")
	}
}

func TestWithTransformerTransformsWritesOnly(t *testing.T) {
	strip := func(obj any) (any, error) {
		o := obj.(object).DeepCopy()
		if o.Name == "bad" {
			return nil, errors.New("cannot")
		}
		o.Labels = nil
		return o, nil
	}
	s := NewIndexer(MetaNamespaceKeyFunc, Indexers{NamespaceIndex: MetaNamespaceIndexFunc}, WithTransformer(strip))
	labelled := testObjectWithLabels("a", "x", "1", map[string]string{"k": "v"})
	for _, write := range []func(any) error{s.Add, s.Update} {
		if err := write(labelled); err != nil {
			t.Fatal(err)
		}
		got, _, _ := s.GetByKey("a/x")
		if got.(object).Labels != nil {
			t.Fatal("stored object not transformed")
		}
	}
	if err := s.Replace([]any{labelled}, "3"); err != nil {
		t.Fatal(err)
	}
	if got, _, _ := s.GetByKey("a/x"); got.(object).Labels != nil {
		t.Fatal("replaced object not transformed")
	}
	if err := s.Add(testObject("a", "bad", "1")); err == nil {
		t.Fatal("transformer error not returned")
	}
	if _, ok, _ := s.GetByKey("a/bad"); ok {
		t.Fatal("object the transformer failed on was stored")
	}
	if labelled.Labels == nil {
		t.Fatal("the caller's object was mutated")
	}
}

func TestWithStoreMetricsPublishesTheResourceVersion(t *testing.T) {
	defer ResetInformerNamesForTesting()
	n, err := NewInformerName("stores")
	if err != nil {
		t.Fatal(err)
	}
	p := provider{&gauge{}, &gauge{}, &gauge{}}
	s := NewStore(MetaNamespaceKeyFunc, WithStoreMetrics(n.WithResource(schema.GroupVersionResource{Resource: "r"}), p))
	s.Bookmark("42")
	if v, ok := p.rv.value(); !ok || v != 42 {
		t.Fatalf("published %v (set %v), want 42", v, ok)
	}
}
