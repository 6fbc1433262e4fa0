package compact

import (
	"hash/maphash"
	"math"
	"sync"
	"sync/atomic"
	"unsafe"
)

// seed is the process's seed for string hashes.
var seed = maphash.MakeSeed()

// Hash accumulates the hash of one value during a walk. A walk that meets
// something it cannot compare exactly (an interface value, a struct with
// unexported fields it does not know) marks the hash opaque: neither that
// value nor anything that contains it is shared. The zero value is ready.
type Hash struct {
	sum    uint64
	opaque bool
	// levels and depth give a walk the hashes of the values it descends
	// into (child): one per depth, allocated once per walked object, not
	// once per slice, map and pointer (a pointer to a local Hash handed
	// to a walk function would escape to the heap each time).
	levels *hashLevels
	depth  int
}

// hashLevels are the child hashes of one walk, by depth. A walk is
// sequential: the value at depth d is done with its child at d+1 before it
// asks for another.
type hashLevels struct {
	byDepth []*Hash
	// object tells the walked object from others in the admission filter
	// (Table.admit): 1 to 65535, 0 for a walk of no known object.
	object uint64
	// canonical is the data word of the last value the walk found in the
	// table or made its canonical copy (ShareDecoded reads it).
	canonical unsafe.Pointer
}

// noteCanonical records, when canonical, that the value whose data word
// is p is a canonical copy of the table.
func (h *Hash) noteCanonical(p unsafe.Pointer, canonical bool) {
	if canonical && h.levels != nil {
		h.levels.canonical = p
	}
}

// objects numbers the walked objects (rootHash).
var objects atomic.Uint64

// object returns the number of the object h's walk walks, or 0.
func (h *Hash) object() uint64 {
	if h.levels == nil {
		return 0
	}
	return h.levels.object
}

// child returns a reset Hash for a value that the value h hashes contains;
// it is valid until the next child of h (or of a sibling of h).
func (h *Hash) child() *Hash {
	if h.levels == nil {
		h.levels = &hashLevels{}
	}
	d := h.depth + 1
	for len(h.levels.byDepth) <= d {
		h.levels.byDepth = append(h.levels.byDepth, new(Hash))
	}
	c := h.levels.byDepth[d]
	*c = Hash{levels: h.levels, depth: d}
	return c
}

// Sum returns the hash so far.
func (h *Hash) Sum() uint64 { return h.sum }

// Opaque marks the value being walked as one that cannot be shared.
func (h *Hash) Opaque() { h.opaque = true }

// IsOpaque reports whether Opaque was called on h or a child mixed into it.
func (h *Hash) IsOpaque() bool { return h.opaque }

// Uint64 mixes v into h.
func (h *Hash) Uint64(v uint64) {
	// splitmix64's finalizer over the running sum and v.
	x := h.sum ^ (v + 0x9e3779b97f4a7c15 + h.sum<<6 + h.sum>>2)
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	x ^= x >> 31
	h.sum = x
}

// String mixes the contents of s into h.
func (h *Hash) String(s string) { h.Uint64(maphash.String(seed, s)) }

// Bytes mixes the contents of b into h; nil and empty differ.
func (h *Hash) Bytes(b []byte) {
	if b == nil {
		h.Uint64(0)
		return
	}
	h.Uint64(uint64(len(b)) + 1)
	h.Uint64(maphash.Bytes(seed, b))
}

// Bool mixes b into h.
func (h *Hash) Bool(b bool) {
	if b {
		h.Uint64(1)
		return
	}
	h.Uint64(2)
}

// Float mixes the bits of f into h.
func (h *Hash) Float(f float64) { h.Uint64(math.Float64bits(f)) }

// Mix mixes the hash of a child value into h; an opaque child makes h
// opaque.
func (h *Hash) Mix(child Hash) {
	h.Uint64(child.sum)
	h.opaque = h.opaque || child.opaque
}

// rootHashes recycles the root hashes of walks with their levels, so that
// walking an object allocates no hash at all.
var rootHashes = sync.Pool{New: func() any { return new(Hash) }}

// rootHash returns a zero Hash to walk one object with; release it with
// releaseHash when the walk is done.
func rootHash() *Hash {
	h := rootHashes.Get().(*Hash)
	levels := h.levels
	if levels == nil {
		levels = &hashLevels{}
	}
	levels.object = objects.Add(1)%objectIDs + 1
	*h = Hash{levels: levels}
	return h
}

// releaseHash recycles h, which no walk uses any more.
func releaseHash(h *Hash) { rootHashes.Put(h) }
