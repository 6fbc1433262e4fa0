package cache

import "fmt"

// This file holds the part of the DeltaFIFO its reflector sink (queueSink,
// reflector_sink.go) calls, for a DeltaFIFO that
// wants each page of a list as it arrives, before the list is complete, and
// the finished list through replacePrepared instead of Replace.
//
// The point is memory: a list is held whole until it is stored (a relist is
// stored atomically), and the server's objects are usually larger than what
// the cache keeps. Preparing each page as it arrives lets the full objects
// of a page become garbage before the next page arrives, so a list costs
// about one cached copy, not one full copy, on top of the cache.

// prepareListed replaces, in place, each object of one page by the
// object to queue for it: the cached object itself when it is the same
// object at the same resourceVersion (nothing to store, nothing to
// transform), and otherwise the object after the queue's transform.
// A key with queued deltas is not
// matched against the cache, whose object for it is about to change. The
// transform and compaction run outside the queue's lock.
func (f *DeltaFIFO) prepareListed(page []any) error {
	cached, err := f.takeCached(page)
	if err != nil {
		return err
	}
	if !f.prepares() {
		return nil
	}
	for i, obj := range page {
		var hint any
		if cached != nil {
			if cached[i].taken {
				continue
			}
			hint = cached[i].hint
		}
		out, err := f.prepare(obj, hint)
		if err != nil {
			return err
		}
		page[i] = out
	}
	return nil
}

// cachedSlot is what the queue knows of one listed object's key.
type cachedSlot struct {
	// taken: the listed object was replaced by the cached one (unchanged).
	taken bool
	// hint is the compact object known for the key (hintLocked), when the
	// queue compacts.
	hint any
}

// takeCached replaces each object of page that the cache holds
// unchanged (same UID and resourceVersion, nothing queued for its key) by
// the cached object, and reports for each slot whether it replaced it and
// the hint to compact the others with; nil when there is nothing to
// report. It takes the queue's lock.
func (f *DeltaFIFO) takeCached(page []any) ([]cachedSlot, error) {
	if f.known == nil {
		return nil, nil
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.cache != nil && f.cache.Len() == 0 && f.keys.Len() == 0 {
		// Nothing cached, nothing queued (the first list): no match to
		// look for, no key to compute twice.
		return nil, nil
	}
	var slots []cachedSlot
	for i, obj := range page {
		key, err := f.KeyOf(obj)
		if err != nil {
			return nil, fmt.Errorf("cache: cannot key %T: %w", obj, err)
		}
		slot := f.cachedSlotLocked(key, obj)
		if slot.taken {
			page[i] = slot.hint
			slot.hint = nil
		}
		if slot.taken || slot.hint != nil {
			if slots == nil {
				slots = make([]cachedSlot, len(page))
			}
			slots[i] = slot
		}
	}
	return slots, nil
}

// cachedSlotLocked is what the queue knows of listed's key: with nothing
// queued for it, the key not in the batch being processed and the cached
// object unchanged, that object (as the hint, taken); otherwise the hint
// to compact listed with (see DeltaFIFO.hint).
func (f *DeltaFIFO) cachedSlotLocked(key string, listed any) cachedSlot {
	if hint, known := f.queueHintLocked(key); known {
		if f.compaction == nil {
			hint = nil
		}
		return cachedSlot{hint: hint}
	}
	old, exists, err := f.known.GetByKey(key)
	switch {
	case err != nil || !exists:
		return cachedSlot{}
	case unchangedRelist(old, listed):
		return cachedSlot{taken: true, hint: old}
	case f.compaction != nil:
		return cachedSlot{hint: old}
	}
	return cachedSlot{}
}

// replacePrepared is Replace of a list whose every object went through
// prepareListed.
func (f *DeltaFIFO) replacePrepared(list []any, resourceVersion string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.replaceListLocked(list, resourceVersion)
}
