package store

import (
	"hash/maphash"

	"github.com/informer-gen/informer-gen/runtime/cache/internal/probe"
)

// This file holds objectTable, the key -> object map of the thread-safe
// store. It is a plain Go map in spirit, shaped for memory:
//
//   - every object lives in a slab entry {key, obj} addressed by a dense
//     uint32 id; ids are what the indexes store, so an index posting costs
//     4 bytes instead of a 16-byte string header plus hash-map slack;
//   - the hash table is a probe.Table of 8-byte slots (32-bit hash tag +
//     id);
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
)

// entry is one stored object with its key. A free entry has a nil obj.
type entry struct {
	key string
	obj any
}

// slab stores entries in fixed-size chunks, so growing never copies more
// than one chunk and never leaves a large over-allocated tail. Freed ids
// are reused last-in first-out. Not safe for concurrent use.
type slab struct {
	chunks [][]entry
	free   []uint32
	live   int
}

// at returns the entry with id, which must have been allocated.
func (s *slab) at(id uint32) *entry {
	return &s.chunks[id>>slabChunkBits][id&slabChunkMask]
}

// alloc stores {key, obj} in a free entry and returns its id.
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

// release frees the entry with id, which must be live, for reuse.
func (s *slab) release(id uint32) {
	*s.at(id) = entry{}
	s.free = append(s.free, id)
	s.live--
}

// objectTable maps keys to slab ids. It is not safe for concurrent use;
// threadSafeStore guards it.
type objectTable struct {
	seed  maphash.Seed
	index probe.Table[uint64] // tag<<32 | id+1 per slot
	slab  slab
}

// newObjectTable returns an empty table with room for sizeHint objects.
func newObjectTable(sizeHint int) objectTable {
	return objectTable{seed: maphash.MakeSeed(), index: probe.New[uint64](probe.KeySizing, sizeHint)}
}

// len returns the number of stored objects.
func (t *objectTable) len() int { return t.slab.live }

// tag returns the hash tag of key.
func (t *objectTable) tag(key string) uint32 {
	return uint32(maphash.String(t.seed, key))
}

// at returns the entry with id; it stays valid until the id is removed.
func (t *objectTable) at(id uint32) *entry { return t.slab.at(id) }

// lookup returns the id stored under key.
func (t *objectTable) lookup(key string) (uint32, bool) {
	if t.index.Len() == 0 {
		return 0, false
	}
	tag := t.tag(key)
	for i, s := t.index.First(tag); s != 0; i, s = t.index.Next(i) {
		if probe.Tag(s) == tag && t.slab.at(uint32(s)-1).key == key {
			return uint32(s) - 1, true
		}
	}
	return 0, false
}

// insert stores obj under key, which must be absent, and returns its id.
func (t *objectTable) insert(key string, obj any) uint32 {
	id := t.slab.alloc(key, obj)
	t.index.Insert(uint64(t.tag(key))<<32 | uint64(id+1))
	return id
}

// remove deletes the entry with id, which must be live.
func (t *objectTable) remove(id uint32) {
	t.index.Remove(uint64(t.tag(t.slab.at(id).key))<<32 | uint64(id+1))
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
