package queue

import (
	"fmt"

	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
)

// Prune queues a Deleted DeletedFinalStateUnknown tombstone for every
// object the queue or the cache holds (in its newest queued state, else
// its cached one) for which keep is false, as a relist that no longer
// holds it would: a narrower shard's objects leave without a list. It
// always can (ok).
func (f *FIFO) Prune(keep func(obj any) bool) (ok bool, err error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.waitIdleLocked()
	// Queued keys first: their newest queued state is the last known
	// one. Tombstones only append to entries already queued.
	for _, e := range f.keys.Entries() {
		newest := e.Value.deltas.Newest()
		if newest.Type == Deleted || keep(newest.Object) {
			continue
		}
		f.queueTombstoneLocked(e.Key(), newest.Object)
	}
	if f.known == nil {
		return true, nil
	}
	for _, key := range f.known.ListKeys() {
		if _, queued := f.keys.Queued(key); queued {
			continue
		}
		obj, exists, err := f.known.GetByKey(key)
		if err != nil {
			utilruntime.HandleError(fmt.Errorf("cache: pruning key %q: %w", key, err))
			continue
		}
		if !exists || keep(obj) {
			continue
		}
		f.queueTombstoneLocked(key, obj)
	}
	return true, nil
}
