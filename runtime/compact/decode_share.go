package compact

import (
	"bytes"
	"hash/maphash"
	"sync/atomic"
	"unsafe"
)

// Sharing while decoding: a decoder that builds the compact object itself
// (runtime/jsondecode's Shared) shares each slice, map and pointer it
// decodes as the walk would (ShareDecoded, the same walk, Table and
// admission), and remembers the canonical copies it met by the bytes it
// decoded them from (the Table's memo): the next time the same bytes
// come, for the same type, the canonical copy is taken as it is, without
// decoding, hashing or allocating anything.

// memoBits sizes a Table's memo of decoded canonical copies: 1<<memoBits
// entries, direct-mapped by the hash of their bytes, each holding its copy
// alive (bounded: memoMaxBytes of input per entry).
const (
	memoBits     = 12
	memoMaxBytes = 16 << 10
)

// memoEntry is one canonical copy and the bytes it was decoded from.
// Entries are immutable once stored.
type memoEntry struct {
	hash  uint64
	typ   unsafe.Pointer // the *T type word of the value's type T
	epoch uint64         // the Table's mutations when stored
	raw   []byte
	value any
}

// memo is a Table's memo, made at first use.
type memo [1 << memoBits]atomic.Pointer[memoEntry]

// typeWordOf identifies T without reflection: the type word of a nil *T
// in an interface (no allocation).
func typeWordOf[T any]() unsafe.Pointer {
	var p any = (*T)(nil)
	return (*[2]unsafe.Pointer)(unsafe.Pointer(&p))[0]
}

// memoHash is the hash of raw for values of type word typ.
func memoHash(typ unsafe.Pointer, raw []byte) uint64 {
	return maphash.Bytes(seed, raw) ^ uint64(uintptr(typ))*0x9e3779b97f4a7c15
}

// Memoized returns the canonical copy of type T that was decoded from
// exactly the bytes raw, when the Table's memo holds one and no canonical
// copy was found mutated since it was stored (Guard). It allocates
// nothing.
func Memoized[T any](t *Table, raw []byte) (v T, ok bool) {
	m := t.memo.Load()
	if m == nil || len(raw) > memoMaxBytes {
		return v, false
	}
	typ := typeWordOf[T]()
	h := memoHash(typ, raw)
	e := m[h>>(64-memoBits)].Load()
	if e == nil || e.hash != h || e.typ != typ || e.epoch != t.mutations.Load() || !bytes.Equal(e.raw, raw) {
		return v, false
	}
	v, ok = e.value.(T)
	return v, ok
}

// Memoize records v, a canonical copy of t decoded from raw, for
// Memoized. raw is copied.
func Memoize[T any](t *Table, raw []byte, v T) {
	if len(raw) > memoMaxBytes {
		return
	}
	m := t.memo.Load()
	if m == nil {
		t.memo.CompareAndSwap(nil, new(memo))
		m = t.memo.Load()
	}
	typ := typeWordOf[T]()
	h := memoHash(typ, raw)
	m[h>>(64-memoBits)].Store(&memoEntry{hash: h, typ: typ, epoch: t.mutations.Load(), raw: bytes.Clone(raw), value: v})
}

// ShareDecoded compacts the value at p, just decoded as part of the
// object numbered obj (DecodedObject), with walk, as the object's walk
// would: its strings interned and its parts shared through t, with the
// same admission. It reports whether the value is now the table's
// canonical copy (found there, or made it), which can be memoized; p
// must point to a slice, map or pointer, whose first word is its data.
func ShareDecoded[T any](t *Table, p *T, walk Walk[T], obj uint64) (canonical bool) {
	h := rootHash()
	h.levels.object, h.levels.canonical = obj, nil
	walk(t, p, h)
	after := *(*unsafe.Pointer)(unsafe.Pointer(p))
	canonical = after != nil && after == h.levels.canonical
	h.levels.canonical = nil // the pooled hash holds no value
	releaseHash(h)
	return canonical
}
