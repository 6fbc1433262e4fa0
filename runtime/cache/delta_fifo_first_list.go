package cache

import "fmt"

// This file holds the part of the DeltaFIFO its reflector sink (queueSink,
// reflector_sink.go) calls, for a DeltaFIFO that takes
// the objects of its first list as they arrive, rather than in one Replace
// once the list is complete, so the informer stores and hands out the
// first objects while later ones are still being received. A relist is
// always stored whole (it is atomic, see doc.go); a first list can stream
// because there is nothing to compare it with: nothing was ever queued or
// cached, so no key can be missing from it.
//
// The reflector calls openFirstList, then queueFirstListed for each batch
// of objects in the order received, then closeFirstList with the list's
// resourceVersion, which completes the initial population HasSynced waits
// for. A first list that fails before its end is abandoned: the objects
// queued so far stay, as objects of a list not yet complete, and the
// next list, a relist by then, is stored whole and deletes (with a
// tombstone) those it does not hold.

// openFirstList reports whether nothing was ever listed, queued or
// cached; if so, a first list is open until closeFirstList or
// abandonFirstList.
func (f *DeltaFIFO) openFirstList() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.populated || f.firstListOpen || f.keys.Len() != 0 || f.processing {
		return false
	}
	if f.known != nil && len(f.known.ListKeys()) > 0 {
		return false
	}
	f.firstListOpen = true
	f.listGen++
	return true
}

// queueFirstListed prepares each object (the queue's transform, run
// outside the queue's lock) and queues it as a Replaced delta of the
// initial population. A failed transform queues nothing of batch.
func (f *DeltaFIFO) queueFirstListed(batch []any) error {
	if f.prepares() {
		for i, obj := range batch {
			out, err := f.prepare(obj, nil) // nothing cached yet
			if err != nil {
				return err
			}
			batch[i] = out
		}
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if !f.firstListOpen {
		return fmt.Errorf("cache: %s: no first list is open", f.name)
	}
	for i, obj := range batch {
		if i%replaceYieldEvery == replaceYieldEvery-1 {
			// Let popBatch apply the first objects meanwhile.
			f.mu.Unlock()
			f.mu.Lock()
			if !f.firstListOpen {
				return fmt.Errorf("cache: %s: the first list closed while being queued", f.name)
			}
		}
		key, err := f.KeyOf(obj)
		if err != nil {
			return fmt.Errorf("cache: cannot key %T: %w", obj, err)
		}
		e, err := f.queueKeyedLocked(key, Replaced, obj)
		if err != nil {
			return err
		}
		e.Value.listGen = f.listGen
		f.markInitialLocked(e)
	}
	return nil
}

// closeFirstList completes the initial population: HasSynced once
// every queued object was processed.
func (f *DeltaFIFO) closeFirstList(string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.firstListOpen = false
	f.populated = true
	f.noteSyncedLocked()
}

// abandonFirstList ends a first list that failed; what it queued
// stays queued.
func (f *DeltaFIFO) abandonFirstList() {
	f.mu.Lock()
	f.firstListOpen = false
	f.mu.Unlock()
}
