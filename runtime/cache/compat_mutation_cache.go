package cache

import (
	"errors"
	"strconv"
	"sync"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	utilcache "k8s.io/apimachinery/pkg/util/cache"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/klog/v2"
)

// MutationCache overlays a store (usually an informer's) with the objects
// a controller wrote itself, so that it reads its own writes before the
// informer has seen them: GetByKey and ByIndex return the newer (by
// resourceVersion) of the store's object and the one given to Mutation.
// Call OnAddOrUpdate and OnDelete from informer handlers to drop mutations
// the store has caught up with. Implementations are safe for concurrent
// use; only this package implements it.
//
// Compatibility code, kept for code written against client-go: the informer
// does not use it.
type MutationCache interface {
	GetByKey(key string) (any, bool, error)
	ByIndex(indexName, indexKey string) ([]any, error)
	Mutation(any)
	OnAddOrUpdate(obj runtime.Object)
	OnDelete(obj runtime.Object)

	internal()
}

// ResourceVersionComparator compares object versions: negative when lhs is
// older than rhs, 0 when equal, positive when newer.
//
// Compatibility code, kept for code written against client-go: the informer
// does not use it.
type ResourceVersionComparator interface {
	CompareResourceVersion(lhs, rhs runtime.Object) int
}

// MutationCacheOptions configures
// NewIntegerResourceVersionMutationCacheWithOptions.
//
// Compatibility code, kept for code written against client-go: the informer
// does not use it.
type MutationCacheOptions struct {
	// Indexer serves ByIndex; nil makes ByIndex fail.
	Indexer Indexer
	// TTL is how long a mutation is remembered; 0 means 5 minutes.
	TTL time.Duration
	// IncludeAdds makes GetByKey and ByIndex return mutated objects the
	// store does not hold (yet); they may then outlive a deletion by up to
	// TTL.
	IncludeAdds bool
	// MaxCacheSize bounds the mutations remembered, least recently used
	// first out; 0 means 100.
	MaxCacheSize int
}

// errNoMutationIndexer is ByIndex's error without an indexer (client-go's
// message).
var errNoMutationIndexer = errors.New("no indexer has been provided to the mutation cache")

// NewIntegerResourceVersionMutationCacheWithOptions returns a MutationCache
// over backingCache for objects whose resourceVersions are integers that
// grow with every write (as the API server's do).
func NewIntegerResourceVersionMutationCacheWithOptions(logger klog.Logger, backingCache Store, options MutationCacheOptions) MutationCache {
	maxSize, ttl := 100, 5*time.Minute
	if options.MaxCacheSize != 0 {
		maxSize = options.MaxCacheSize
	}
	if options.TTL != 0 {
		ttl = options.TTL
	}
	return &mutationCache{
		logger:        logger,
		backingCache:  backingCache,
		indexer:       options.Indexer,
		mutationCache: utilcache.NewLRUExpireCache(maxSize),
		comparator:    integerVersioner{},
		ttl:           ttl,
		includeAdds:   options.IncludeAdds,
	}
}

// NewIntegerResourceVersionMutationCache is
// NewIntegerResourceVersionMutationCacheWithOptions remembering up to 100
// mutations.
func NewIntegerResourceVersionMutationCache(logger klog.Logger, backingCache Store, indexer Indexer, ttl time.Duration, includeAdds bool) MutationCache {
	return NewIntegerResourceVersionMutationCacheWithOptions(logger, backingCache, MutationCacheOptions{
		TTL: ttl, Indexer: indexer, IncludeAdds: includeAdds, MaxCacheSize: 100,
	})
}

// mutationCache implements MutationCache. Since "the create was not
// observed yet" and "it was deleted since" cannot be told apart, a key
// absent from the backing store is absent unless includeAdds.
type mutationCache struct {
	logger       klog.Logger
	backingCache Store
	indexer      Indexer
	includeAdds  bool
	ttl          time.Duration
	comparator   ResourceVersionComparator

	// lock guards the reads and writes of mutationCache (itself safe for
	// concurrent use) that each method makes, as one atomic step.
	lock          sync.Mutex
	mutationCache *utilcache.LRUExpireCache // key -> mutated object or *mutationTombstone
}

func (c *mutationCache) internal() {}

// GetByKey returns the newer of the backing store's object under key and
// the mutation remembered for it.
func (c *mutationCache) GetByKey(key string) (any, bool, error) {
	c.lock.Lock()
	defer c.lock.Unlock()
	obj, exists, err := c.backingCache.GetByKey(key)
	if err != nil {
		return nil, false, err
	}
	if !exists {
		if !c.includeAdds {
			return nil, false, nil
		}
		obj, exists = c.mutationCache.Get(key)
		if _, dead := obj.(*mutationTombstone); !exists || dead {
			return nil, false, nil
		}
	}
	objRuntime, ok := obj.(runtime.Object)
	if !ok {
		return obj, true, nil
	}
	return c.newerObject(key, objRuntime), true, nil
}

// ByIndex returns the newer version of each object of the indexer's
// indexName index under indexKey and, with includeAdds, the remembered
// mutations filed there that the indexer does not hold.
func (c *mutationCache) ByIndex(name string, indexKey string) ([]any, error) {
	c.lock.Lock()
	defer c.lock.Unlock()
	if c.indexer == nil {
		return nil, errNoMutationIndexer
	}
	keys, err := c.indexer.IndexKeys(name, indexKey)
	if err != nil {
		return nil, err
	}
	var items []any
	keySet := sets.New[string]()
	for _, key := range keys {
		keySet.Insert(key)
		obj, exists, err := c.indexer.GetByKey(key)
		if err != nil {
			return nil, err
		}
		if !exists {
			continue
		}
		if objRuntime, ok := obj.(runtime.Object); ok {
			obj = c.newerObject(key, objRuntime)
		}
		items = append(items, obj)
	}
	if c.includeAdds {
		items = c.appendMutationsFiled(items, c.indexer.GetIndexers()[name], indexKey, keySet)
	}
	return items, nil
}

// appendMutationsFiled appends to items the remembered mutations, oldest
// first, whose key is not in skip and that fn files under indexKey.
func (c *mutationCache) appendMutationsFiled(items []any, fn IndexFunc, indexKey string, skip sets.Set[string]) []any {
	for _, key := range c.mutationCache.Keys() {
		updated, ok := c.mutationCache.Get(key)
		if !ok || skip.Has(key.(string)) {
			continue
		}
		if _, dead := updated.(*mutationTombstone); dead {
			continue
		}
		values, err := fn(updated)
		if err != nil {
			c.logger.V(4).Info("Unable to calculate an index entry for mutation cache entry", "key", key, "err", err)
			continue
		}
		for _, v := range values {
			if v == indexKey {
				items = append(items, updated)
				break
			}
		}
	}
	return items
}

// newerObject returns the remembered mutation of key when it is newer than
// backing, and otherwise backing, forgetting the outdated mutation. Called
// with lock held.
func (c *mutationCache) newerObject(key string, backing runtime.Object) runtime.Object {
	mutated, exists := c.mutationCache.Get(key)
	if !exists {
		return backing
	}
	mutatedRuntime, ok := mutated.(runtime.Object)
	if !ok {
		return backing
	}
	if c.comparator.CompareResourceVersion(backing, mutatedRuntime) >= 0 {
		c.mutationCache.Remove(key)
		return backing
	}
	return mutatedRuntime
}

// Mutation remembers obj, a result of the caller's own write, unless a
// newer version, or the deletion of this version or of this object (by
// UID), is remembered for its key.
func (c *mutationCache) Mutation(obj any) {
	c.lock.Lock()
	defer c.lock.Unlock()
	key, err := DeletionHandlingMetaNamespaceKeyFunc(obj)
	if err != nil {
		utilruntime.HandleErrorWithLogger(c.logger, err, "DeletionHandlingMetaNamespaceKeyFunc")
		return
	}
	if objRuntime, ok := obj.(runtime.Object); ok && c.outdated(key, objRuntime) {
		return
	}
	c.mutationCache.Add(key, obj, c.ttl)
}

// outdated reports whether what is remembered for key makes obj useless:
// a newer version, or a deletion of this version or of this object.
func (c *mutationCache) outdated(key string, obj runtime.Object) bool {
	remembered, exists := c.mutationCache.Get(key)
	if !exists {
		return false
	}
	rememberedRuntime, ok := remembered.(runtime.Object)
	if !ok {
		return false
	}
	cmp := c.comparator.CompareResourceVersion(obj, rememberedRuntime)
	if cmp < 0 {
		return true
	}
	t, dead := remembered.(*mutationTombstone)
	if !dead {
		return false
	}
	if cmp == 0 {
		return true
	}
	objMeta, err := meta.Accessor(obj)
	return err == nil && t.GetUID() == objMeta.GetUID()
}

// OnAddOrUpdate forgets the mutation of obj's key when obj (seen by the
// informer) is as new or newer.
func (c *mutationCache) OnAddOrUpdate(obj runtime.Object) {
	key, err := DeletionHandlingMetaNamespaceKeyFunc(obj)
	if err != nil {
		utilruntime.HandleErrorWithLogger(c.logger, err, "DeletionHandlingMetaNamespaceKeyFunc")
		return
	}
	c.lock.Lock()
	defer c.lock.Unlock()
	if mutated, exists := c.mutationCache.Get(key); exists {
		if mutated, ok := mutated.(runtime.Object); ok && c.comparator.CompareResourceVersion(obj, mutated) >= 0 {
			c.mutationCache.Remove(key)
		}
	}
}

// OnDelete records the deletion of obj (seen by the informer): a
// remembered mutation that is older or of the same object (UID) is
// replaced by a tombstone that keeps later Mutation calls of this object
// or of older versions out. A mutation of a newer object under the key is
// kept.
func (c *mutationCache) OnDelete(obj runtime.Object) {
	objMeta, err := meta.Accessor(obj)
	if err != nil {
		return
	}
	key, err := DeletionHandlingMetaNamespaceKeyFunc(obj)
	if err != nil {
		utilruntime.HandleErrorWithLogger(c.logger, err, "DeletionHandlingMetaNamespaceKeyFunc")
		return
	}
	c.lock.Lock()
	defer c.lock.Unlock()
	if mutated, exists := c.mutationCache.Get(key); exists {
		if mutated, ok := mutated.(runtime.Object); ok {
			mutatedMeta, err := meta.Accessor(mutated)
			if err != nil {
				return
			}
			if c.comparator.CompareResourceVersion(obj, mutated) < 0 && mutatedMeta.GetUID() != objMeta.GetUID() {
				return
			}
			c.mutationCache.Remove(key)
		}
	}
	t := &mutationTombstone{ObjectMeta: metav1.ObjectMeta{
		Namespace: objMeta.GetNamespace(), Name: objMeta.GetName(),
		UID: objMeta.GetUID(), ResourceVersion: objMeta.GetResourceVersion(),
	}}
	c.mutationCache.Add(key, t, c.ttl)
}

// integerVersioner compares resourceVersions as unsigned integers (empty
// is 0). It panics on one that is not an integer or on an object without
// metadata: the cache's caller promised integer versions.
type integerVersioner struct{}

func (integerVersioner) version(obj runtime.Object) uint64 {
	accessor, err := meta.Accessor(obj)
	if err != nil {
		panic(err)
	}
	rv := accessor.GetResourceVersion()
	if rv == "" {
		return 0
	}
	v, err := strconv.ParseUint(rv, 10, 64)
	if err != nil {
		panic(err)
	}
	return v
}

// CompareResourceVersion returns -1, 0 or 1 as lhs is older, as new as,
// or newer than rhs.
func (a integerVersioner) CompareResourceVersion(lhs, rhs runtime.Object) int {
	l, r := a.version(lhs), a.version(rhs)
	switch {
	case l == r:
		return 0
	case l < r:
		return -1
	default:
		return 1
	}
}

// mutationTombstone stands, in a mutation cache, for an object the
// informer saw deleted: its namespace, name, UID and resourceVersion. It
// is never returned to callers.
type mutationTombstone struct {
	metav1.ObjectMeta
}

// GetObjectKind returns an empty kind.
func (t *mutationTombstone) GetObjectKind() schema.ObjectKind { return schema.EmptyObjectKind }

// DeepCopyObject returns a copy of t.
func (t *mutationTombstone) DeepCopyObject() runtime.Object {
	return &mutationTombstone{ObjectMeta: *t.ObjectMeta.DeepCopy()}
}
