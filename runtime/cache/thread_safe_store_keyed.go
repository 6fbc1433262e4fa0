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
	return s.putKeyedLocked(key, obj)
}

// putKeyedLocked is putKeyed with s.mu held for writing.
func (s *threadSafeStore) putKeyedLocked(key string, obj any) error {
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
	return s.deleteKeyedLocked(key)
}

// deleteKeyedLocked is deleteKeyed with s.mu held for writing.
func (s *threadSafeStore) deleteKeyedLocked(key string) (old any, exists bool) {
	id, ok := s.objects.lookup(key)
	if !ok {
		return nil, false
	}
	old = s.objects.at(id).obj
	for _, ix := range s.indexes {
		if ns, ok := objectNamespace(old); ok && ix.namespaceOfKey {
			ix.removeValue(id, ns)
		} else {
			ix.forget(id, old)
		}
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

// swapKeyed stores obj under key, which must be what the store's key
// function returns for obj, and returns the object it replaced (exists is
// false when key was absent). When keep is not nil and keep(old, obj) is
// true for the stored object old, the store is left unchanged. stored
// reports whether obj was stored. On error (an index value of obj cannot
// be computed) the store is unchanged and old and exists are still
// reported. keep runs with the store's write lock held: it must be fast and
// must not call back into the store. Safe for concurrent use.
//
// It is one lookup and one lock where GetByKey followed by putKeyed takes
// two of each.
func (s *threadSafeStore) swapKeyed(key string, obj any, keep func(old, obj any) bool) (old any, exists, stored bool, err error) {
	if obj == nil {
		return nil, false, false, errNilObject
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	id, exists := s.objects.lookup(key)
	if exists {
		old = s.objects.at(id).obj
		if keep != nil && keep(old, obj) {
			return old, true, false, nil
		}
	}
	// The namespace index needs no index function call (and no slice):
	// the value is the object's namespace, read from its metadata.
	ns, hasMeta := objectNamespace(obj)
	fast := func(ix *storeIndex) bool { return hasMeta && ix.namespaceOfKey }
	var buf [4][]string
	vals := buf[:0]
	for _, ix := range s.indexes {
		if fast(ix) {
			vals = append(vals, nil)
			continue
		}
		v, err := ix.valuesOf(obj)
		if err != nil {
			return old, exists, false, err
		}
		vals = append(vals, v)
	}
	if exists {
		s.objects.at(id).obj = obj
		for i, ix := range s.indexes {
			if fast(ix) {
				ix.moveNamespace(id, old, ns)
			} else {
				ix.move(id, old, vals[i])
			}
		}
	} else {
		id = s.objects.insert(key, obj)
		for i, ix := range s.indexes {
			if fast(ix) {
				ix.addValue(id, ns)
			} else {
				ix.add(id, vals[i])
			}
		}
	}
	return old, exists, true, nil
}

// moveNamespace files id, whose object was old, under ns in a namespace
// index that reads namespaces from the objects' metadata.
func (ix *storeIndex) moveNamespace(id uint32, old any, ns string) {
	if oldNS, ok := objectNamespace(old); !ok {
		ix.removeEverywhere(id)
		ix.addValue(id, ns)
	} else if oldNS != ns {
		ix.removeValue(id, oldNS)
		ix.addValue(id, ns)
	}
}
