package queue

import (
	"fmt"
	"slices"

	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
)

// This file holds a (re)list's way into the queue: Replace (and
// ReplaceListed, fifo_list.go) queues every listed object and a tombstone
// for every key the list lacks; a relist is marked so that it leaves the
// queue as one batch (fifo_pop.go).

// Replace queues a Replaced delta for every object of list, then a Deleted
// tombstone for every queued or known key absent from list. The first call
// fixes the initial population that HasSynced waits for.
//
// When nothing is queued and the cache is empty (the first list), there
// is nothing to compare the list with, and Replace lets PopBatch take the
// keys already queued while it queues the rest.
//
// Replace is all or nothing: every object is transformed (an unchanged
// cached one is taken as is, see Config.Unchanged) before anything is
// queued, and a failed transform queues nothing.
func (f *FIFO) Replace(list []any, resourceVersion string) error {
	prepared := slices.Clone(list)
	if err := f.PrepareListed(prepared); err != nil {
		return err
	}
	return f.ReplaceListed(prepared, resourceVersion)
}

// replaceYieldEvery is how many keys a Replace into an empty queue and
// cache queues between two releases of the lock.
const replaceYieldEvery = 256

// replaceListLocked is Replace of a list whose every object went through
// PrepareListed (fifo_list.go).
func (f *FIFO) replaceListLocked(list []any) error {
	f.waitIdleLocked()
	var knownKeys []string
	if f.known != nil {
		knownKeys = f.known.ListKeys()
	}
	// Nothing queued and nothing cached: no key can be missing from the
	// list, so the list need not be queued atomically.
	fresh := f.keys.Len() == 0 && len(knownKeys) == 0
	if fresh {
		f.keys.Reserve(len(list))
	}
	f.listGen++
	if err := f.queueListedLocked(list, fresh); err != nil {
		return err
	}
	if !fresh {
		f.queueVanishedLocked(knownKeys)
		// Every key of this relist (and whatever was queued before it)
		// leaves the queue as one unit: see processOneBatchLocked.
		f.relistLast = f.keys.Last()
	}
	f.populated = true
	f.noteSyncedLocked()
	return nil
}

// noteSyncedLocked closes synced once the initial population is
// processed.
func (f *FIFO) noteSyncedLocked() {
	if !f.populated || f.initialPopulationCount != 0 {
		return
	}
	select {
	case <-f.synced:
	default:
		close(f.synced)
	}
}

// queueListedLocked queues every object of the list of Replace call
// f.listGen as Replaced. Into a fresh queue it lets go of the lock now and
// then, so PopBatch can apply the first objects meanwhile.
func (f *FIFO) queueListedLocked(list []any, fresh bool) error {
	for i, obj := range list {
		key, err := f.keyOf(obj)
		if err != nil {
			return err
		}
		e := f.queueKeyedLocked(key, Replaced, obj)
		e.Value.listGen = f.listGen
		f.markInitialLocked(e)
		if fresh && i%replaceYieldEvery == replaceYieldEvery-1 {
			f.mu.Unlock()
			f.mu.Lock()
		}
	}
	return nil
}

// queueVanishedLocked queues a Deleted tombstone for every key the queue
// or the cache (knownKeys) holds that the list of Replace call f.listGen
// did not: with the last state this client knew.
func (f *FIFO) queueVanishedLocked(knownKeys []string) {
	// Queued keys first: their newest queued state is the last known one.
	// Tombstones only append to entries already queued, so the queue does
	// not change length during the loop.
	for _, e := range f.keys.Entries() {
		if e.Value.listGen == f.listGen {
			continue
		}
		f.queueTombstoneLocked(e.Key(), tombstoneObject(e.Value.deltas.Newest().Object))
	}
	// The cache has not changed since knownKeys: no batch was processed
	// meanwhile.
	for _, key := range knownKeys {
		// Every queued key is now listed or holds a tombstone.
		if _, queued := f.keys.Queued(key); queued {
			continue
		}
		last, exists, err := f.known.GetByKey(key)
		if err != nil || !exists {
			utilruntime.HandleError(fmt.Errorf("cache: key %q vanished from the cache during Replace (err %v); queueing a tombstone without object", key, err))
			last = nil
		}
		f.queueTombstoneLocked(key, last)
	}
}

// queueTombstoneLocked queues a Deleted DeletedFinalStateUnknown of key
// holding last.
func (f *FIFO) queueTombstoneLocked(key string, last any) {
	e := f.queueKeyedLocked(key, Deleted, DeletedFinalStateUnknown{Key: key, Obj: last})
	f.markInitialLocked(e)
}

// markInitialLocked counts e in the initial population, which HasSynced
// waits for, while the first Replace is under way: every delta e holds
// now is a change of the initial list.
func (f *FIFO) markInitialLocked(e *fifoEntry) {
	if f.populated {
		return
	}
	if e.Value.initialDeltas == 0 {
		f.initialPopulationCount++
	}
	e.Value.initialDeltas = len(e.Value.deltas)
}
