package cache

import (
	"reflect"

	"github.com/informer-gen/informer-gen/runtime/cache/internal/store"
)

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

// NewStore returns an empty Store, without indexes, that files objects under
// keyFunc. It is safe for concurrent use. opts as for NewIndexer.
func NewStore(keyFunc KeyFunc, opts ...StoreOption) Store {
	return NewIndexer(keyFunc, nil, opts...)
}

// threadSafeStore is the Indexer of NewIndexer and the informer's cache:
// the engine's indexed store (package internal/store), whose keyed
// methods (SwapKeyed, DeleteKeyed, ListKeyed, PeekByKey, ...) the
// informer and its queue use, with client-go's Transaction added
// (transaction.go). Safe for concurrent use.
type threadSafeStore struct {
	*store.Indexed
	keyFunc KeyFunc // immutable
}

// newThreadSafeStore is NewIndexer, returning the concrete store for
// callers that use its keyed write path.
func newThreadSafeStore(keyFunc KeyFunc, indexers Indexers) *threadSafeStore {
	return &threadSafeStore{
		Indexed: store.New(store.Config{Key: keyFunc, Indexers: indexers, ByNamespace: byNamespace(keyFunc)}),
		keyFunc: keyFunc,
	}
}

// byNamespace is the store's Config.ByNamespace for keyFunc: with
// MetaNamespaceKeyFunc or DeletionHandlingMetaNamespaceKeyFunc, an index
// computed by MetaNamespaceIndexFunc files an object under its namespace
// only, which the store reads from the object's metadata.
func byNamespace(keyFunc KeyFunc) func(IndexFunc) bool {
	if !sameFunc(keyFunc, MetaNamespaceKeyFunc) && !sameFunc(keyFunc, DeletionHandlingMetaNamespaceKeyFunc) {
		return nil
	}
	return func(fn IndexFunc) bool { return sameFunc(fn, MetaNamespaceIndexFunc) }
}

// sameFunc reports whether a and b are the same top-level function. It
// uses reflection, once per index at creation, never per object.
func sameFunc[F IndexFunc | KeyFunc](a, b F) bool {
	return a != nil && b != nil && reflect.ValueOf(a).Pointer() == reflect.ValueOf(b).Pointer()
}
