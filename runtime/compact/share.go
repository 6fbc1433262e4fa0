package compact

import (
	"hash/maphash"
	"reflect"
	"unsafe"
)

// Walk compacts the value at p in place: it interns its strings and
// replaces its shareable parts by their canonical copies in t, and mixes
// the value's hash into h. A walk writes a field only when its value
// changes, so walking an object that is already compact (or whose parts
// are canonical copies other goroutines read) writes nothing.
type Walk[T any] func(t *Table, p *T, h *Hash)

// Equal reports whether the values at a and b are exactly equal (as
// reflect.DeepEqual would say, nil and empty apart).
type Equal[T any] func(a, b *T) bool

// String interns the string at p once it repeats (see Table).
func String(t *Table, p *string, h *Hash) {
	if c, ok := t.intern(*p, h); ok {
		*p = c
	}
}

// StringOf interns the string of a named string type at p.
func StringOf[S ~string](t *Table, p *S, h *Hash) {
	if c, ok := t.intern(string(*p), h); ok {
		*p = S(c)
	}
}

// Own mixes the string at p into h and keeps it as it is: it is for
// values no two objects share (an object's own UID and resourceVersion),
// whose lookups would cost a hash-table probe each and never find one.
func Own[S ~string](_ *Table, p *S, h *Hash) { mixString(string(*p), h) }

// mixString mixes s into h and returns its hash (0 for "").
func mixString(s string, h *Hash) uint64 {
	if s == "" {
		h.Uint64(0)
		return 0
	}
	x := maphash.String(seed, s)
	h.Uint64(x)
	return x
}

// intern mixes s into h and returns its canonical copy when s repeats and
// is not that copy already.
func (t *Table) intern(s string, h *Hash) (string, bool) {
	x := mixString(s, h)
	if s == "" || t == nil || !t.admit(x, unsafe.Pointer(unsafe.StringData(s)), h.object()) {
		return "", false
	}
	c := t.canonicalString(x, s)
	return c, unsafe.StringData(c) != unsafe.StringData(s)
}

// canonicalString returns the canonical copy of s, whose hash is x: from
// the table's small cache of recent canonical strings, or from package
// unique (which the cache saves a lookup of for hot strings).
func (t *Table) canonicalString(x uint64, s string) string {
	slot := &t.strings[x>>(64-internCacheBits)]
	if c := slot.Load(); c != nil && *c == s {
		return *c
	}
	c := InternString(s)
	slot.Store(&c)
	return c
}

// Scalar mixes an integer of any size at p into h.
func Scalar[I ~int | ~int8 | ~int16 | ~int32 | ~int64 | ~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~uintptr](_ *Table, p *I, h *Hash) {
	h.Uint64(uint64(*p))
}

// Bool mixes the bool at p into h.
func Bool[B ~bool](_ *Table, p *B, h *Hash) { h.Bool(bool(*p)) }

// Float mixes the float at p into h.
func Float[F ~float32 | ~float64](_ *Table, p *F, h *Hash) { h.Float(float64(*p)) }

// Bytes shares the byte slice at p (raw JSON, fieldsV1).
func Bytes(t *Table, p *[]byte, h *Hash) {
	b := *p
	var bh Hash
	bh.Bytes(b)
	h.Mix(bh)
	if len(b) == 0 || t == nil {
		return
	}
	c, canonical := shareSlice(t, b, bh.sum, h.object(), func(a, b *byte) bool { return *a == *b }, nil)
	h.noteCanonical(unsafe.Pointer(unsafe.SliceData(c)), canonical)
	if unsafe.SliceData(c) != unsafe.SliceData(b) {
		*p = c
	}
}

// Interface makes h opaque unless the interface value at p is nil: the
// dynamic value cannot be compared without reflection.
func Interface[I any](_ *Table, p *I, h *Hash) {
	if any(*p) != nil {
		h.Opaque()
		return
	}
	h.Uint64(0)
}

// Eq is the equality of comparable values.
func Eq[T comparable](a, b *T) bool { return *a == *b }

// Slice walks the elements of the slice at p in place and replaces the
// slice by its canonical copy. A slice that stays the object's own is
// right-sized: decoders grow slices by appending (5 pod conditions take
// the room of 8), and the spare capacity would live as long as the cached
// object. nil and empty slices stay as they are (and hash apart).
func Slice[E any](t *Table, p *[]E, walk Walk[E], eq Equal[E], h *Hash) {
	s := *p
	if s == nil {
		h.Uint64(0)
		return
	}
	sh := h.child()
	sh.Uint64(uint64(len(s)) + 1)
	for i := range s {
		walk(t, &s[i], sh)
	}
	h.Mix(*sh)
	if len(s) == 0 || t == nil {
		return
	}
	c := s
	if !sh.opaque {
		var canonical bool
		c, canonical = shareSlice(t, s, sh.sum, h.object(), eq, walk)
		h.noteCanonical(unsafe.Pointer(unsafe.SliceData(c)), canonical)
	}
	if unsafe.SliceData(c) == unsafe.SliceData(s) && cap(s) != len(s) {
		c = make([]E, len(s))
		copy(c, s)
	}
	if unsafe.SliceData(c) != unsafe.SliceData(s) {
		*p = c
	}
}

// shareSlice returns the canonical copy of s, a walked non-empty slice
// with hash h; a new canonical copy is right-sized. walk is the walk of
// its elements that hashed it, nil for a byte slice hashed whole (Bytes).
func shareSlice[E any](t *Table, s []E, h, obj uint64, eq Equal[E], walk Walk[E]) ([]E, bool) {
	same := func(p unsafe.Pointer, n int) bool {
		if n != len(s) {
			return false
		}
		c := unsafe.Slice((*E)(p), n)
		if unsafe.SliceData(c) == unsafe.SliceData(s) {
			return true
		}
		for i := range c {
			if !eq(&c[i], &s[i]) {
				return false
			}
		}
		return true
	}
	fresh := func() (unsafe.Pointer, int, checkFunc) {
		c := s
		if cap(s) != len(s) {
			c = make([]E, len(s))
			copy(c, s)
		}
		return unsafe.Pointer(unsafe.SliceData(c)), len(c), sliceCheck(walk)
	}
	p, n, canonical := t.lookupCanonical(reflect.TypeFor[[]E](), h, obj, unsafe.Pointer(unsafe.SliceData(s)), len(s), same, fresh)
	return unsafe.Slice((*E)(p), n), canonical
}

// Pointer walks the value the pointer at p points to, in place, and
// replaces the pointer by the canonical copy's.
func Pointer[E any](t *Table, p **E, walk Walk[E], eq Equal[E], h *Hash) {
	v := *p
	if v == nil {
		h.Uint64(0)
		return
	}
	vh := h.child()
	vh.Uint64(1)
	walk(t, v, vh)
	h.Mix(*vh)
	if vh.opaque || t == nil {
		return
	}
	same := func(c unsafe.Pointer, _ int) bool { return (*E)(c) == v || eq((*E)(c), v) }
	fresh := func() (unsafe.Pointer, int, checkFunc) { return unsafe.Pointer(v), 0, pointerCheck(walk) }
	c, _, canonical := t.lookupCanonical(reflect.TypeFor[*E](), vh.sum, h.object(), unsafe.Pointer(v), 0, same, fresh)
	h.noteCanonical(c, canonical)
	if (*E)(c) != v {
		*p = (*E)(c)
	}
}

// mapEntry is one walked entry of a map.
type mapEntry[K comparable, V any] struct {
	k K
	v V
}

// Map replaces the map at p by its canonical copy, whose keys and values
// are walked copies of the map's (the map itself is never written: it may
// already be a canonical copy). nil and empty maps stay as they are.
func Map[K comparable, V any](t *Table, p *map[K]V, walkK Walk[K], walkV Walk[V], eq Equal[V], h *Hash) {
	m := *p
	if m == nil {
		h.Uint64(0)
		return
	}
	var sum uint64
	opaque := false
	walked := make([]mapEntry[K, V], 0, len(m))
	for k, v := range m {
		walked = append(walked, mapEntry[K, V]{k, v})
		e := &walked[len(walked)-1]
		eh := h.child()
		walkK(t, &e.k, eh)
		walkV(t, &e.v, eh)
		sum += eh.sum // order-independent
		opaque = opaque || eh.opaque
	}
	mh := Hash{opaque: opaque}
	mh.Uint64(uint64(len(m)) + 1)
	mh.Uint64(sum)
	h.Mix(mh)
	if len(m) == 0 || opaque || t == nil {
		return
	}
	c, canonical := shareMap(t, m, walked, mh.sum, h.object(), eq, walkK, walkV)
	h.noteCanonical(mapData(c), canonical)
	if mapData(c) != mapData(m) {
		*p = c
	}
}

// shareMap returns the canonical copy of m, whose walked entries are
// walked (by walkK and walkV, which hashed them).
func shareMap[K comparable, V any](t *Table, m map[K]V, walked []mapEntry[K, V], h, obj uint64, eq Equal[V], walkK Walk[K], walkV Walk[V]) (map[K]V, bool) {
	same := func(p unsafe.Pointer, _ int) bool {
		c := *(*map[K]V)(unsafe.Pointer(&p))
		if len(c) != len(walked) {
			return false
		}
		var cv V // one copy to compare through, not one per entry
		for i := range walked {
			var ok bool
			if cv, ok = c[walked[i].k]; !ok || !eq(&cv, &walked[i].v) {
				return false
			}
		}
		return true
	}
	fresh := func() (unsafe.Pointer, int, checkFunc) {
		c := make(map[K]V, len(walked))
		for _, e := range walked {
			c[e.k] = e.v
		}
		return mapData(c), 0, mapCheck(walkK, walkV)
	}
	p, _, canonical := t.lookupCanonical(reflect.TypeFor[map[K]V](), h, obj, mapData(m), 0, same, fresh)
	return *(*map[K]V)(unsafe.Pointer(&p)), canonical
}

// mapData returns the pointer a map value is: the map's header.
func mapData[K comparable, V any](m map[K]V) unsafe.Pointer {
	return *(*unsafe.Pointer)(unsafe.Pointer(&m))
}
