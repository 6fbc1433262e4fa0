package cache

import (
	"fmt"
	"sort"
	"sync"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/klog/v2"
)

// ThreadSafeStore is client-go's keyed store: an Indexer whose callers
// give each object's key themselves instead of a KeyFunc computing it.
// NewThreadSafeStore returns one built on this package's indexed store.
//
// Objects handed to or returned by it are shared: treat them as read-only.
//
// Compatibility code, kept for code written against client-go: the informer
// does not use it.
type ThreadSafeStore interface {
	Add(key string, obj any)
	Update(key string, obj any)
	// Delete is DeleteWithObject(key, nil): it does not change
	// LastStoreSyncResourceVersion.
	Delete(key string)
	// DeleteWithObject removes the object stored under key and, when obj
	// has object metadata, records obj's resourceVersion.
	DeleteWithObject(key string, obj any)
	Get(key string) (item any, exists bool)
	List() []any
	ListKeys() []string
	Replace(map[string]any, string)
	Index(indexName string, obj any) ([]any, error)
	IndexKeys(indexName, indexedValue string) ([]string, error)
	Bookmark(rv string)
	LastStoreSyncResourceVersion() string
	ListIndexFuncValues(name string) []string
	ByIndex(indexName, indexedValue string) ([]any, error)
	GetIndexers() Indexers
	// AddIndexers adds more indexers to this store. This supports adding
	// indexes after the store already has items.
	AddIndexers(newIndexers Indexers) error
	// Resync is a no-op.
	Resync() error
}

// Indices is client-go's name for a store's index storage, kept so that
// calls such as NewThreadSafeStore(Indexers{}, Indices{}) compile. This
// package's stores keep their indexes in their own form: an Indices given
// to NewThreadSafeStore is neither read nor filled.
//
// Compatibility code, kept for code written against client-go: the informer
// does not use it.
type Indices map[string]index

// index maps an indexed value to the keys filed under it (client-go's
// form, only named by Indices).
type index map[string]sets.Set[string]

// ThreadSafeStoreOption configures NewThreadSafeStore
// (WithThreadSafeStoreMetrics).
//
// Compatibility code, kept for code written against client-go: the informer
// does not use it.
type ThreadSafeStoreOption = func(*keyedStore)

// WithThreadSafeStoreMetrics makes the store publish its
// LastStoreSyncResourceVersion (when it is an integer) through
// metricsProvider's NewStoreResourceVersionMetric, when identifier is
// reserved. A nil metricsProvider means the one SetInformerMetricsProvider
// set.
func WithThreadSafeStoreMetrics(identifier InformerNameAndResource, metricsProvider InformerMetricsProvider) ThreadSafeStoreOption {
	return func(k *keyedStore) {
		if metricsProvider == nil {
			metricsProvider = globalInformerProvider()
		}
		if metricsProvider != nil && identifier.Reserved() {
			k.rvMetric = metricsProvider.NewStoreResourceVersionMetric(identifier)
		}
	}
}

// NewThreadSafeStore returns an empty ThreadSafeStore maintaining
// indexers. indices is ignored (see Indices); a non-empty one is logged
// once at V(2).
//
// As in client-go, Add, Update and Replace panic when an index function
// fails on an object ("unable to calculate an index entry for key %q on
// index %q: %v"). Unlike client-go, storing a nil object panics too
// instead of storing nil.
func NewThreadSafeStore(indexers Indexers, indices Indices, opts ...ThreadSafeStoreOption) ThreadSafeStore {
	if len(indices) > 0 {
		ignoredThreadSafeStoreIndices.report(klog.Background())
	}
	s := &keyedStore{store: newThreadSafeStore(noKeyFunc, indexers)}
	for _, opt := range opts {
		opt(s)
	}
	return s
}

// noKeyFunc is the key function of a keyedStore's inner store, which is
// only ever written and read by key.
func noKeyFunc(obj any) (string, error) {
	return "", fmt.Errorf("a ThreadSafeStore has no key function: give %T's key", obj)
}

// keyedStore implements ThreadSafeStore over a threadSafeStore written
// through its keyed path. Safe for concurrent use.
type keyedStore struct {
	store *threadSafeStore

	// mu guards rv and serializes writes with the resourceVersion each
	// records, so that rv is the version of the last write applied.
	mu sync.Mutex
	rv string // guarded by mu

	// rvMetric, when set (WithThreadSafeStoreMetrics), receives rv.
	// Immutable after NewThreadSafeStore.
	rvMetric GaugeMetric
}

// setRV records rv as the store's resourceVersion and publishes it. k.mu
// must be held.
func (k *keyedStore) setRV(rv string) {
	k.rv = rv
	if k.rvMetric != nil {
		setResourceVersionMetric(k.rvMetric, rv)
	}
}

// objectRV returns obj's resourceVersion; ok is false when obj has no
// object metadata.
func objectRV(obj any) (rv string, ok bool) {
	m, err := meta.Accessor(obj)
	if err != nil {
		return "", false
	}
	return m.GetResourceVersion(), true
}

// Add stores obj under key; see Update.
func (k *keyedStore) Add(key string, obj any) { k.Update(key, obj) }

// Update stores obj under key, replacing any object stored there, and
// records obj's resourceVersion when it has object metadata.
func (k *keyedStore) Update(key string, obj any) {
	rv, hasRV := objectRV(obj)
	k.mu.Lock()
	defer k.mu.Unlock()
	if err := k.store.PutKeyed(key, obj); err != nil {
		panic(k.writeFailure(key, obj, err))
	}
	if hasRV {
		k.setRV(rv)
	}
}

// writeFailure says why obj could not be stored under key, in client-go's
// words when an index function failed.
func (k *keyedStore) writeFailure(key string, obj any, err error) error {
	if obj == nil {
		return fmt.Errorf("cache: ThreadSafeStore cannot store a nil object (key %q)", key)
	}
	if name, ierr := k.store.IndexFailure(obj); ierr != nil {
		return fmt.Errorf("unable to calculate an index entry for key %q on index %q: %v", key, name, ierr)
	}
	return fmt.Errorf("cache: ThreadSafeStore cannot store the object under key %q: %w", key, err)
}

// Delete removes the object stored under key.
func (k *keyedStore) Delete(key string) { k.DeleteWithObject(key, nil) }

// DeleteWithObject removes the object stored under key and records obj's
// resourceVersion when obj is not nil and has object metadata.
func (k *keyedStore) DeleteWithObject(key string, obj any) {
	rv, hasRV := "", false
	if obj != nil {
		rv, hasRV = objectRV(obj)
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	k.store.DeleteKeyed(key)
	if hasRV {
		k.setRV(rv)
	}
}

// Get returns the object stored under key.
func (k *keyedStore) Get(key string) (any, bool) {
	obj, exists, _ := k.store.GetByKey(key)
	return obj, exists
}

// List returns every stored object, in no particular order.
func (k *keyedStore) List() []any { return k.store.List() }

// ListKeys returns every key, in no particular order.
func (k *keyedStore) ListKeys() []string { return k.store.ListKeys() }

// Replace makes items (key -> object) the whole content and records
// resourceVersion, even when empty.
func (k *keyedStore) Replace(items map[string]any, resourceVersion string) {
	keys := make([]string, 0, len(items))
	list := make([]any, 0, len(items))
	for key, obj := range items {
		keys = append(keys, key)
		list = append(list, obj)
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	if err := k.store.ReplaceKeyed(keys, list); err != nil {
		for i, obj := range list {
			if obj == nil || k.indexFails(obj) {
				panic(k.writeFailure(keys[i], obj, err))
			}
		}
		panic(err)
	}
	k.setRV(resourceVersion)
}

// indexFails reports whether an index function fails on obj.
func (k *keyedStore) indexFails(obj any) bool {
	_, err := k.store.IndexFailure(obj)
	return err != nil
}

// Index returns the stored objects sharing a value of index indexName
// with obj.
func (k *keyedStore) Index(indexName string, obj any) ([]any, error) {
	return k.store.Index(indexName, obj)
}

// IndexKeys returns, sorted as client-go does, the keys of the objects
// whose indexName index holds indexedValue.
func (k *keyedStore) IndexKeys(indexName, indexedValue string) ([]string, error) {
	keys, err := k.store.IndexKeys(indexName, indexedValue)
	if err != nil {
		return nil, err
	}
	sort.Strings(keys)
	return keys, nil
}

// Bookmark records rv as the resourceVersion the store reflects.
func (k *keyedStore) Bookmark(rv string) {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.setRV(rv)
}

// LastStoreSyncResourceVersion returns the resourceVersion of the last
// write that carried one (Add, Update, DeleteWithObject of an object with
// metadata, Replace, Bookmark); "" before any.
func (k *keyedStore) LastStoreSyncResourceVersion() string {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.rv
}

// ListIndexFuncValues returns the values present in index name; empty
// when the index does not exist.
func (k *keyedStore) ListIndexFuncValues(name string) []string {
	if vals := k.store.ListIndexFuncValues(name); vals != nil {
		return vals
	}
	return []string{}
}

// ByIndex returns the objects whose indexName index holds indexedValue.
func (k *keyedStore) ByIndex(indexName, indexedValue string) ([]any, error) {
	return k.store.ByIndex(indexName, indexedValue)
}

// GetIndexers returns the installed indexers.
func (k *keyedStore) GetIndexers() Indexers { return k.store.GetIndexers() }

// AddIndexers installs newIndexers and indexes the stored objects with
// them.
func (k *keyedStore) AddIndexers(newIndexers Indexers) error {
	return k.store.AddIndexers(newIndexers)
}

// Resync does nothing.
func (k *keyedStore) Resync() error { return nil }
