// Package store is the thread-safe indexed store of runtime/cache: the
// informer's cache, and the content of runtime/cache's NewIndexer,
// NewStore and NewThreadSafeStore, which wrap it with client-go's
// declarations.
//
// # Data flow
//
//	informer's processing goroutine --SwapKeyed/DeleteKeyed--> Indexed (write lock)
//	DeltaFIFO (queue lock held)      --GetByKey/ListKeys/Len--> Indexed (read lock)
//	DeltaFIFO (no lock; the reflector's compaction hint) --PeekByKey--> Indexed (read lock)
//	listers, handlers' readers       --Get/List/ByIndex/Index...--> Indexed (read lock)
//
// An object lives in a slab entry {key, obj} addressed by a dense uint32
// id (objects.go); the key -> id table and the large id sets of the
// indexes are probe.Tables (package internal/probe); an index maps each
// value to the idSet of the objects filed under it (idset.go).
//
// # Contracts
//
// The keyed methods (PutKeyed, SwapKeyed, DeleteKeyed, ListKeyed,
// PeekByKey, ReplaceKeyed, Transact) take the key the caller computed
// with the store's key function, so the informer, whose queue keyed every
// object already, does not compute it twice. Every method is safe for
// concurrent use.
//
// # Locks
//
// One RWMutex per store guards its objects and indexes. It is the
// innermost lock of runtime/cache: the only code that runs under it is
// the store's own, the key and index functions, and SwapKeyed's keep
// callback, none of which may call back into the store or take another
// lock of runtime/cache. Reads never skip: a read waits for a writer.
//
// The store starts no goroutine.
package store
