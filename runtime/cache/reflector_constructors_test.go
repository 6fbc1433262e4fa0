package cache

import (
	"context"
	"testing"
	"time"

	"github.com/informer-gen/informer-gen/runtime/cache/cachetest"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/watch"
)

func TestReflectorConstructorsAndRunForms(t *testing.T) {
	tests := []struct {
		name     string
		make     func(lw ListerWatcher, store ReflectorStore) *Reflector
		wantName string
	}{
		{"NewReflector", func(lw ListerWatcher, s ReflectorStore) *Reflector {
			return NewReflector(lw, &metav1.PartialObjectMetadata{}, s, 0)
		}, "*v1.PartialObjectMetadata"},
		{"NewNamedReflector", func(lw ListerWatcher, s ReflectorStore) *Reflector {
			return NewNamedReflector("named", lw, &metav1.PartialObjectMetadata{}, s, 0)
		}, "named"},
		{"NewReflectorWithOptions", func(lw ListerWatcher, s ReflectorStore) *Reflector {
			return NewReflectorWithOptions(lw, &metav1.PartialObjectMetadata{}, s, ReflectorOptions{TypeDescription: "things"})
		}, "things"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lw := newFakeLW()
			lw.ListFunc = listReturning(objectList("10", "", testObject("a", "x", "9")))
			store := NewStore(MetaNamespaceKeyFunc)
			r := tt.make(lw, store)
			if r.Name() != tt.wantName {
				t.Fatalf("Name = %q, want %q", r.Name(), tt.wantName)
			}
			if r.TypeDescription() == "" {
				t.Fatal("no type description")
			}
			stop := make(chan struct{})
			done := make(chan struct{})
			go func() { defer close(done); r.Run(stop) }()
			w := lw.nextWatcher(t)
			w.Send(ev(watch.Added, &otherObject{ObjectMeta: metav1.ObjectMeta{Namespace: "a", Name: "odd", ResourceVersion: "11"}}))
			w.Send(ev(watch.Added, testObject("a", "y", "12")))
			cachetest.Eventually(t, "the watched object", func() bool { _, ok, _ := store.GetByKey("a/y"); return ok })
			if _, ok, _ := store.GetByKey("a/odd"); ok {
				t.Fatal("an object of another type than expectedType was stored")
			}
			close(stop)
			select {
			case <-done:
			case <-time.After(30 * time.Second):
				t.Fatal("Run did not return after stopCh closed")
			}
		})
	}
}

func TestListAndWatchWithContextReturnsWhenTheContextEnds(t *testing.T) {
	lw := newFakeLW()
	store := NewStore(MetaNamespaceKeyFunc)
	r := NewReflector(lw, nil, store, 0)
	r.WatchListPageSize = 7
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- r.ListAndWatchWithContext(ctx) }()
	lw.nextWatcher(t)
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("ListAndWatchWithContext after cancel: %v", err)
	}
	if lists := lw.lists(); len(lists) == 0 || lists[0].Limit != 7 {
		t.Fatalf("lists %+v, want the exported WatchListPageSize honoured", lists)
	}
}
