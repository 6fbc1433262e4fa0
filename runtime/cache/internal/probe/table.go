package probe

import (
	"math/bits"
	"unsafe"
)

// Slot is the type of a Table slot. Zero is the empty slot.
type Slot interface{ ~uint32 | ~uint64 }

// Sizing is the size policy of a Table: the smallest non-empty
// table has 1<<MinBits slots, and the table grows before more than
// MaxLoad/16 of its slots would be used.
type Sizing struct {
	MinBits uint8
	MaxLoad uint8 // in sixteenths; 1 to 15
}

// KeySizing is the size policy of the key tables (the store's object
// table and a listener's backlog): at least 16 slots, at most 13/16 of
// them used. Read-only.
var KeySizing = Sizing{MinBits: 4, MaxLoad: 13}

// IDSizing is the size policy of the store's large id sets: at least 32
// slots, at most 3/4 of them used. Read-only.
var IDSizing = Sizing{MinBits: 5, MaxLoad: 12}

// Table is a set of non-zero slots under open addressing with linear
// probing. It does not check that slots are distinct: Insert stores a slot
// that must not be present. It is not safe for concurrent use; its owner
// guards it.
type Table[S Slot] struct {
	slots  []S    // len is 0 or a power of two
	live   uint32 // non-zero slots; ids and sequence numbers are 32-bit
	shift  uint8  // 32 - log2(len(slots)), for the homes of 32-bit slots
	sizing Sizing
}

// New returns an empty table with the size policy p and room for
// n slots without growing.
func New[S Slot](p Sizing, n int) Table[S] {
	t := Table[S]{sizing: p}
	t.Reserve(n)
	return t
}

// Tag returns the tag of slot s: its high half if it is 64 bits wide,
// the whole slot if it is 32.
func Tag[S Slot](s S) uint32 {
	return uint32(uint64(s) >> (8*unsafe.Sizeof(s) - 32))
}

// Len returns the number of slots stored.
func (t *Table[S]) Len() int { return int(t.live) }

// Size returns the number of positions, 0 while nothing was allocated.
func (t *Table[S]) Size() int { return len(t.slots) }

// home returns the position a slot with tag starts probing from. The
// table must be allocated.
func (t *Table[S]) home(tag uint32) int {
	if unsafe.Sizeof(S(0)) == 4 {
		tag = (tag * 0x9E3779B9) >> (t.shift & 31)
	}
	return int(tag) & (len(t.slots) - 1)
}

// sizeFor returns the size the policy gives a table holding n slots.
func (t *Table[S]) sizeFor(n int) int {
	size := 1 << t.sizing.MinBits
	for n*16 > size*int(t.sizing.MaxLoad) {
		size *= 2
	}
	return size
}

// First starts the probe run of tag: it returns the home position of tag
// and the slot there, or a zero slot if the table is not allocated. With
// Next it walks the slots that may carry tag, up to the first empty one:
//
//	for i, s := t.First(tag); s != 0; i, s = t.Next(i) {
//		if Tag(s) == tag && /* s stands for the key looked up */ {
//			return s
//		}
//	}
//
// The owner confirms a slot in its own loop, rather than through a
// callback, so that lookups compile to one inlined loop.
func (t *Table[S]) First(tag uint32) (int, S) {
	if len(t.slots) == 0 {
		return 0, 0
	}
	i := t.home(tag)
	return i, t.slots[i]
}

// Next returns the position after i in probe order and the slot there.
func (t *Table[S]) Next(i int) (int, S) {
	i = (i + 1) & (len(t.slots) - 1)
	return i, t.slots[i]
}

// Insert stores slot s, which must be non-zero and absent, growing the
// table first if the policy asks for it.
func (t *Table[S]) Insert(s S) {
	if n := t.Len() + 1; n*16 > len(t.slots)*int(t.sizing.MaxLoad) {
		t.resize(t.sizeFor(n))
	}
	t.place(s)
	t.live++
}

// Add stores slot s, which must be non-zero, unless it is stored already,
// and reports whether it stored it. The table grows only if s is new.
func (t *Table[S]) Add(s S) bool {
	i, c := t.First(Tag(s))
	for ; c != 0; i, c = t.Next(i) {
		if c == s {
			return false
		}
	}
	if n := t.Len() + 1; n*16 > len(t.slots)*int(t.sizing.MaxLoad) {
		t.resize(t.sizeFor(n))
		t.place(s)
	} else {
		t.slots[i] = s
	}
	t.live++
	return true
}

// Remove deletes slot s and reports whether it was stored. It deletes by
// backward shift: later members of the probe run move into the hole when
// their home allows it, so that no probe stops short of them.
func (t *Table[S]) Remove(s S) bool {
	i, c := t.First(Tag(s))
	for ; c != s; i, c = t.Next(i) {
		if c == 0 {
			return false
		}
	}
	mask := len(t.slots) - 1
	for j := (i + 1) & mask; t.slots[j] != 0; j = (j + 1) & mask {
		home := t.home(Tag(t.slots[j]))
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

// Reserve grows the table, if the policy asks for it, to hold n slots.
func (t *Table[S]) Reserve(n int) {
	if n > 0 && n*16 > len(t.slots)*int(t.sizing.MaxLoad) {
		t.resize(t.sizeFor(n))
	}
}

// Fit resizes the table to the size the policy gives its current number of
// slots, shrinking it after many removals.
func (t *Table[S]) Fit() { t.resize(t.sizeFor(t.Len())) }

// resize moves the slots into a table of size positions, a power of two
// that holds them; old positions are visited in order.
func (t *Table[S]) resize(size int) {
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
func (t *Table[S]) place(s S) {
	mask := len(t.slots) - 1
	i := t.home(Tag(s))
	for t.slots[i] != 0 {
		i = (i + 1) & mask
	}
	t.slots[i] = s
}

// Clear removes every slot and keeps the allocation.
func (t *Table[S]) Clear() {
	clear(t.slots)
	t.live = 0
}

// Drop removes every slot and releases the allocation; the size policy
// stays.
func (t *Table[S]) Drop() {
	t.slots = nil
	t.live = 0
}

// Positions returns the positions of the table in order, zero where
// empty. The caller must not change them; they are valid until the table
// Next changes.
func (t *Table[S]) Positions() []S { return t.slots }
