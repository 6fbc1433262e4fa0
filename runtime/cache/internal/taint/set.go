package taint

import (
	"sync"
	"sync/atomic"
	"unsafe"
	"weak"
)

// Set is a set of objects by identity, held weakly: an object replaced in
// the cache and collected leaves the set at the next Add. The zero value
// is an empty set; it is safe for concurrent use.
type Set struct {
	// n is the number of objects in the set: Has costs one atomic load
	// while it is 0, as it is unless a mutation was found.
	n  atomic.Int64
	mu sync.Mutex // guards objs
	// objs maps an object's data pointer to a weak pointer to it.
	objs map[unsafe.Pointer]weak.Pointer[byte]
}

// dataOf is the data word of obj: its pointer, for the pointers to
// structs informers cache.
func dataOf(obj any) unsafe.Pointer { return (*[2]unsafe.Pointer)(unsafe.Pointer(&obj))[1] }

// Add puts obj in the set and drops the objects collected since.
func (t *Set) Add(obj any) {
	p := dataOf(obj)
	if p == nil {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.objs == nil {
		t.objs = map[unsafe.Pointer]weak.Pointer[byte]{}
	}
	for q, w := range t.objs {
		if w.Value() == nil {
			delete(t.objs, q)
		}
	}
	t.objs[p] = weak.Make((*byte)(p))
	t.n.Store(int64(len(t.objs)))
}

// Has reports whether obj is in the set.
func (t *Set) Has(obj any) bool {
	if t.n.Load() == 0 {
		return false
	}
	p := dataOf(obj)
	t.mu.Lock()
	defer t.mu.Unlock()
	w, ok := t.objs[p]
	return ok && unsafe.Pointer(w.Value()) == p
}
