package cache

import (
	"fmt"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/klog/v2"
)

func mutationObject(name string, uid types.UID, rv string) *metav1.PartialObjectMetadata {
	return &metav1.PartialObjectMetadata{ObjectMeta: metav1.ObjectMeta{Name: name, UID: uid, ResourceVersion: rv}}
}

func rvOf(obj any) string { return obj.(*metav1.PartialObjectMetadata).ResourceVersion }

// Upstream's TestMutationCacheOnAddOrUpdate: an informer add or update as
// new as the mutation, or newer, clears it; an older one keeps it.
func TestMutationCacheOnAddOrUpdateClearsOutdatedMutations(t *testing.T) {
	tests := []struct {
		name    string
		storeRV string
		wantRV  string
	}{
		{"equal version clears", "2", "1"},
		{"newer version clears", "3", "1"},
		{"older version keeps", "1", "2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			store := NewStore(MetaNamespaceKeyFunc)
			mc := NewIntegerResourceVersionMutationCache(klog.Background(), store, NewIndexer(MetaNamespaceKeyFunc, Indexers{}), time.Minute, false)
			mc.Mutation(mutationObject("pod", "uid-1", "2"))
			mc.OnAddOrUpdate(mutationObject("pod", "uid-1", tt.storeRV))
			mustSucceed(t, store.Add(mutationObject("pod", "uid-1", "1")))
			got, exists, err := mc.GetByKey("pod")
			if err != nil || !exists || rvOf(got) != tt.wantRV {
				t.Errorf("GetByKey = rv %v, %v, %v; want rv %s", got, exists, err, tt.wantRV)
			}
		})
	}
}

// Upstream's TestMutationCacheOnDelete: a delete of the same object (UID),
// or of a newer version, hides the mutation; an older delete of another
// object keeps it.
func TestMutationCacheOnDeleteHidesTheMutationOfTheDeletedObject(t *testing.T) {
	tests := []struct {
		name       string
		uid        types.UID
		rv         string
		wantExists bool
	}{
		{"older version of the same object", "uid-1", "1", false},
		{"newer version of another object", "uid-2", "3", false},
		{"older version of another object", "uid-other", "1", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			store := NewStore(MetaNamespaceKeyFunc)
			mc := NewIntegerResourceVersionMutationCache(klog.Background(), store, NewIndexer(MetaNamespaceKeyFunc, Indexers{}), time.Minute, true)
			mustSucceed(t, store.Add(mutationObject("pod", "uid-1", "2")))
			mc.Mutation(mutationObject("pod", "uid-1", "3"))
			deleted := mutationObject("pod", tt.uid, tt.rv)
			mustSucceed(t, store.Delete(deleted))
			mc.OnDelete(deleted)
			if _, exists, err := mc.GetByKey("pod"); err != nil || exists != tt.wantExists {
				t.Errorf("GetByKey exists = %v, %v; want %v", exists, err, tt.wantExists)
			}
		})
	}
}

// Upstream's TestMutationCacheUpdateConcurrentDelete and
// TestMutationCacheUpdateConcurrentRecreate: a Mutation arriving after the
// informer saw the object deleted (or re-created) is ignored.
func TestMutationCacheIgnoresMutationsTheInformerOutdated(t *testing.T) {
	updated := mutationObject("pod", "uid-1", "2")
	replacement := mutationObject("pod", "uid-2", "3")
	tests := []struct {
		name      string
		recreate  bool
		want      any
		remembers []any
	}{
		{"deleted", false, nil, []any{"pod"}},
		{"re-created", true, replacement, []any{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			store := NewStore(MetaNamespaceKeyFunc)
			mc := NewIntegerResourceVersionMutationCache(klog.Background(), store, NewIndexer(MetaNamespaceKeyFunc, Indexers{}), time.Hour, true)
			mustSucceed(t, store.Add(mutationObject("pod", "uid-1", "1")))
			mustSucceed(t, store.Update(updated))
			mustSucceed(t, store.Delete(updated))
			if tt.recreate {
				mustSucceed(t, store.Add(replacement))
			}
			mc.OnAddOrUpdate(updated)
			mc.OnDelete(updated)
			if tt.recreate {
				mc.OnAddOrUpdate(replacement)
			}
			mc.Mutation(updated) // stale
			got, exists, err := mc.GetByKey("pod")
			if err != nil || exists != (tt.want != nil) || (tt.want != nil && got != tt.want) {
				t.Errorf("GetByKey = %v, %v, %v; want %v", got, exists, err, tt.want)
			}
			if keys := mc.(*mutationCache).mutationCache.Keys(); fmt.Sprint(keys) != fmt.Sprint(tt.remembers) {
				t.Errorf("remembered keys %v, want %v", keys, tt.remembers)
			}
		})
	}
}

func byNameIndexers() Indexers {
	return Indexers{"by-name": func(obj any) ([]string, error) {
		return []string{obj.(*metav1.PartialObjectMetadata).Name}, nil
	}}
}

// Upstream's TestMutationCacheOnDeleteClearsStaleMutation, and ByIndex's
// other cases: the newer of the indexer's and the mutation's object; with
// includeAdds, mutations the indexer lacks; without an indexer, client-go's
// error.
func TestMutationCacheByIndex(t *testing.T) {
	indexer := NewIndexer(MetaNamespaceKeyFunc, byNameIndexers())
	mc := NewIntegerResourceVersionMutationCache(klog.Background(), NewStore(MetaNamespaceKeyFunc), indexer, time.Minute, true)
	mc.Mutation(mutationObject("pod", "uid-1", "2"))
	if items, err := mc.ByIndex("by-name", "pod"); err != nil || len(items) != 1 {
		t.Fatalf("ByIndex of an added mutation = %v, %v; want it", items, err)
	}
	mc.OnDelete(mutationObject("pod", "uid-1", "1"))
	if items, err := mc.ByIndex("by-name", "pod"); err != nil || len(items) != 0 {
		t.Errorf("ByIndex after the informer saw the delete = %v, %v; want nothing", items, err)
	}

	mustSucceed(t, indexer.Add(mutationObject("other", "uid-3", "5")))
	mc.Mutation(mutationObject("other", "uid-3", "7"))
	items, err := mc.ByIndex("by-name", "other")
	if err != nil || len(items) != 1 || rvOf(items[0]) != "7" {
		t.Errorf("ByIndex = %v, %v; want the newer mutation (rv 7)", items, err)
	}
	if _, err := mc.ByIndex("nope", "x"); err == nil {
		t.Error("ByIndex of an unknown index did not fail")
	}

	noIndexer := NewIntegerResourceVersionMutationCache(klog.Background(), NewStore(MetaNamespaceKeyFunc), nil, time.Minute, false)
	if _, err := noIndexer.ByIndex("by-name", "pod"); err == nil || err.Error() != "no indexer has been provided to the mutation cache" {
		t.Errorf("ByIndex without indexer: err = %v", err)
	}
}

func TestMutationCacheGetByKeyWithoutIncludeAddsHidesObjectsTheStoreLacks(t *testing.T) {
	store := NewStore(MetaNamespaceKeyFunc)
	mc := NewIntegerResourceVersionMutationCacheWithOptions(klog.Background(), store, MutationCacheOptions{TTL: time.Minute})
	mc.Mutation(mutationObject("pod", "uid-1", "4"))
	if _, exists, _ := mc.GetByKey("pod"); exists {
		t.Error("an object the store lacks was returned without IncludeAdds")
	}
	mustSucceed(t, store.Add(mutationObject("pod", "uid-1", "3")))
	got, exists, _ := mc.GetByKey("pod")
	if !exists || rvOf(got) != "4" {
		t.Errorf("GetByKey = %v; want the newer mutation", got)
	}
	mustSucceed(t, store.Update(mutationObject("pod", "uid-1", "5")))
	got, _, _ = mc.GetByKey("pod")
	if rvOf(got) != "5" {
		t.Errorf("GetByKey = %v; want the store's newer object", got)
	}
	if keys := mc.(*mutationCache).mutationCache.Keys(); len(keys) != 0 {
		t.Errorf("an outdated mutation was kept: %v", keys)
	}
	mc.Mutation(42) // has no key: ignored, as in client-go
	if len(mc.(*mutationCache).mutationCache.Keys()) != 0 {
		t.Error("a Mutation without a key was remembered")
	}
}
