package cache

import (
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/utils/clock"
)

// This file holds client-go's test doubles for ExpirationCache, used by
// the tests of code that keeps an expiration store.

// reportingKeyedStore is the storage of a fake ExpirationCache: it sends
// the key of every entry it deletes on deletedKeys. As in client-go, with a
// nil deletedKeys, Delete deletes nothing.
type reportingKeyedStore struct {
	ThreadSafeStore
	deletedKeys chan<- string
}

// Delete removes the entry under key and reports key.
func (c *reportingKeyedStore) Delete(key string) {
	if c.deletedKeys != nil {
		c.ThreadSafeStore.Delete(key)
		c.deletedKeys <- key
	}
}

// FakeExpirationPolicy expires every entry except those whose key (by
// RetrieveKeyFunc, given the TimestampedEntry) is in NeverExpire.
//
// Compatibility code, kept for code written against client-go: the informer
// does not use it.
type FakeExpirationPolicy struct {
	NeverExpire     sets.Set[string]
	RetrieveKeyFunc KeyFunc
}

// IsExpired reports whether obj's key is not in NeverExpire.
func (p *FakeExpirationPolicy) IsExpired(obj *TimestampedEntry) bool {
	key, _ := p.RetrieveKeyFunc(obj)
	return !p.NeverExpire.Has(key)
}

// NewFakeExpirationStore returns an ExpirationCache time-stamping with
// cacheClock and sending the key of each entry it expires on deletedKeys
// (which must be read, or have room, for reads to return).
func NewFakeExpirationStore(keyFunc KeyFunc, deletedKeys chan<- string, expirationPolicy ExpirationPolicy, cacheClock clock.Clock) Store {
	return &ExpirationCache{
		cacheStorage:     &reportingKeyedStore{NewThreadSafeStore(Indexers{}, Indices{}), deletedKeys},
		keyFunc:          keyFunc,
		clock:            cacheClock,
		expirationPolicy: expirationPolicy,
	}
}
