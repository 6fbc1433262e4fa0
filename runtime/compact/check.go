package compact

import (
	"hash/maphash"
	"reflect"
	"sync"
	"unsafe"
)

// checkFunc recomputes, from a canonical copy's storage p (and length n,
// for a slice), the hash the copy had when it entered the Table: the
// Guard compares the two to find a copy that was mutated since. A check
// reads the copy and never writes it: it walks it with a nil Table, which
// neither interns nor shares (the canonical copy's parts are right-sized
// already, so no walk right-sizes them either).
type checkFunc func(p unsafe.Pointer, n int) uint64

// checkKey identifies a check: the type of the copies it checks and the
// walk functions it hashes them with (their func values' words, static
// for the functions generated walks pass).
type checkKey struct {
	typ, walk1, walk2 unsafe.Pointer
}

// checks caches the checks made so far, so that a new canonical copy
// costs no allocation for its check: one per type and walks. It stops
// growing at maxChecks (walk closures made anew per call would otherwise
// fill it); past that, a copy gets a check of its own.
var checks struct {
	mu sync.RWMutex // guards byKey
	// byKey maps a check's key to the check.
	byKey map[checkKey]checkFunc
}

const maxChecks = 4096

// funcWord is the word of the func value f.
func funcWord[F any](f F) unsafe.Pointer { return *(*unsafe.Pointer)(unsafe.Pointer(&f)) }

// cachedCheck returns the check of key, made by build if it is not cached.
func cachedCheck(key checkKey, build func() checkFunc) checkFunc {
	checks.mu.RLock()
	c, ok := checks.byKey[key]
	checks.mu.RUnlock()
	if ok {
		return c
	}
	c = build()
	checks.mu.Lock()
	defer checks.mu.Unlock()
	if checks.byKey == nil {
		checks.byKey = map[checkKey]checkFunc{}
	}
	if cached, ok := checks.byKey[key]; ok {
		return cached
	}
	if len(checks.byKey) < maxChecks {
		checks.byKey[key] = c
	}
	return c
}

// sliceCheck is the check of the canonical copies of []E that Slice (or
// jsonSlice) hashed with walk: Slice's hash of the elements; nil walk is
// Bytes' hash of a byte slice.
func sliceCheck[E any](walk Walk[E]) checkFunc {
	if walk == nil {
		return checkBytes
	}
	key := checkKey{typ: typeWord(reflect.TypeFor[[]E]()), walk1: funcWord(walk)}
	return cachedCheck(key, func() checkFunc { return newSliceCheck(walk) })
}

// newSliceCheck makes sliceCheck's check.
func newSliceCheck[E any](walk Walk[E]) checkFunc {
	return func(p unsafe.Pointer, n int) uint64 {
		s := unsafe.Slice((*E)(p), n)
		root := rootHash()
		defer releaseHash(root)
		sh := root.child()
		sh.Uint64(uint64(len(s)) + 1)
		for i := range s {
			walk(nil, &s[i], sh)
		}
		return sh.sum
	}
}

// checkBytes is the check of a byte slice shared by Bytes.
func checkBytes(p unsafe.Pointer, n int) uint64 {
	var h Hash
	h.Bytes(unsafe.Slice((*byte)(p), n))
	return h.sum
}

// pointerCheck is the check of the canonical copies of *E that Pointer
// hashed with walk.
func pointerCheck[E any](walk Walk[E]) checkFunc {
	key := checkKey{typ: typeWord(reflect.TypeFor[*E]()), walk1: funcWord(walk)}
	return cachedCheck(key, func() checkFunc { return newPointerCheck(walk) })
}

// newPointerCheck makes pointerCheck's check.
func newPointerCheck[E any](walk Walk[E]) checkFunc {
	return func(p unsafe.Pointer, _ int) uint64 {
		root := rootHash()
		defer releaseHash(root)
		vh := root.child()
		vh.Uint64(1)
		walk(nil, (*E)(p), vh)
		return vh.sum
	}
}

// mapCheck is the check of the canonical copies of map[K]V that Map (or
// jsonMap) hashed with walkK and walkV: entries are walked as copies, as
// Map walks them.
func mapCheck[K comparable, V any](walkK Walk[K], walkV Walk[V]) checkFunc {
	key := checkKey{typ: typeWord(reflect.TypeFor[map[K]V]()), walk1: funcWord(walkK), walk2: funcWord(walkV)}
	return cachedCheck(key, func() checkFunc { return newMapCheck(walkK, walkV) })
}

// newMapCheck makes mapCheck's check.
func newMapCheck[K comparable, V any](walkK Walk[K], walkV Walk[V]) checkFunc {
	return func(p unsafe.Pointer, _ int) uint64 {
		m := *(*map[K]V)(unsafe.Pointer(&p))
		root := rootHash()
		defer releaseHash(root)
		var sum uint64
		e := new(mapEntry[K, V]) // one copy to walk the entries through
		for k, v := range m {
			eh := root.child()
			e.k, e.v = k, v
			walkK(nil, &e.k, eh)
			walkV(nil, &e.v, eh)
			sum += eh.sum
		}
		var mh Hash
		mh.Uint64(uint64(len(m)) + 1)
		mh.Uint64(sum)
		return mh.sum
	}
}

// checkJSONString is the check of a string box that jsonStringValue
// shares.
func checkJSONString(p unsafe.Pointer, _ int) uint64 {
	return maphash.String(seed, *(*string)(p)) ^ jsonString
}
