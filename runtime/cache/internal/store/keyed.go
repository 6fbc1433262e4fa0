package store

import "fmt"

// This file holds the store's keyed write path: writes by a caller that
// already computed the object's key with the store's key function (the
// informer, whose DeltaFIFO keyed every object before queueing it). It
// saves computing the key a second time and lets the store keep the
// caller's key string instead of allocating its own.

// PutKeyed stores obj under key, which must be what the store's key
// function returns for obj. It fails, leaving the store unchanged, when an
// index value of obj cannot be computed. Safe for concurrent use.
func (s *Indexed) PutKeyed(key string, obj any) error {
	if obj == nil {
		return ErrNilObject
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.putKeyedLocked(key, obj)
}

// putKeyedLocked is PutKeyed with s.mu held for writing.
func (s *Indexed) putKeyedLocked(key string, obj any) error {
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

// DeleteKeyed removes the object stored under key and returns it; exists
// is false when key was absent. Safe for concurrent use.
func (s *Indexed) DeleteKeyed(key string) (old any, exists bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.deleteKeyedLocked(key)
}

// deleteKeyedLocked is DeleteKeyed with s.mu held for writing.
func (s *Indexed) deleteKeyedLocked(key string) (old any, exists bool) {
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

// ListKeyed returns every stored object with its key, in no particular
// order: objs[i] is stored under keys[i]. Safe for concurrent use.
func (s *Indexed) ListKeyed() (keys []string, objs []any) {
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

// SwapKeyed stores obj under key, which must be what the store's key
// function returns for obj, and returns the object it replaced (exists is
// false when key was absent). When keep is not nil and keep(old, obj) is
// true for the stored object old, the store is left unchanged. stored
// reports whether obj was stored. On error (an index value of obj cannot
// be computed) the store is unchanged and old and exists are still
// reported. keep runs with the store's write lock held: it must be fast and
// must not call back into the store. Safe for concurrent use.
//
// It is one lookup and one lock where GetByKey followed by PutKeyed takes
// two of each.
func (s *Indexed) SwapKeyed(key string, obj any, keep func(old, obj any) bool) (old any, exists, stored bool, err error) {
	if obj == nil {
		return nil, false, false, ErrNilObject
	}
	// The namespace index needs no index function call (and no slice):
	// the value is the object's namespace, read from its metadata, before
	// the lock: the object is new to this goroutine's processor (it was
	// decoded and compacted on the producer's), and the write lock, which
	// the compaction hint's cache read waits for (PeekByKey), is held for
	// one change, not for a cache miss on the object.
	ns, hasMeta := objectNamespace(obj)
	s.mu.Lock()
	defer s.mu.Unlock()
	id, exists := s.objects.lookup(key)
	if exists {
		old = s.objects.at(id).obj
		if keep != nil && keep(old, obj) {
			return old, true, false, nil
		}
	}
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

// ReplaceKeyed makes list, filed under keys (keys[i] is list[i]'s), the
// whole content; the last of two objects under one key wins. It fails,
// leaving the store unchanged, when an object is nil or an index value
// cannot be computed. It does not record a resourceVersion.
func (s *Indexed) ReplaceKeyed(keys []string, list []any) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, obj := range list {
		if obj == nil {
			return ErrNilObject
		}
	}
	objects, indexes, err := build(keys, list, s.indexes)
	if err != nil {
		return err
	}
	s.objects, s.indexes = objects, indexes
	return nil
}

// IndexFailure returns the name of the first index (by name) whose
// function fails on obj, and its error; "" and nil when none does.
func (s *Indexed) IndexFailure(obj any) (string, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	for _, ix := range s.indexes {
		if _, err := ix.fn(obj); err != nil {
			return ix.name, err
		}
	}
	return "", nil
}

// Op is one write of Transact: obj filed under Key, or Key deleted.
type Op struct {
	Key    string
	Obj    any
	Delete bool
	// Name names the write in its error ("Add", "Update", "Delete").
	Name string
	// Skip makes the op a no-op (a write of a kind the caller does not
	// know).
	Skip bool
}

// Transact applies ops in order under one write lock and returns, by
// index in ops, the error of each that could not be applied (a nil
// object, or an index value that cannot be computed); nil when every op
// was applied.
func (s *Indexed) Transact(ops []Op) map[int]error {
	var failed map[int]error
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, op := range ops {
		var err error
		switch {
		case op.Skip:
		case op.Delete:
			s.deleteKeyedLocked(op.Key)
		case op.Obj == nil:
			err = ErrNilObject
		default:
			err = s.putKeyedLocked(op.Key, op.Obj)
		}
		if err != nil {
			if failed == nil {
				failed = map[int]error{}
			}
			failed[i] = fmt.Errorf("cache: transaction %s of key %q: %w", op.Name, op.Key, err)
		}
	}
	return failed
}
