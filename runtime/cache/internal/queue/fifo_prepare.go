package queue

// What an object goes through before it is queued: the queue's transform
// (Config.Transform), then, when the queue compacts its objects, its
// Compactor (package runtime/compact's walks). Compaction takes a hint:
// the previous version of the same key, held by the queue, the batch being
// applied or the cache (Hint), whose parts equal to the new object's the
// new object then shares as they are (an update walk), so a watch event or
// a relisted object that changed a little costs a comparison, not a walk
// of the whole object.

// prepare transforms obj, then compacts it with hint (nil for none).
func (f *FIFO) prepare(obj, hint any) (any, error) {
	if f.cfg.Transform != nil {
		var err error
		if obj, err = f.cfg.Transform(obj); err != nil {
			return nil, err
		}
	}
	if f.compact != nil {
		obj = f.compact(obj, hint)
	}
	return obj, nil
}

// prepareDelta is prepare of a delta's object, which may be a tombstone:
// a tombstone's object is prepared in it.
func (f *FIFO) prepareDelta(obj, hint any) (any, error) {
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
func (f *FIFO) prepares() bool { return f.cfg.Transform != nil || f.compact != nil }

// queueEvent queues a delta of typ for obj, keyed key (Add, Update,
// Delete), after preparing obj. A queue that compacts prepares obj with
// the queue's lock released, so PopBatch never waits for a compaction and
// the producer never holds the queue while it reads the cache (Hint);
// otherwise obj is transformed under the lock, as client-go's DeltaFIFO
// does, so concurrent producers' transforms run one at a time.
func (f *FIFO) queueEvent(key string, typ DeltaType, obj any) error {
	if f.compact != nil {
		var err error
		if obj, err = f.prepareDelta(obj, f.Hint(key)); err != nil {
			return err
		}
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.compact == nil && f.cfg.Transform != nil {
		var err error
		if obj, err = f.prepareDelta(obj, nil); err != nil {
			return err
		}
	}
	f.queueKeyedLocked(key, typ, obj)
	return nil
}

// Hint returns the compaction hint of a new version of key: the previous
// version of key in the order changes are queued, which is
//
//   - the object of key's newest queued delta, else
//   - the object of key's newest delta in the batch being processed (the
//     cache may or may not hold it yet: the queue knows the batch until
//     it is processed), else
//   - the cache's object (CacheReader.PeekByKey): key is then neither
//     queued nor being applied, so nothing writes it and what the cache
//     holds for it is stable,
//
// and nil when that version is a deletion (the cache then holds none) or
// there is none. So the hint depends only on the changes queued, never on
// how far the informer got in applying them or on who holds a lock (the
// cache holds the newest applied delta's object, but for a relisted object
// the informer keeps as unchanged, which is the same object already, and
// a write an index function refused). It is exact for one producer, which
// an informer's queue has (its reflector; Resync queues Sync deltas of
// cached objects, which change nothing).
//
// Locks: the queue's lock is taken to look the key up and released before
// the cache is read, so the producer never holds the queue while it waits
// for a writer of the cache (the informer applying a batch, one delta per
// write lock), and the consumer never waits for the producer's read.
func (f *FIFO) Hint(key string) any {
	f.mu.Lock()
	hint, known := f.queueHintLocked(key)
	f.mu.Unlock()
	if known || f.cache == nil {
		return hint
	}
	old, _ := f.cache.PeekByKey(key)
	return old
}

// queueHintLocked returns the hint the queue itself knows for key (see
// Hint): known is set when key is queued or in the batch being processed,
// hint is then the object of its newest delta, nil for a deletion.
func (f *FIFO) queueHintLocked(key string) (hint any, known bool) {
	e, _, ok := f.keys.Known(key)
	if !ok || len(e.Value.deltas) == 0 {
		return nil, false
	}
	newest := e.Value.deltas[len(e.Value.deltas)-1]
	if newest.Type == Deleted {
		return nil, true
	}
	return tombstoneObject(newest.Object), true
}
