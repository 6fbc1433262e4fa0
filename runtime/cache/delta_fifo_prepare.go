package cache

// What an object goes through before it is queued: the queue's transform
// (DeltaFIFOOptions.Transformer), then, when the informer compacts its
// objects, compaction (package runtime/compact). Compaction takes a hint:
// the compact object the cache or the queue holds for the same key, whose
// parts equal to the new object's the new object then shares as they are
// (an update walk), so a watch event or a relisted object that changed a
// little costs a comparison, not a walk of the whole object.

// prepare transforms obj, then compacts it with hint (nil for none).
func (f *DeltaFIFO) prepare(obj, hint any) (any, error) {
	if f.transform != nil {
		var err error
		if obj, err = f.transform(obj); err != nil {
			return nil, err
		}
	}
	if f.compaction != nil {
		f.compaction(obj, hint)
	}
	return obj, nil
}

// prepareDelta is prepare of a delta's object, which may be a tombstone:
// a tombstone's object is prepared in it.
func (f *DeltaFIFO) prepareDelta(obj, hint any) (any, error) {
	d, ok := obj.(DeletedFinalStateUnknown)
	if !ok {
		return f.prepare(obj, hint)
	}
	if d.Obj != nil {
		var err error
		if d.Obj, err = f.prepare(d.Obj, hint); err != nil {
			return nil, err
		}
	}
	return d, nil
}

// prepares reports whether prepare changes objects.
func (f *DeltaFIFO) prepares() bool { return f.transform != nil || f.compaction != nil }

// hintLocked returns the newest compact object known for key: the object
// of the last delta of queued (key's entry; nil when key is not queued),
// else the cache's (cacheReader.PeekByKey, which waits for a writer of the
// cache to finish); nil when there is none or the queue does not compact.
// The hint does not depend on who holds a lock; a key of the batch being
// applied is hinted with the version the cache holds when it is read.
// Lock order: f.mu, then the cache's lock (the cache never calls the
// queue with its lock held).
func (f *DeltaFIFO) hintLocked(key string, queued *fifoEntry) any {
	if f.compaction == nil {
		return nil
	}
	if queued != nil && len(queued.deltas) > 0 {
		return tombstoneObject(queued.deltas[len(queued.deltas)-1].Object)
	}
	if f.cache != nil {
		old, _ := f.cache.PeekByKey(key)
		return old
	}
	return nil
}

// tombstoneObject returns the object a tombstone holds, or obj.
func tombstoneObject(obj any) any {
	if d, ok := obj.(DeletedFinalStateUnknown); ok {
		return d.Obj
	}
	return obj
}
