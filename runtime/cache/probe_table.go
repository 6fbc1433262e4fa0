package cache

import (
	"iter"
	"math/bits"
	"unsafe"
)

// This file holds probeTable, the one open-addressing hash table of the
// package: the key -> id table of objectTable, the key -> change table of
// a listener's backlog and the large id sets of the indexes all use it.
//
// A probeTable stores bare slots, 4 or 8 bytes each, and nothing else per
// entry: what a slot means is its owner's business, with two rules. The
// zero slot marks an empty position, and a slot carries a 32-bit hash tag
// (the whole slot when it is 32 bits wide, its high half when it is 64
// bits wide) from which the table derives the slot's home position. The
// owner keeps whatever the rest of the slot refers to (a slab entry, a
// queued change), and confirms a tag match against it when it looks a key
// up (see find).
//
// The table probes linearly, deletes by backward shift (no tombstones) and
// grows by doubling; its size is 0 or a power of two.

// probeSlot is the type of a probeTable slot. Zero is the empty slot.
type probeSlot interface{ ~uint32 | ~uint64 }

// probeSizing is the size policy of a probeTable: the smallest non-empty
// table has 1<<minBits slots, and the table grows before more than
// maxLoad/16 of its slots would be used.
type probeSizing struct {
	minBits uint8
	maxLoad uint8 // in sixteenths; 1 to 15
}

// probeTable is a set of non-zero slots under open addressing with linear
// probing. It does not check that slots are distinct: insert stores a slot
// that must not be present. It is not safe for concurrent use; its owner
// guards it.
type probeTable[S probeSlot] struct {
	slots  []S // len is 0 or a power of two
	live   int // non-zero slots
	shift  uint8
	sizing probeSizing
}

// newProbeTable returns an empty table with the size policy p and room for
// n slots without growing.
func newProbeTable[S probeSlot](p probeSizing, n int) probeTable[S] {
	t := probeTable[S]{sizing: p}
	t.reserve(n)
	return t
}

// probeTag returns the hash tag of slot s: the whole slot if it is 32 bits
// wide, the high half if it is 64.
func probeTag[S probeSlot](s S) uint32 {
	return uint32(uint64(s) >> (8*unsafe.Sizeof(s) - 32))
}

// len returns the number of slots stored.
func (t *probeTable[S]) len() int { return t.live }

// size returns the number of positions, 0 while nothing was allocated.
func (t *probeTable[S]) size() int { return len(t.slots) }

// home returns the position a slot with tag starts probing from: the high
// bits of a Fibonacci hash of tag. The table must be allocated.
func (t *probeTable[S]) home(tag uint32) int {
	return int((tag * 0x9E3779B9) >> t.shift)
}

// sizeFor returns the size the policy gives a table holding n slots.
func (t *probeTable[S]) sizeFor(n int) int {
	size := 1 << t.sizing.minBits
	for n*16 > size*int(t.sizing.maxLoad) {
		size *= 2
	}
	return size
}

// find returns the first slot with tag, in probe order, for which match
// reports true. Only slots whose tag equals tag are passed to match.
func (t *probeTable[S]) find(tag uint32, match func(S) bool) (S, bool) {
	if t.live == 0 {
		return 0, false
	}
	mask := len(t.slots) - 1
	for i := t.home(tag); ; i = (i + 1) & mask {
		s := t.slots[i]
		if s == 0 {
			return 0, false
		}
		if probeTag(s) == tag && match(s) {
			return s, true
		}
	}
}

// position returns the position holding slot s.
func (t *probeTable[S]) position(s S) (int, bool) {
	if t.live == 0 {
		return 0, false
	}
	mask := len(t.slots) - 1
	for i := t.home(probeTag(s)); ; i = (i + 1) & mask {
		switch t.slots[i] {
		case s:
			return i, true
		case 0:
			return 0, false
		}
	}
}

// has reports whether slot s is stored.
func (t *probeTable[S]) has(s S) bool {
	_, ok := t.position(s)
	return ok
}

// insert stores slot s, which must be non-zero and absent, growing the
// table first if the policy asks for it.
func (t *probeTable[S]) insert(s S) {
	t.reserve(t.live + 1)
	t.place(s)
	t.live++
}

// remove deletes slot s and reports whether it was stored.
func (t *probeTable[S]) remove(s S) bool {
	i, ok := t.position(s)
	if !ok {
		return false
	}
	// Backward-shift deletion: pull later members of the probe run into
	// the hole when their home allows it.
	mask := len(t.slots) - 1
	for j := (i + 1) & mask; t.slots[j] != 0; j = (j + 1) & mask {
		home := t.home(probeTag(t.slots[j]))
		// Move slot j to the hole i unless its home lies cyclically in (i, j].
		if (j > i && (home <= i || home > j)) || (j < i && home <= i && home > j) {
			t.slots[i] = t.slots[j]
			i = j
		}
	}
	t.slots[i] = 0
	t.live--
	return true
}

// reserve grows the table, if the policy asks for it, to hold n slots.
func (t *probeTable[S]) reserve(n int) {
	if n > 0 && n*16 > len(t.slots)*int(t.sizing.maxLoad) {
		t.resize(t.sizeFor(n))
	}
}

// fit resizes the table to the size the policy gives its current number of
// slots, shrinking it after many removals.
func (t *probeTable[S]) fit() { t.resize(t.sizeFor(t.live)) }

// resize moves the slots into a table of size positions, a power of two
// that holds them; old positions are visited in order.
func (t *probeTable[S]) resize(size int) {
	old := t.slots
	t.slots = make([]S, size)
	t.shift = uint8(32 - bits.TrailingZeros(uint(size)))
	for _, s := range old {
		if s != 0 {
			t.place(s)
		}
	}
}

// place stores s at the first free position from its home.
func (t *probeTable[S]) place(s S) {
	mask := len(t.slots) - 1
	i := t.home(probeTag(s))
	for t.slots[i] != 0 {
		i = (i + 1) & mask
	}
	t.slots[i] = s
}

// clear removes every slot and keeps the allocation.
func (t *probeTable[S]) clear() {
	clear(t.slots)
	t.live = 0
}

// drop removes every slot and releases the allocation; the size policy
// stays.
func (t *probeTable[S]) drop() {
	t.slots = nil
	t.live = 0
}

// all yields the stored slots in position order. The table must not be
// changed during the iteration.
func (t *probeTable[S]) all() iter.Seq[S] {
	return func(yield func(S) bool) {
		for _, s := range t.slots {
			if s != 0 && !yield(s) {
				return
			}
		}
	}
}
