package store

import (
	"errors"
	"fmt"
	"runtime"
	"sort"
	"sync"
	"sync/atomic"

	"k8s.io/apimachinery/pkg/api/meta"
)

// KeyFunc computes the key an object is stored under (runtime/cache's
// KeyFunc is this type).
type KeyFunc func(obj any) (string, error)

// IndexFunc computes the index values of obj. It must be deterministic and
// must not retain obj (runtime/cache's IndexFunc is this type).
type IndexFunc func(obj any) ([]string, error)

// Indexers maps index names to their IndexFunc (runtime/cache's Indexers
// is this type).
type Indexers map[string]IndexFunc

// ErrNilObject is returned when a nil object is handed to a store.
var ErrNilObject = errors.New("cache: cannot store a nil object")

// Config configures New.
type Config struct {
	// Key files objects. Required.
	Key KeyFunc
	// Indexers are the indexes maintained from the start.
	Indexers Indexers
	// ByNamespace reports whether an index function, with Key, files an
	// object under its namespace only (runtime/cache's
	// MetaNamespaceIndexFunc with a namespace key function): such an
	// index is filed from the object's metadata on the keyed write path,
	// without calling the function. nil: none is.
	ByNamespace func(fn IndexFunc) bool
}

// New returns an empty store; see Indexed.
func New(c Config) *Indexed {
	s := &Indexed{keyFunc: c.Key, byNamespace: c.ByNamespace, objects: newObjectTable(0)}
	for _, name := range sortedIndexNames(c.Indexers) {
		s.indexes = append(s.indexes, s.newIndex(name, c.Indexers[name]))
	}
	return s
}

// Indexed is the thread-safe indexed store: the cache of an informer and
// the content of runtime/cache's NewIndexer, NewStore and
// NewThreadSafeStore. It implements runtime/cache's Indexer (but for
// Transaction, which the front adds) over an objectTable guarded by a
// RWMutex. Reads take the read lock; every write, including index upkeep,
// happens under the write lock so index reads are always exact; every
// read waits for a writer to finish (none is skipped because a lock is
// held). Index and key functions run with the lock held: they must be
// fast and must not call back into the store.
type Indexed struct {
	keyFunc     KeyFunc                 // immutable
	byNamespace func(fn IndexFunc) bool // immutable; see Config.ByNamespace

	// mu guards objects and indexes; it is the innermost lock of
	// runtime/cache (see its doc.go): nothing is called with it held but
	// index and key functions and SwapKeyed's keep. Every object in objects is filed in every index under
	// the values its index function gave when it was stored.
	mu      sync.RWMutex
	objects objectTable
	indexes []*storeIndex // sorted by name

	lastRV atomic.Pointer[string] // see LastStoreSyncResourceVersion; atomic
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

// newIndex returns an empty index named name computed by fn.
func (s *Indexed) newIndex(name string, fn IndexFunc) *storeIndex {
	return &storeIndex{
		name:           name,
		fn:             fn,
		namespaceOfKey: s.byNamespace != nil && s.byNamespace(fn),
		values:         map[string]idSet{},
	}
}

// NamespaceFiled reports whether index name is filed from the objects'
// namespaces without calling its function (Config.ByNamespace).
func (s *Indexed) NamespaceFiled(name string) bool {
	s.mu.RLock()
	defer s.mu.RUnlock()
	ix := s.index(name)
	return ix != nil && ix.namespaceOfKey
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

func (s *Indexed) key(obj any) (string, error) {
	if obj == nil {
		return "", ErrNilObject
	}
	key, err := s.keyFunc(obj)
	if err != nil {
		return "", fmt.Errorf("cache: cannot compute the key of a %T: %w", obj, err)
	}
	return key, nil
}

// index returns the index named name, or nil.
func (s *Indexed) index(name string) *storeIndex {
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
func (s *Indexed) Add(obj any) error { return s.put(obj) }

// Update is Add: it inserts obj when its key is absent.
func (s *Indexed) Update(obj any) error { return s.put(obj) }

func (s *Indexed) put(obj any) error {
	key, err := s.key(obj)
	if err != nil {
		return err
	}
	return s.PutKeyed(key, obj)
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
func (s *Indexed) Delete(obj any) error {
	key, err := s.key(obj)
	if err != nil {
		return err
	}
	s.DeleteKeyed(key)
	return nil
}

// List returns every stored object, in no particular order.
func (s *Indexed) List() []any {
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
func (s *Indexed) ListKeys() []string {
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
func (s *Indexed) Get(obj any) (any, bool, error) {
	key, err := s.key(obj)
	if err != nil {
		return nil, false, err
	}
	return s.GetByKey(key)
}

// GetByKey returns the object stored under key.
func (s *Indexed) GetByKey(key string) (any, bool, error) {
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
func (s *Indexed) Replace(list []any, resourceVersion string) error {
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
func (s *Indexed) Resync() error { return nil }

// Index returns the stored objects sharing at least one value of index
// indexName with obj, each once (an empty, non-nil slice when none does).
// An error of the index function is returned as it is, as client-go does.
func (s *Indexed) Index(indexName string, obj any) ([]any, error) {
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

func (s *Indexed) objectsOf(set idSet) []any {
	list := make([]any, 0, set.len())
	set.all(func(id uint32) bool {
		list = append(list, s.objects.at(id).obj)
		return true
	})
	return list
}

// ByIndex returns the stored objects whose indexName index holds
// indexedValue.
func (s *Indexed) ByIndex(indexName, indexedValue string) ([]any, error) {
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
func (s *Indexed) IndexKeys(indexName, indexedValue string) ([]string, error) {
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
func (s *Indexed) ListIndexFuncValues(indexName string) []string {
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
func (s *Indexed) GetIndexers() Indexers {
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
func (s *Indexed) AddIndexers(newIndexers Indexers) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	added := make([]*storeIndex, 0, len(newIndexers))
	for _, name := range sortedIndexNames(newIndexers) {
		if s.index(name) != nil {
			return fmt.Errorf("cache: index %q already exists", name)
		}
		added = append(added, s.newIndex(name, newIndexers[name]))
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
// error): the compaction hint's read of the cache (the queue's cache
// reader), for a key nothing is writing, with no queue lock held. It
// waits for a writer, as every read does, so what it returns does not
// depend on who holds the lock; it waits by spinning briefly, then
// yielding a few times, before it blocks (readLock): yielding at once gave
// the in-memory update benchmark on 2 cores 1.04x-1.18x client-go's
// events/s against 0.83x-0.86x blocking at once.
func (s *Indexed) PeekByKey(key string) (any, bool) {
	s.readLock()
	defer s.mu.RUnlock()
	id, ok := s.objects.lookup(key)
	if !ok {
		return nil, false
	}
	return s.objects.at(id).obj, true
}

// Len returns how many objects are stored.
func (s *Indexed) Len() int {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.objects.len()
}

// Bookmark records rv as the resourceVersion the store reflects; "" is
// ignored.
func (s *Indexed) Bookmark(rv string) {
	if rv == "" {
		return
	}
	s.lastRV.Store(&rv)
}

// LastStoreSyncResourceVersion returns the resourceVersion last recorded
// (Replace, Bookmark); "" before any.
func (s *Indexed) LastStoreSyncResourceVersion() string {
	if rv := s.lastRV.Load(); rv != nil {
		return *rv
	}
	return ""
}

// readLock takes the read lock without parking while the writer is
// quick: a writer of this store holds its lock for one change at a time
// (a lookup and a swap, well under a microsecond), so while another
// processor runs the writer, readLock spins on TryRLock for a few
// microseconds at most (spinTries); then it tries a few times more,
// yielding the processor between tries (the writer may be waiting for a
// processor), and only then blocks. A yield puts the reader behind every
// goroutine runnable on its processor (an informer's listeners), and a
// reader that parks on a held lock is woken only once the writer's
// processor gives it a turn: either costs far more than the write it
// waited for. Every path reads under the read lock, so what the caller
// reads does not depend on which one took it.
func (s *Indexed) readLock() {
	if s.mu.TryRLock() {
		return
	}
	if runtime.GOMAXPROCS(0) > 1 {
		for range spinTries {
			if s.mu.TryRLock() {
				return
			}
		}
	}
	for range peekTries {
		runtime.Gosched()
		if s.mu.TryRLock() {
			return
		}
	}
	s.mu.RLock()
}

// spinTries is how many times readLock tries the read lock back to back
// before it yields: a failed try is one load of the lock word, so this is
// a few microseconds, about what sync.Mutex spins before it parks.
const spinTries = 1024

// peekTries is how many times readLock yields and tries before it blocks.
const peekTries = 8
