package cache

// This file holds the store's keyed write path: writes by a caller that
// already computed the object's key with the store's key function (the
// informer, whose DeltaFIFO keyed every object before queueing it). It
// saves computing the key a second time and lets the store keep the
// caller's key string instead of allocating its own.

// putKeyed stores obj under key, which must be what the store's key
// function returns for obj. It fails, leaving the store unchanged, when an
// index value of obj cannot be computed. Safe for concurrent use.
func (s *threadSafeStore) putKeyed(key string, obj any) error {
	if obj == nil {
		return errNilObject
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	var buf [4][]string
	vals := buf[:0]
	for _, ix := range s.indexes {
		v, err := ix.valuesOf(obj)
		if err != nil {
			return err
		}
		vals = append(vals, v)
	}
	putLocked(&s.objects, s.indexes, key, obj, vals)
	return nil
}

// deleteKeyed removes the object stored under key and returns it; exists
// is false when key was absent. Safe for concurrent use.
func (s *threadSafeStore) deleteKeyed(key string) (old any, exists bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	id, ok := s.objects.lookup(key)
	if !ok {
		return nil, false
	}
	old = s.objects.at(id).obj
	for _, ix := range s.indexes {
		ix.forget(id, old)
	}
	s.objects.remove(id)
	return old, true
}

// listKeyed returns every stored object with its key, in no particular
// order: objs[i] is stored under keys[i]. Safe for concurrent use.
func (s *threadSafeStore) listKeyed() (keys []string, objs []any) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	keys = make([]string, 0, s.objects.len())
	objs = make([]any, 0, s.objects.len())
	s.objects.each(func(_ uint32, e *entry) bool {
		keys = append(keys, e.key)
		objs = append(objs, e.obj)
		return true
	})
	return keys, objs
}
