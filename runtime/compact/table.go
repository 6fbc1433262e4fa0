package compact

import (
	"reflect"
	"sync"
	"sync/atomic"
	"unique"
	"unsafe"
	"weak"
)

// shardCount spreads a Table's canonical copies over this many locks.
const shardCount = 32

// minSweep is the fewest insertions into a shard between two sweeps of
// its dead entries.
const minSweep = 256

// Table holds one canonical copy per distinct value of the sub-structures
// (slices, maps, pointed-to structs) that the walks of this package share,
// and interns strings (through Go's unique package). It holds canonical
// copies weakly: a copy that no object uses any more is collected by the
// garbage collector, and its entry is dropped at the shard's next sweep.
//
// Values are matched by hash and then compared exactly (never by hash
// alone) with the equality function of their type.
//
// All methods are safe for concurrent use.
type Table struct {
	shards [shardCount]shard
	// seen admits values: a string is interned, and a value looked up,
	// only once a value with its hash was seen at another address (a
	// repeat). Values unique to one object (names, UIDs, IPs, a Pod's own
	// volumes) thus cost neither a canonical entry nor a lookup, and
	// walking an object twice finds its own values, not repeats, so it
	// writes nothing. Lossy (one slot per hash bucket), lock-free.
	seen [seenSlots]seenSlot
	// strings caches recent canonical strings by hash; it keeps at most
	// 1<<internCacheBits strings alive.
	strings [1 << internCacheBits]atomic.Pointer[string]
}

// internCacheBits sizes a Table's cache of canonical strings.
const internCacheBits = 14

// seenBits sizes a Table's admission filter: 1<<seenBits slots, 256 KiB,
// small enough to stay in a core's L2 cache (a filter of 1 MiB cost a
// quarter more CPU per Pod in cache misses).
const (
	seenBits  = 14
	seenSlots = 1 << seenBits
)

// seenSlot is the last value seen in one bucket: its hash and address.
type seenSlot struct {
	hash, addr atomic.Uint64
}

// admit reports whether a value with hash h at address addr repeats one
// seen at another address, and records it otherwise.
func (t *Table) admit(h uint64, addr unsafe.Pointer) bool {
	s := &t.seen[h>>(64-seenBits)]
	a := uint64(uintptr(addr))
	if s.hash.Load() == h {
		return s.addr.Load() != a
	}
	s.hash.Store(h)
	s.addr.Store(a)
	return false
}

// shard is one lock's part of a Table.
type shard struct {
	mu sync.Mutex // guards entries and inserts
	// entries maps a value's type and hash to its canonical copies (one per
	// distinct value; several when hashes collide). Guarded by mu.
	entries map[tableKey][]entry
	// inserts counts insertions since the last sweep. Guarded by mu.
	inserts int
}

// tableKey is a canonical copy's Go type and hash.
type tableKey struct {
	typ  reflect.Type
	hash uint64
}

// entry is a weak pointer to a canonical copy's storage: a slice's first
// element (n is its length), a pointed-to value, or a map's header.
type entry struct {
	ptr weak.Pointer[byte]
	n   int
}

// NewTable returns an empty Table.
func NewTable() *Table { return &Table{} }

// defaultTable is made at first use: a Table's filters take 384 KiB,
// which a program that never compacts should not hold.
var defaultTable = sync.OnceValue(NewTable)

// Default returns the process-wide Table informers share, so that a value
// repeated across types (a Pod's and its ReplicaSet's template) is kept
// once.
func Default() *Table { return defaultTable() }

// InternString returns the canonical copy of s.
func InternString(s string) string {
	if s == "" {
		return ""
	}
	return unique.Make(s).Value()
}

// lookup returns the live canonical copy of typ with hash h for which
// same(storage, n) holds, or stores fresh() as the canonical copy and
// returns it. fresh returns the storage to point at weakly and its length.
//
// A value not admitted (seen for the first time) is returned as it is,
// at addr with length n, without a lookup.
func (t *Table) lookup(typ reflect.Type, h uint64, addr unsafe.Pointer, n int, same func(p unsafe.Pointer, n int) bool, fresh func() (unsafe.Pointer, int)) (unsafe.Pointer, int) {
	if !t.admit(h, addr) {
		return addr, n
	}
	s := &t.shards[h%shardCount]
	k := tableKey{typ: typ, hash: h}
	s.mu.Lock()
	defer s.mu.Unlock()
	es := s.entries[k]
	for _, e := range es {
		if p := unsafe.Pointer(e.ptr.Value()); p != nil && same(p, e.n) {
			return p, e.n // the common case: no write to the map
		}
	}
	// Not there: drop the dead entries of k, add the fresh copy.
	live := es[:0]
	for _, e := range es {
		if e.ptr.Value() != nil {
			live = append(live, e)
		}
	}
	clear(es[len(live):])
	found, foundN := fresh()
	live = append(live, entry{ptr: weak.Make((*byte)(found)), n: foundN})
	s.inserts++
	if s.entries == nil {
		s.entries = make(map[tableKey][]entry)
	}
	s.entries[k] = live
	if s.inserts >= max(minSweep, len(s.entries)) {
		s.sweepLocked()
	}
	return found, foundN
}

// sweepLocked drops the entries whose canonical copy was collected.
func (s *shard) sweepLocked() {
	s.inserts = 0
	for k, es := range s.entries {
		live := es[:0]
		for _, e := range es {
			if e.ptr.Value() != nil {
				live = append(live, e)
			}
		}
		clear(es[len(live):])
		if len(live) == 0 {
			delete(s.entries, k)
			continue
		}
		s.entries[k] = live
	}
}

// Sweep drops every entry whose canonical copy was collected. Tables sweep
// themselves as values are added; Sweep is for tests and for callers that
// want the table's size to follow a collection at once.
func (t *Table) Sweep() {
	for i := range t.shards {
		s := &t.shards[i]
		s.mu.Lock()
		s.sweepLocked()
		s.mu.Unlock()
	}
}

// Len returns the number of canonical copies the table holds, live or
// not yet swept.
func (t *Table) Len() int {
	n := 0
	for i := range t.shards {
		s := &t.shards[i]
		s.mu.Lock()
		for _, es := range s.entries {
			n += len(es)
		}
		s.mu.Unlock()
	}
	return n
}
