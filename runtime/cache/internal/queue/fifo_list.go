package queue

// This file holds how the queue takes a list that is stored whole (a
// relist, or a first list that could not stream): each page as it
// arrives, before the list is complete (PrepareListed), and the finished
// list through ReplaceListed instead of Replace.
//
// The point is memory: a list is held whole until it is stored (a relist is
// stored atomically), and the server's objects are usually larger than what
// the cache keeps. Preparing each page as it arrives lets the full objects
// of a page become garbage before the next page arrives, so a list costs
// about one cached copy, not one full copy, on top of the cache.

// PrepareListed replaces, in place, each object of one page by the
// object to queue for it: the cached object itself when it is the same
// object at the same version (Config.Unchanged: nothing to store, nothing
// to transform), and otherwise the object after the queue's transform
// and compaction. A key with queued deltas is not matched against the
// cache, whose object for it is about to change. The transform and
// compaction run outside the queue's lock.
func (f *FIFO) PrepareListed(page []any) error {
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
	// hint is the compact object known for the key (queueHintLocked),
	// when the queue compacts.
	hint any
}

// takeCached replaces each object of page that the cache holds
// unchanged (Config.Unchanged, nothing queued for its key) by the cached
// object, and reports for each slot whether it replaced it and the hint
// to compact the others with; nil when there is nothing to report. It
// takes the queue's lock.
func (f *FIFO) takeCached(page []any) ([]cachedSlot, error) {
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
		key, err := f.keyOf(obj)
		if err != nil {
			return nil, err
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
// to compact listed with (see FIFO.Hint).
func (f *FIFO) cachedSlotLocked(key string, listed any) cachedSlot {
	if hint, known := f.queueHintLocked(key); known {
		if f.compact == nil {
			hint = nil
		}
		return cachedSlot{hint: hint}
	}
	old, exists, err := f.known.GetByKey(key)
	switch {
	case err != nil || !exists:
		return cachedSlot{}
	case f.cfg.Unchanged != nil && f.cfg.Unchanged(old, listed):
		return cachedSlot{taken: true, hint: old}
	case f.compact != nil:
		return cachedSlot{hint: old}
	}
	return cachedSlot{}
}

// ReplaceListed is Replace of a list whose every object went through
// PrepareListed.
func (f *FIFO) ReplaceListed(list []any, _ string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.replaceListLocked(list)
}
