package cache

import (
	"context"
	"slices"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/informer-gen/informer-gen/runtime/cache/cachetest"
)

func TestNamespaceKeyedIndexerAndReflectorFillsTheIndexer(t *testing.T) {
	srv := cachetest.NewServer(&metav1.PartialObjectMetadataList{})
	for _, o := range []*metav1.PartialObjectMetadata{modelObject("a"), modelObject("b")} {
		if _, err := srv.Add(o); err != nil {
			t.Fatal(err)
		}
	}
	other := modelObject("c")
	other.Namespace = "other"
	if _, err := srv.Add(other); err != nil {
		t.Fatal(err)
	}
	indexer, reflector := NewNamespaceKeyedIndexerAndReflector(srv, &metav1.PartialObjectMetadata{}, 0)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); reflector.RunWithContext(ctx) }()
	defer func() { cancel(); <-done; srv.Wait() }()
	cachetest.Eventually(t, "the list in the indexer", func() bool { return len(indexer.ListKeys()) == 3 })
	keys, err := indexer.IndexKeys(NamespaceIndex, "ns")
	slices.Sort(keys)
	if err != nil || !slices.Equal(keys, []string{"ns/a", "ns/b"}) {
		t.Fatalf("namespace ns holds %v (%v), want ns/a and ns/b", keys, err)
	}
	if _, ok, _ := indexer.GetByKey("other/c"); !ok {
		t.Fatal("other/c is missing")
	}
}
