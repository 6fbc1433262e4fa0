package cache

import "fmt"

// listPreparer is implemented by a ReflectorStore (the DeltaFIFO) that
// wants each page of a list as it arrives, before the list is complete, and
// the finished list through replacePrepared instead of Replace.
//
// The point is memory: a list is held whole until it is stored (a relist is
// stored atomically), and the server's objects are usually larger than what
// the cache keeps. Preparing each page as it arrives lets the full objects
// of a page become garbage before the next page arrives, so a list costs
// about one cached copy, not one full copy, on top of the cache.
type listPreparer interface {
	// prepareListed replaces, in place, each object of one page by the
	// object to queue for it: the cached object itself when it is the same
	// object at the same resourceVersion (nothing to store, nothing to
	// transform), and otherwise the object after the queue's transform.
	prepareListed(page []any) error
	// replacePrepared is Replace of a list whose every object went through
	// prepareListed.
	replacePrepared(list []any, resourceVersion string) error
}

var _ listPreparer = (*DeltaFIFO)(nil)

// prepareListed implements listPreparer. A key with queued deltas is not
// matched against the cache, whose object for it is about to change. The
// transform runs outside the queue's lock.
func (f *DeltaFIFO) prepareListed(page []any) error {
	cached, err := f.takeCached(page)
	if err != nil {
		return err
	}
	if f.transform == nil {
		return nil
	}
	for i, obj := range page {
		if cached != nil && cached[i] {
			continue
		}
		out, err := f.transform(obj)
		if err != nil {
			return err
		}
		page[i] = out
	}
	return nil
}

// takeCached replaces each object of page that the cache holds
// unchanged (same UID and resourceVersion, nothing queued for its key) by
// the cached object, and reports which slots it replaced; nil when it
// replaced none. It takes the queue's lock.
func (f *DeltaFIFO) takeCached(page []any) ([]bool, error) {
	if f.known == nil {
		return nil, nil
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if s, ok := f.known.(interface{ storedLen() int }); ok && s.storedLen() == 0 && len(f.queue) == f.head {
		// Nothing cached, nothing queued (the first list): no match to
		// look for, no key to compute twice.
		return nil, nil
	}
	var taken []bool
	for i, obj := range page {
		key, err := f.KeyOf(obj)
		if err != nil {
			return nil, fmt.Errorf("cache: cannot key %T: %w", obj, err)
		}
		if _, queued := f.queuedLocked(key); queued {
			continue
		}
		if old, exists, err := f.known.GetByKey(key); err == nil && exists && unchangedRelist(old, obj) {
			if taken == nil {
				taken = make([]bool, len(page))
			}
			page[i], taken[i] = old, true
		}
	}
	return taken, nil
}

// replacePrepared implements listPreparer.
func (f *DeltaFIFO) replacePrepared(list []any, resourceVersion string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.replaceListLocked(list, resourceVersion, false)
}
