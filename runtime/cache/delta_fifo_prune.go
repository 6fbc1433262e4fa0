package cache

import (
	"fmt"

	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
)

// This file holds the part of the DeltaFIFO its reflector sink (queueSink,
// reflector_sink.go) calls, for a DeltaFIFO that can
// drop, without a list, the objects a narrower shard no longer holds.

// pruneOutside queues a Deleted DeletedFinalStateUnknown tombstone
// for every object the queue or the cache holds (in its newest queued
// state, else its cached one) for which keep is false, as a relist
// that no longer holds it would.
func (f *DeltaFIFO) pruneOutside(keep func(obj any) bool) error {
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
		if err := f.queueTombstoneLocked(e.Key(), newest.Object); err != nil {
			return err
		}
	}
	if f.known == nil {
		return nil
	}
	for _, key := range f.known.ListKeys() {
		if _, queued := f.queuedLocked(key); queued {
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
		if err := f.queueTombstoneLocked(key, obj); err != nil {
			return err
		}
	}
	return nil
}
