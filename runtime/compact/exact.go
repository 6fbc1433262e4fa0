package compact

import "sync"

// NewExactTable returns an empty Table whose admission filter loses
// nothing: it remembers where every hash was first seen, for as long as
// the Table lives. It is for tests that compare the sharing of two paths
// that look values up in different orders (a decoder that shares as it
// decodes against a walk after the decode): a Table's lossy filter
// (admit) forgets a value when other values take its bucket, and what it
// forgets depends on that order.
func NewExactTable() *Table { return &Table{exact: &exactSeen{first: map[uint64]uint64{}}} }

// exactSeen is an exact admission filter: the first sighting of each hash.
type exactSeen struct {
	mu    sync.Mutex        // guards first
	first map[uint64]uint64 // guarded by mu
}

// admit is admitWhere's rule without loss: a value repeats one seen at
// another address in another object.
func (e *exactSeen) admit(h, where, obj uint64) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	prev, ok := e.first[h]
	if !ok {
		e.first[h] = where
		return false
	}
	sameObject := obj != 0 && prev&objectIDs == obj
	return prev>>objectBits != where>>objectBits && !sameObject
}
