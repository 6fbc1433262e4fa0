package cache

import (
	"sync"
	"time"

	"k8s.io/utils/clock"
)

// ExpirationCache is client-go's Store whose entries expire: every entry
// is time-stamped when it is written, and expiry happens lazily, on read,
// by the ExpirationPolicy. Reads return the objects, never the
// TimestampedEntry wrapping them. It is safe for concurrent use, and
// slower than a plain store: every read of an entry takes a write lock to
// check its expiry.
//
// Compatibility code, kept for code written against client-go: the informer
// does not use it.
type ExpirationCache struct {
	// Set at construction, read-only after; cacheStorage is safe for
	// concurrent use.
	cacheStorage     ThreadSafeStore
	keyFunc          KeyFunc
	clock            clock.Clock
	expirationPolicy ExpirationPolicy
	// expirationLock guards the step from deciding an entry expired to
	// deleting it against writes, so a fresh entry written under the same key is never
	// deleted for its predecessor's age.
	expirationLock sync.Mutex
}

// ExpirationPolicy decides when an entry of an ExpirationCache expires.
//
// Compatibility code, kept for code written against client-go: the informer
// does not use it.
type ExpirationPolicy interface {
	IsExpired(obj *TimestampedEntry) bool
}

// TTLPolicy expires entries older than TTL.
//
// Compatibility code, kept for code written against client-go: the informer
// does not use it.
type TTLPolicy struct {
	// TTL > 0 expires entries whose age exceeds it; TTL <= 0 expires none.
	TTL time.Duration
	// Clock measures the entries' age.
	Clock clock.Clock
}

// IsExpired reports whether obj is older than the TTL.
func (p *TTLPolicy) IsExpired(obj *TimestampedEntry) bool {
	return p.TTL > 0 && p.Clock.Since(obj.Timestamp) > p.TTL
}

// TimestampedEntry is an object stored in an ExpirationCache with the
// time it was written. Timestamps come from the cache's clock: do not mix
// in times from another machine (such as the API server's).
//
// Compatibility code, kept for code written against client-go: the informer
// does not use it.
type TimestampedEntry struct {
	Obj       any
	Timestamp time.Time
	key       string
}

// getTimestampedEntry returns the entry stored under key.
func (c *ExpirationCache) getTimestampedEntry(key string) (*TimestampedEntry, bool) {
	item, _ := c.cacheStorage.Get(key)
	if entry, ok := item.(*TimestampedEntry); ok {
		return entry, true
	}
	return nil, false
}

// getOrExpire returns the object stored under key unless its entry
// expired, in which case it deletes the entry.
func (c *ExpirationCache) getOrExpire(key string) (any, bool) {
	c.expirationLock.Lock()
	defer c.expirationLock.Unlock()
	entry, exists := c.getTimestampedEntry(key)
	if !exists {
		return nil, false
	}
	if c.expirationPolicy.IsExpired(entry) {
		c.cacheStorage.Delete(key)
		return nil, false
	}
	return entry.Obj, true
}

// GetByKey returns the unexpired object stored under key.
func (c *ExpirationCache) GetByKey(key string) (any, bool, error) {
	obj, exists := c.getOrExpire(key)
	return obj, exists, nil
}

// Get returns the unexpired object stored under obj's key; the error is a
// KeyError when the key cannot be computed.
func (c *ExpirationCache) Get(obj any) (any, bool, error) {
	key, err := c.keyFunc(obj)
	if err != nil {
		return nil, false, KeyError{obj, err}
	}
	item, exists := c.getOrExpire(key)
	return item, exists, nil
}

// List returns the unexpired objects, deleting the expired entries.
func (c *ExpirationCache) List() []any {
	items := c.cacheStorage.List()
	list := make([]any, 0, len(items))
	for _, item := range items {
		if obj, exists := c.getOrExpire(item.(*TimestampedEntry).key); exists {
			list = append(list, obj)
		}
	}
	return list
}

// LastStoreSyncResourceVersion returns the resourceVersion last recorded.
func (c *ExpirationCache) LastStoreSyncResourceVersion() string {
	return c.cacheStorage.LastStoreSyncResourceVersion()
}

// Bookmark records rv.
func (c *ExpirationCache) Bookmark(rv string) {
	c.cacheStorage.Bookmark(rv)
}

// ListKeys returns the key of every entry, expired or not (as client-go's
// does: listing keys expires nothing).
func (c *ExpirationCache) ListKeys() []string {
	return c.cacheStorage.ListKeys()
}

// Add time-stamps obj and stores it, replacing the entry under its key.
func (c *ExpirationCache) Add(obj any) error {
	key, err := c.keyFunc(obj)
	if err != nil {
		return KeyError{obj, err}
	}
	c.expirationLock.Lock()
	defer c.expirationLock.Unlock()
	c.cacheStorage.Add(key, &TimestampedEntry{obj, c.clock.Now(), key})
	return nil
}

// Update is Add: it refreshes the entry's timestamp.
func (c *ExpirationCache) Update(obj any) error {
	return c.Add(obj)
}

// Delete removes the entry under obj's key.
func (c *ExpirationCache) Delete(obj any) error {
	key, err := c.keyFunc(obj)
	if err != nil {
		return KeyError{obj, err}
	}
	c.expirationLock.Lock()
	defer c.expirationLock.Unlock()
	c.cacheStorage.DeleteWithObject(key, obj)
	return nil
}

// Replace makes list, all time-stamped now, the whole content. It fails,
// changing nothing, with a KeyError when a key cannot be computed.
func (c *ExpirationCache) Replace(list []any, resourceVersion string) error {
	items := make(map[string]any, len(list))
	ts := c.clock.Now()
	for _, item := range list {
		key, err := c.keyFunc(item)
		if err != nil {
			return KeyError{item, err}
		}
		items[key] = &TimestampedEntry{item, ts, key}
	}
	c.expirationLock.Lock()
	defer c.expirationLock.Unlock()
	c.cacheStorage.Replace(items, resourceVersion)
	return nil
}

// Resync does nothing.
func (c *ExpirationCache) Resync() error {
	return nil
}

// NewTTLStore returns an ExpirationCache whose entries expire ttl after
// they were written (never when ttl <= 0), by the real clock.
func NewTTLStore(keyFunc KeyFunc, ttl time.Duration) Store {
	return NewExpirationStore(keyFunc, &TTLPolicy{ttl, clock.RealClock{}})
}

// NewExpirationStore returns an ExpirationCache whose entries expire by
// expirationPolicy, time-stamped by the real clock.
func NewExpirationStore(keyFunc KeyFunc, expirationPolicy ExpirationPolicy) Store {
	return &ExpirationCache{
		cacheStorage:     NewThreadSafeStore(Indexers{}, Indices{}),
		keyFunc:          keyFunc,
		clock:            clock.RealClock{},
		expirationPolicy: expirationPolicy,
	}
}
