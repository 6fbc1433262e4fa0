package cache

import (
	"math/bits"
	"unsafe"
)

// This file holds probeTable, the one open-addressing hash table of the
// package: the key -> id table of objectTable, the key -> change table of
// a listener's backlog and the large id sets of the indexes all use it.
//
// A probeTable stores bare slots, 4 or 8 bytes each, and nothing else per
// entry: what a slot means is its owner's business, within these rules.
// The zero slot marks an empty position. The width of the slot type
// decides how a slot is hashed, at compile time:
//
//   - a 64-bit slot is tag<<32 | ref: tag is a 32-bit hash of the owner's
//     key, already well mixed, whose low bits are the home position; ref
//     refers to something the owner keeps (a slab entry, a queued change),
//     against which it confirms a tag match when it looks a key up (see
//     first);
//   - a 32-bit slot is its own key (an id+1) and its own tag; the table
//     spreads it by Fibonacci hashing, taking the high bits of tag*φ.
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
	slots  []S    // len is 0 or a power of two
	live   uint32 // non-zero slots; ids and sequence numbers are 32-bit
	shift  uint8  // 32 - log2(len(slots)), for the homes of 32-bit slots
	sizing probeSizing
}

// newProbeTable returns an empty table with the size policy p and room for
// n slots without growing.
func newProbeTable[S probeSlot](p probeSizing, n int) probeTable[S] {
	t := probeTable[S]{sizing: p}
	t.reserve(n)
	return t
}

// probeTag returns the tag of slot s: its high half if it is 64 bits wide,
// the whole slot if it is 32.
func probeTag[S probeSlot](s S) uint32 {
	return uint32(uint64(s) >> (8*unsafe.Sizeof(s) - 32))
}

// len returns the number of slots stored.
func (t *probeTable[S]) len() int { return int(t.live) }

// size returns the number of positions, 0 while nothing was allocated.
func (t *probeTable[S]) size() int { return len(t.slots) }

// home returns the position a slot with tag starts probing from. The
// table must be allocated.
func (t *probeTable[S]) home(tag uint32) int {
	if unsafe.Sizeof(S(0)) == 4 {
		tag = (tag * 0x9E3779B9) >> (t.shift & 31)
	}
	return int(tag) & (len(t.slots) - 1)
}

// sizeFor returns the size the policy gives a table holding n slots.
func (t *probeTable[S]) sizeFor(n int) int {
	size := 1 << t.sizing.minBits
	for n*16 > size*int(t.sizing.maxLoad) {
		size *= 2
	}
	return size
}

// first starts the probe run of tag: it returns the home position of tag
// and the slot there, or a zero slot if the table is not allocated. With
// next it walks the slots that may carry tag, up to the first empty one:
//
//	for i, s := t.first(tag); s != 0; i, s = t.next(i) {
//		if probeTag(s) == tag && /* s stands for the key looked up */ {
//			return s
//		}
//	}
//
// The owner confirms a slot in its own loop, rather than through a
// callback, so that lookups compile to one inlined loop.
func (t *probeTable[S]) first(tag uint32) (int, S) {
	if len(t.slots) == 0 {
		return 0, 0
	}
	i := t.home(tag)
	return i, t.slots[i]
}

// next returns the position after i in probe order and the slot there.
func (t *probeTable[S]) next(i int) (int, S) {
	i = (i + 1) & (len(t.slots) - 1)
	return i, t.slots[i]
}

// insert stores slot s, which must be non-zero and absent, growing the
// table first if the policy asks for it.
func (t *probeTable[S]) insert(s S) {
	if n := t.len() + 1; n*16 > len(t.slots)*int(t.sizing.maxLoad) {
		t.resize(t.sizeFor(n))
	}
	t.place(s)
	t.live++
}

// add stores slot s, which must be non-zero, unless it is stored already,
// and reports whether it stored it. The table grows only if s is new.
func (t *probeTable[S]) add(s S) bool {
	i, c := t.first(probeTag(s))
	for ; c != 0; i, c = t.next(i) {
		if c == s {
			return false
		}
	}
	if n := t.len() + 1; n*16 > len(t.slots)*int(t.sizing.maxLoad) {
		t.resize(t.sizeFor(n))
		t.place(s)
	} else {
		t.slots[i] = s
	}
	t.live++
	return true
}

// remove deletes slot s and reports whether it was stored. It deletes by
// backward shift: later members of the probe run move into the hole when
// their home allows it, so that no probe stops short of them.
func (t *probeTable[S]) remove(s S) bool {
	i, c := t.first(probeTag(s))
	for ; c != s; i, c = t.next(i) {
		if c == 0 {
			return false
		}
	}
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
func (t *probeTable[S]) fit() { t.resize(t.sizeFor(t.len())) }

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

// positions returns the positions of the table in order, zero where
// empty. The caller must not change them; they are valid until the table
// next changes.
func (t *probeTable[S]) positions() []S { return t.slots }
