package cache

import "hash/maphash"

// This file holds objectTable, the key -> object map of the thread-safe
// store. It is a plain Go map in spirit, shaped for memory:
//
//   - every object lives in a slab entry {key, obj} addressed by a dense
//     uint32 id; ids are what the indexes store, so an index posting costs
//     4 bytes instead of a 16-byte string header plus hash-map slack;
//   - the hash table only holds 8-byte slots (32-bit hash tag + id), with
//     linear probing and backward-shift deletion (no tombstones);
//   - the key string is stored once, in the slab entry.
//
// objectTable is not safe for concurrent use; threadSafeStore guards it.

const (
	slabChunkBits = 10
	slabChunkSize = 1 << slabChunkBits
	slabChunkMask = slabChunkSize - 1
	// firstChunkCap is the initial capacity of the first slab chunk, so that
	// stores holding a handful of objects stay small.
	firstChunkCap = 8
	// keyTableMinSize is the smallest non-empty hash table.
	keyTableMinSize = 16
)

// entry is one stored object with its key. A free entry has a nil obj.
type entry struct {
	key string
	obj any
}

// slab stores entries in fixed-size chunks, so growing never copies more
// than one chunk and never leaves a large over-allocated tail. Freed ids
// are reused last-in first-out.
type slab struct {
	chunks [][]entry
	free   []uint32
	live   int
}

func (s *slab) at(id uint32) *entry {
	return &s.chunks[id>>slabChunkBits][id&slabChunkMask]
}

func (s *slab) alloc(key string, obj any) uint32 {
	s.live++
	if n := len(s.free); n > 0 {
		id := s.free[n-1]
		s.free = s.free[:n-1]
		*s.at(id) = entry{key: key, obj: obj}
		return id
	}
	last := len(s.chunks) - 1
	switch {
	case last < 0:
		s.chunks = append(s.chunks, make([]entry, 0, firstChunkCap))
		last = 0
	case len(s.chunks[last]) == slabChunkSize:
		s.chunks = append(s.chunks, make([]entry, 0, slabChunkSize))
		last++
	case len(s.chunks[last]) == cap(s.chunks[last]):
		// Only the first chunk grows; double it, capped at the chunk size.
		grown := make([]entry, len(s.chunks[last]), min(2*cap(s.chunks[last]), slabChunkSize))
		copy(grown, s.chunks[last])
		s.chunks[last] = grown
	}
	id := uint32(last<<slabChunkBits | len(s.chunks[last]))
	s.chunks[last] = append(s.chunks[last], entry{key: key, obj: obj})
	return id
}

func (s *slab) release(id uint32) {
	*s.at(id) = entry{}
	s.free = append(s.free, id)
	s.live--
}

// objectTable maps keys to slab ids.
type objectTable struct {
	seed  maphash.Seed
	slots []uint64 // tag<<32 | id+1; 0 is empty; len is 0 or a power of two
	slab  slab
}

func newObjectTable(sizeHint int) objectTable {
	t := objectTable{seed: maphash.MakeSeed()}
	if sizeHint > 0 {
		t.slots = make([]uint64, tableSizeFor(sizeHint))
	}
	return t
}

// tableSizeFor returns the power-of-two slot count that holds n entries at
// a load factor of at most 13/16.
func tableSizeFor(n int) int {
	size := keyTableMinSize
	for n*16 > size*13 {
		size *= 2
	}
	return size
}

func (t *objectTable) len() int { return t.slab.live }

func (t *objectTable) tag(key string) uint32 {
	return uint32(maphash.String(t.seed, key))
}

func (t *objectTable) at(id uint32) *entry { return t.slab.at(id) }

// lookup returns the id stored under key.
func (t *objectTable) lookup(key string) (uint32, bool) {
	if len(t.slots) == 0 {
		return 0, false
	}
	h := t.tag(key)
	mask := len(t.slots) - 1
	for i := int(h) & mask; ; i = (i + 1) & mask {
		s := t.slots[i]
		if s == 0 {
			return 0, false
		}
		if uint32(s>>32) == h {
			id := uint32(s) - 1
			if t.slab.at(id).key == key {
				return id, true
			}
		}
	}
}

// insert stores obj under key, which must be absent, and returns its id.
func (t *objectTable) insert(key string, obj any) uint32 {
	if (t.slab.live+1)*16 > len(t.slots)*13 {
		t.resize(tableSizeFor(t.slab.live + 1))
	}
	id := t.slab.alloc(key, obj)
	t.place(uint64(t.tag(key))<<32 | uint64(id+1))
	return id
}

func (t *objectTable) place(slot uint64) {
	mask := len(t.slots) - 1
	i := int(uint32(slot>>32)) & mask
	for t.slots[i] != 0 {
		i = (i + 1) & mask
	}
	t.slots[i] = slot
}

func (t *objectTable) resize(size int) {
	old := t.slots
	t.slots = make([]uint64, size)
	for _, s := range old {
		if s != 0 {
			t.place(s)
		}
	}
}

// remove deletes the entry with id, which must be live.
func (t *objectTable) remove(id uint32) {
	e := t.slab.at(id)
	h := t.tag(e.key)
	want := uint64(h)<<32 | uint64(id+1)
	mask := len(t.slots) - 1
	i := int(h) & mask
	for t.slots[i] != want {
		i = (i + 1) & mask
	}
	// Backward-shift deletion: pull later members of the probe run into
	// the hole when their home slot allows it.
	for j := (i + 1) & mask; t.slots[j] != 0; j = (j + 1) & mask {
		home := int(uint32(t.slots[j]>>32)) & mask
		// Move slot j to the hole i unless its home lies cyclically in (i, j].
		if (j > i && (home <= i || home > j)) || (j < i && home <= i && home > j) {
			t.slots[i] = t.slots[j]
			i = j
		}
	}
	t.slots[i] = 0
	t.slab.release(id)
}

// each calls fn for every live entry until fn returns false.
func (t *objectTable) each(fn func(id uint32, e *entry) bool) {
	for c, chunk := range t.slab.chunks {
		for i := range chunk {
			if chunk[i].obj == nil {
				continue
			}
			if !fn(uint32(c<<slabChunkBits|i), &chunk[i]) {
				return
			}
		}
	}
}
