package compact

import (
	"reflect"
	"sync"
	"unsafe"
	"weak"
)

// shardCount spreads a Table's canonical copies over this many locks.
const shardCount = 32

// shard is one lock's part of a Table: an open-addressed hash set of
// canonical copies (linear probing). A slot costs 32 bytes and no
// allocation of its own: on 20,000 real-cluster-shaped Pods the table
// took 0.56 MB, where a Go map of slices of entries took 0.90 MB.
//
// Slots of collected copies stay until the set fills to maxLoad: then it
// is rebuilt with the live ones only, at twice their number (so a set
// whose copies die shrinks, and one that grows doubles).
type shard struct {
	mu sync.Mutex // guards slots and used
	// slots has a power-of-two length (or is nil); a slot with hash 0 is
	// empty. The copies of one type and hash (several when hashes
	// collide) sit in the probe sequence from home(hash). Guarded by mu.
	slots []slot
	// used counts the non-empty slots, live or collected; it stays at or
	// under maxLoad of len(slots). Guarded by mu.
	used int
}

// slot is one canonical copy: the Go type and hash of its value, a weak
// pointer to its storage (a slice's first element, whose length is n; a
// pointed-to value; a map's header), and the function that recomputes
// the hash from the storage (check: the Guard's sampler compares the two).
type slot struct {
	hash  uint64 // never 0 for a used slot (see slotHash)
	typ   unsafe.Pointer
	ptr   weak.Pointer[byte]
	n     int
	check checkFunc
}

// minShardSlots is the size of a shard's first slot array.
const minShardSlots = 16

// maxLoadNum/maxLoadDen is the fraction of slots a shard fills before it
// is rebuilt.
const (
	maxLoadNum = 3
	maxLoadDen = 4
)

// slotHash is the hash a slot stores for a value's hash h: 0 marks empty
// slots.
func slotHash(h uint64) uint64 {
	if h == 0 {
		return 1
	}
	return h
}

// typeWord identifies a Go type: the data word of its reflect.Type, whose
// dynamic type is always *reflect.rtype, one per type, so that two
// reflect.Types are == exactly when their words are.
func typeWord(typ reflect.Type) unsafe.Pointer {
	return (*[2]unsafe.Pointer)(unsafe.Pointer(&typ))[1]
}

// findLocked returns the live canonical copy of type typ and hash h for
// which same holds.
func (s *shard) findLocked(typ unsafe.Pointer, h uint64, same func(p unsafe.Pointer, n int) bool) (unsafe.Pointer, int, bool) {
	if len(s.slots) == 0 {
		return nil, 0, false
	}
	mask := uint64(len(s.slots) - 1)
	for i := home(h, mask); s.slots[i].hash != 0; i = (i + 1) & mask {
		sl := &s.slots[i]
		if sl.hash != h || sl.typ != typ {
			continue
		}
		if p := unsafe.Pointer(sl.ptr.Value()); p != nil && same(p, sl.n) {
			return p, sl.n, true
		}
	}
	return nil, 0, false
}

// addLocked stores the canonical copy at p (length n) of type typ and
// hash h, which findLocked did not find.
func (s *shard) addLocked(typ unsafe.Pointer, h uint64, p unsafe.Pointer, n int, check checkFunc) {
	if (s.used+1)*maxLoadDen > len(s.slots)*maxLoadNum {
		s.rebuildLocked(1)
	}
	s.placeLocked(slot{hash: h, typ: typ, ptr: weak.Make((*byte)(p)), n: n, check: check})
	s.used++
}

// placeLocked puts sl in the first empty slot of its probe sequence.
func (s *shard) placeLocked(sl slot) {
	mask := uint64(len(s.slots) - 1)
	i := home(sl.hash, mask)
	for s.slots[i].hash != 0 {
		i = (i + 1) & mask
	}
	s.slots[i] = sl
}

// rebuildLocked drops the slots of collected copies and sizes the array
// for twice the live ones, and at least need: the size follows the live
// copies, never the slots the collected ones held, so a shard whose
// copies keep dying (churn) does not grow.
func (s *shard) rebuildLocked(need int) {
	old := s.slots
	live := 0
	for i := range old {
		if old[i].hash != 0 && old[i].ptr.Value() != nil {
			live++
		} else {
			old[i] = slot{}
		}
	}
	want := max(2*live, need)
	if want == 0 {
		s.slots, s.used = nil, 0
		return
	}
	size := minShardSlots
	for size*maxLoadNum < want*maxLoadDen {
		size *= 2
	}
	s.slots = make([]slot, size)
	s.used = live
	for _, sl := range old {
		if sl.hash != 0 {
			s.placeLocked(sl)
		}
	}
}

// home is the first slot of hash h's probe sequence: from its high bits,
// as the shard is chosen by its low ones.
func home(h, mask uint64) uint64 { return (h >> 32) & mask }
