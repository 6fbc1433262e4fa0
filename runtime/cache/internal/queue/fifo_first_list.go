package queue

import "fmt"

// This file holds the queue's FirstList: it takes the objects of its
// first list as they arrive, rather than in one Replace once the list is
// complete, so the informer stores and hands out the first objects while
// later ones are still being received. A relist is always stored whole
// (it is atomic); a first list can stream because there is nothing to
// compare it with: nothing was ever queued or cached, so no key can be
// missing from it.
//
// The reflector calls OpenFirstList, then QueueListed for each batch of
// objects in the order received, then Close with the list's
// resourceVersion, which completes the initial population HasSynced waits
// for. A first list that fails before its end is abandoned: the objects
// queued so far stay, as objects of a list not yet complete, and the next
// list, a relist by then, is stored whole and deletes (with a tombstone)
// those it does not hold.

// firstList is the FirstList of a FIFO.
type firstList struct{ f *FIFO }

// OpenFirstList opens a first list when nothing was ever listed, queued
// or cached and none is open: it is open until its Close or Abandon.
func (f *FIFO) OpenFirstList() (FirstList, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.populated || f.firstListOpen || f.keys.Len() != 0 || f.processing {
		return nil, false
	}
	if f.known != nil && len(f.known.ListKeys()) > 0 {
		return nil, false
	}
	f.firstListOpen = true
	f.listGen++
	return firstList{f}, true
}

// QueueListed prepares each object (the queue's transform, run outside
// the queue's lock) and queues it as a Replaced delta of the initial
// population. A failed transform queues nothing of batch.
func (l firstList) QueueListed(batch []any) error {
	f := l.f
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
		return fmt.Errorf("cache: %s: no first list is open", f.cfg.Name)
	}
	for i, obj := range batch {
		if i%replaceYieldEvery == replaceYieldEvery-1 {
			// Let PopBatch apply the first objects meanwhile.
			f.mu.Unlock()
			f.mu.Lock()
			if !f.firstListOpen {
				return fmt.Errorf("cache: %s: the first list closed while being queued", f.cfg.Name)
			}
		}
		key, err := f.keyOf(obj)
		if err != nil {
			return err
		}
		e := f.queueKeyedLocked(key, Replaced, obj)
		e.Value.listGen = f.listGen
		f.markInitialLocked(e)
	}
	return nil
}

// Delete queues the deletion of an object of the list (FIFO.Delete).
func (l firstList) Delete(obj any) error { return l.f.Delete(obj) }

// Close completes the initial population: HasSynced once every queued
// object was processed.
func (l firstList) Close(string) {
	f := l.f
	f.mu.Lock()
	defer f.mu.Unlock()
	f.firstListOpen = false
	f.populated = true
	f.noteSyncedLocked()
}

// Abandon ends a first list that failed; what it queued stays queued.
func (l firstList) Abandon() {
	l.f.mu.Lock()
	l.f.firstListOpen = false
	l.f.mu.Unlock()
}
