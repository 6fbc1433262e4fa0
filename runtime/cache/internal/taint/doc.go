// Package taint is an informer's side of its compaction guard
// (runtime/compact's Guard): when the guard finds a shared canonical copy
// mutated, the informer's Holder finds the cached objects holding it,
// marks them in a Set and asks the reflector for a relist; the relist
// then replaces the marked objects even though their resourceVersion did
// not change (runtime/cache's unchangedRelist consults the Set).
//
// # Data flow
//
//	guard's goroutine (compact.Guard, sampling)
//	  Holder.Corrupted(m)     store.Indexed.List (its read lock), Mutation.PathsIn per object
//	    Set.Add(obj)          Set.mu
//	    Relist <- struct{}{}  non-blocking: one relist pending at most
//	informer's processing goroutine and the queue's producers
//	  Set.Has(old)            one atomic load while the set is empty; else Set.mu
//
// # Goroutines and locks
//
// The package starts no goroutine. Set.mu guards the set's map and is a
// leaf: nothing else is locked while it is held. The set holds its
// objects weakly: a marked object that left the cache and was collected
// leaves the set at the next Add.
package taint
