package cache

import (
	"errors"
	"fmt"
	"reflect"
	"sort"
	"sync"
	"sync/atomic"

	"k8s.io/apimachinery/pkg/api/meta"
)

// errNilObject is returned when a nil object is handed to a store.
var errNilObject = errors.New("cache: cannot store a nil object")

// NewIndexer returns an empty Indexer that files objects under keyFunc and
// maintains indexers. The returned Indexer is safe for concurrent use; index
// functions are called with the store's write lock held, so they must be
// fast and must not call back into the store.
//
// Memory: besides the key string, each stored object costs one 32-byte slab
// entry, an 8-byte hash slot (at load <= 13/16) and about 4-8 bytes per
// index value it is filed under; an index value held by a single object
// costs no allocation beyond its map slot.
//
// opts (WithTransformer, WithStoreMetrics) are client-go's store options.
func NewIndexer(keyFunc KeyFunc, indexers Indexers, opts ...StoreOption) Indexer {
	return withStoreOptions(newThreadSafeStore(keyFunc, indexers), opts)
}

// newThreadSafeStore is NewIndexer, returning the concrete store for
// callers that use its keyed write path.
func newThreadSafeStore(keyFunc KeyFunc, indexers Indexers) *threadSafeStore {
	s := &threadSafeStore{keyFunc: keyFunc, objects: newObjectTable(0)}
	for _, name := range sortedIndexNames(indexers) {
		s.indexes = append(s.indexes, newStoreIndex(name, indexers[name], keyFunc))
	}
	return s
}

// NewStore returns an empty Store, without indexes, that files objects under
// keyFunc. It is safe for concurrent use. opts as for NewIndexer.
func NewStore(keyFunc KeyFunc, opts ...StoreOption) Store {
	return NewIndexer(keyFunc, nil, opts...)
}

// threadSafeStore implements Indexer over an objectTable guarded by a
// RWMutex. Reads take the read lock; every write, including index upkeep,
// happens under the write lock so index reads are always exact.
type threadSafeStore struct {
	keyFunc KeyFunc // immutable

	// mu guards objects and indexes (the innermost lock of the package:
	// see doc.go). Every object in objects is filed in every index under
	// the values its index function gave when it was stored.
	mu      sync.RWMutex
	objects objectTable
	indexes []*storeIndex // sorted by name

	lastRV atomic.Pointer[string] // see LastStoreSyncResourceVersion
}

// storeIndex is one named index: index value -> ids of the objects filed
// under it.
type storeIndex struct {
	name string
	fn   IndexFunc
	// namespaceOfKey is set when fn is MetaNamespaceIndexFunc and the
	// store's keys come from MetaNamespaceKeyFunc: an object's only index
	// value is then its namespace, which the keyed write path reads from
	// the object's metadata (objectNamespace) instead of calling fn.
	namespaceOfKey bool
	values         map[string]idSet
}

func newStoreIndex(name string, fn IndexFunc, keyFunc KeyFunc) *storeIndex {
	return &storeIndex{
		name:           name,
		fn:             fn,
		namespaceOfKey: sameFunc(fn, MetaNamespaceIndexFunc) && (sameFunc(keyFunc, MetaNamespaceKeyFunc) || sameFunc(keyFunc, DeletionHandlingMetaNamespaceKeyFunc)),
		values:         map[string]idSet{},
	}
}

// sameFunc reports whether a and b are the same top-level function. It
// uses reflection, once per index at creation, never per object.
func sameFunc[F IndexFunc | KeyFunc](a, b F) bool {
	return a != nil && b != nil && reflect.ValueOf(a).Pointer() == reflect.ValueOf(b).Pointer()
}

// objectNamespace returns the value MetaNamespaceIndexFunc files obj under
// (its namespace) without allocating; ok is false when obj has no object
// metadata, for which the function fails. The value is read from the
// object, not from its key: a name may hold a '/', making the key of a
// cluster-scoped object read like a namespaced one.
func objectNamespace(obj any) (namespace string, ok bool) {
	m, err := meta.Accessor(obj)
	if err != nil {
		return "", false
	}
	return m.GetNamespace(), true
}

func sortedIndexNames(indexers Indexers) []string {
	names := make([]string, 0, len(indexers))
	for name := range indexers {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}

func (s *threadSafeStore) key(obj any) (string, error) {
	if obj == nil {
		return "", errNilObject
	}
	key, err := s.keyFunc(obj)
	if err != nil {
		return "", fmt.Errorf("cache: cannot compute the key of a %T: %w", obj, err)
	}
	return key, nil
}

// index returns the index named name, or nil.
func (s *threadSafeStore) index(name string) *storeIndex {
	for _, ix := range s.indexes {
		if ix.name == name {
			return ix
		}
	}
	return nil
}

// unknownIndex is the error of a read through an index that does not
// exist, client-go's word for word (callers compare messages).
func unknownIndex(name string) error {
	return fmt.Errorf("Index with name %s does not exist", name)
}

func (ix *storeIndex) valuesOf(obj any) ([]string, error) {
	vals, err := ix.fn(obj)
	if err != nil {
		return nil, fmt.Errorf("cache: index %q: %w", ix.name, err)
	}
	return vals, nil
}

func (ix *storeIndex) add(id uint32, vals []string) {
	for _, v := range vals {
		ix.addValue(id, v)
	}
}

func (ix *storeIndex) addValue(id uint32, v string) {
	set := ix.values[v]
	set.add(id)
	ix.values[v] = set
}

func (ix *storeIndex) remove(id uint32, vals []string) {
	for _, v := range vals {
		ix.removeValue(id, v)
	}
}

func (ix *storeIndex) removeValue(id uint32, v string) {
	set, ok := ix.values[v]
	if !ok {
		return
	}
	set.remove(id)
	if set.len() == 0 {
		delete(ix.values, v)
	} else {
		ix.values[v] = set
	}
}

// removeEverywhere drops id from every value; it is the fallback when the
// index function no longer accepts an object it accepted before.
func (ix *storeIndex) removeEverywhere(id uint32) {
	for v, set := range ix.values {
		if !set.has(id) {
			continue
		}
		set.remove(id)
		if set.len() == 0 {
			delete(ix.values, v)
		} else {
			ix.values[v] = set
		}
	}
}

// forget removes id, filed for old, from the index.
func (ix *storeIndex) forget(id uint32, old any) {
	oldVals, err := ix.fn(old)
	if err != nil {
		ix.removeEverywhere(id)
		return
	}
	ix.remove(id, oldVals)
}

// move refiles id from the values of old to vals.
func (ix *storeIndex) move(id uint32, old any, vals []string) {
	oldVals, err := ix.fn(old)
	if err != nil {
		ix.removeEverywhere(id)
		ix.add(id, vals)
		return
	}
	if len(oldVals) == 1 && len(vals) == 1 && oldVals[0] == vals[0] {
		return
	}
	ix.remove(id, oldVals)
	ix.add(id, vals)
}

// Add inserts obj or replaces the object stored under its key. It fails,
// leaving the store unchanged, when the key or an index value of obj
// cannot be computed.
func (s *threadSafeStore) Add(obj any) error { return s.put(obj) }

// Update is Add: it inserts obj when its key is absent.
func (s *threadSafeStore) Update(obj any) error { return s.put(obj) }

func (s *threadSafeStore) put(obj any) error {
	key, err := s.key(obj)
	if err != nil {
		return err
	}
	return s.putKeyed(key, obj)
}

// putLocked stores obj under key in objects and files it in indexes, vals
// holding its values for each index.
func putLocked(objects *objectTable, indexes []*storeIndex, key string, obj any, vals [][]string) {
	if id, ok := objects.lookup(key); ok {
		e := objects.at(id)
		old := e.obj
		e.obj = obj
		for i, ix := range indexes {
			ix.move(id, old, vals[i])
		}
		return
	}
	id := objects.insert(key, obj)
	for i, ix := range indexes {
		ix.add(id, vals[i])
	}
}

// Delete removes the object stored under obj's key; an absent key is not
// an error.
func (s *threadSafeStore) Delete(obj any) error {
	key, err := s.key(obj)
	if err != nil {
		return err
	}
	s.deleteKeyed(key)
	return nil
}

// List returns every stored object, in no particular order.
func (s *threadSafeStore) List() []any {
	s.mu.RLock()
	defer s.mu.RUnlock()
	list := make([]any, 0, s.objects.len())
	s.objects.each(func(_ uint32, e *entry) bool {
		list = append(list, e.obj)
		return true
	})
	return list
}

// ListKeys returns every stored key, in no particular order.
func (s *threadSafeStore) ListKeys() []string {
	s.mu.RLock()
	defer s.mu.RUnlock()
	keys := make([]string, 0, s.objects.len())
	s.objects.each(func(_ uint32, e *entry) bool {
		keys = append(keys, e.key)
		return true
	})
	return keys
}

// Get returns the object stored under obj's key.
func (s *threadSafeStore) Get(obj any) (any, bool, error) {
	key, err := s.key(obj)
	if err != nil {
		return nil, false, err
	}
	return s.GetByKey(key)
}

// GetByKey returns the object stored under key.
func (s *threadSafeStore) GetByKey(key string) (any, bool, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	id, ok := s.objects.lookup(key)
	if !ok {
		return nil, false, nil
	}
	return s.objects.at(id).obj, true, nil
}

// Replace atomically replaces the content with list; when list holds two
// objects with the same key the last one wins. It fails, leaving the store
// unchanged, when a key or an index value cannot be computed.
// resourceVersion becomes LastStoreSyncResourceVersion.
func (s *threadSafeStore) Replace(list []any, resourceVersion string) error {
	keys := make([]string, len(list))
	for i, obj := range list {
		key, err := s.key(obj)
		if err != nil {
			return err
		}
		keys[i] = key
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	objects, indexes, err := build(keys, list, s.indexes)
	if err != nil {
		return err
	}
	s.objects, s.indexes = objects, indexes
	s.Bookmark(resourceVersion)
	return nil
}

// build returns a fresh object table holding list, filed under keys, and
// fresh copies of indexes filing them.
func build(keys []string, list []any, indexes []*storeIndex) (objectTable, []*storeIndex, error) {
	objects := newObjectTable(len(list))
	fresh := make([]*storeIndex, len(indexes))
	for i, ix := range indexes {
		fresh[i] = &storeIndex{name: ix.name, fn: ix.fn, namespaceOfKey: ix.namespaceOfKey, values: make(map[string]idSet, len(ix.values))}
	}
	vals := make([][]string, len(fresh))
	for i, obj := range list {
		for j, ix := range fresh {
			v, err := ix.valuesOf(obj)
			if err != nil {
				return objectTable{}, nil, err
			}
			vals[j] = v
		}
		putLocked(&objects, fresh, keys[i], obj, vals)
	}
	return objects, fresh, nil
}

// Resync does nothing: a store has no queue to refill.
func (s *threadSafeStore) Resync() error { return nil }

// Index returns the stored objects sharing at least one value of index
// indexName with obj, each once (an empty, non-nil slice when none does).
// An error of the index function is returned as it is, as client-go does.
func (s *threadSafeStore) Index(indexName string, obj any) ([]any, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	ix := s.index(indexName)
	if ix == nil {
		return nil, unknownIndex(indexName)
	}
	vals, err := ix.fn(obj)
	if err != nil {
		return nil, err
	}
	if len(vals) == 1 {
		return s.objectsOf(ix.values[vals[0]]), nil
	}
	list := []any{}
	seen := map[uint32]struct{}{}
	for _, v := range vals {
		ix.values[v].all(func(id uint32) bool {
			if _, dup := seen[id]; !dup {
				seen[id] = struct{}{}
				list = append(list, s.objects.at(id).obj)
			}
			return true
		})
	}
	return list, nil
}

func (s *threadSafeStore) objectsOf(set idSet) []any {
	list := make([]any, 0, set.len())
	set.all(func(id uint32) bool {
		list = append(list, s.objects.at(id).obj)
		return true
	})
	return list
}

// ByIndex returns the stored objects whose indexName index holds
// indexedValue.
func (s *threadSafeStore) ByIndex(indexName, indexedValue string) ([]any, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	ix := s.index(indexName)
	if ix == nil {
		return nil, unknownIndex(indexName)
	}
	return s.objectsOf(ix.values[indexedValue]), nil
}

// IndexKeys returns the keys of the stored objects whose indexName index
// holds indexedValue, sorted (as client-go's).
func (s *threadSafeStore) IndexKeys(indexName, indexedValue string) ([]string, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	ix := s.index(indexName)
	if ix == nil {
		return nil, unknownIndex(indexName)
	}
	set := ix.values[indexedValue]
	keys := make([]string, 0, set.len())
	set.all(func(id uint32) bool {
		keys = append(keys, s.objects.at(id).key)
		return true
	})
	sort.Strings(keys)
	return keys, nil
}

// ListIndexFuncValues returns the values present in index indexName, in
// no particular order; empty (not nil) when the index does not exist, as
// client-go's.
func (s *threadSafeStore) ListIndexFuncValues(indexName string) []string {
	s.mu.RLock()
	defer s.mu.RUnlock()
	ix := s.index(indexName)
	if ix == nil {
		return []string{}
	}
	vals := make([]string, 0, len(ix.values))
	for v := range ix.values {
		vals = append(vals, v)
	}
	return vals
}

// GetIndexers returns a copy of the installed indexers.
func (s *threadSafeStore) GetIndexers() Indexers {
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := make(Indexers, len(s.indexes))
	for _, ix := range s.indexes {
		out[ix.name] = ix.fn
	}
	return out
}

// AddIndexers installs newIndexers and indexes the stored objects with
// them at once. It fails, installing none of them, when a name is already
// installed or an index function rejects a stored object.
func (s *threadSafeStore) AddIndexers(newIndexers Indexers) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	added := make([]*storeIndex, 0, len(newIndexers))
	for _, name := range sortedIndexNames(newIndexers) {
		if s.index(name) != nil {
			return fmt.Errorf("cache: index %q already exists", name)
		}
		added = append(added, newStoreIndex(name, newIndexers[name], s.keyFunc))
	}
	var err error
	s.objects.each(func(id uint32, e *entry) bool {
		for _, ix := range added {
			var vals []string
			if vals, err = ix.valuesOf(e.obj); err != nil {
				return false
			}
			ix.add(id, vals)
		}
		return true
	})
	if err != nil {
		return err
	}
	all := append(append([]*storeIndex(nil), s.indexes...), added...)
	sort.Slice(all, func(i, j int) bool { return all[i].name < all[j].name })
	s.indexes = all
	return nil
}

// PeekByKey returns the object stored under key (GetByKey without the
// error): the compaction hint's read of the cache (cacheReader). It waits
// for a writer, as every read does.
func (s *threadSafeStore) PeekByKey(key string) (any, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	id, ok := s.objects.lookup(key)
	if !ok {
		return nil, false
	}
	return s.objects.at(id).obj, true
}

// Len returns how many objects are stored.
func (s *threadSafeStore) Len() int {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.objects.len()
}
