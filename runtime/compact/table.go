package compact

import (
	"reflect"
	"sync"
	"sync/atomic"
	"unique"
	"unsafe"
)

// Table holds one canonical copy per distinct value of the sub-structures
// (slices, maps, pointed-to structs) that the walks of this package share,
// and interns strings (through Go's unique package). It holds canonical
// copies weakly: a copy that no object uses any more is collected by the
// garbage collector, and its slot is dropped when its shard next fills up
// (shard.go).
//
// Values are matched by hash and then compared exactly (never by hash
// alone) with the equality function of their type.
//
// All methods are safe for concurrent use.
type Table struct {
	shards [shardCount]shard
	// seen admits values: a string is interned, and a value looked up,
	// only once a value with its hash was seen at another address in
	// another object (a repeat; see admit). Values unique to one object
	// (names, UIDs, IPs, a Pod's own volumes) thus cost neither a
	// canonical entry nor a lookup, and walking an object twice finds its
	// own values, not repeats, so it writes nothing. Lossy (two slots per
	// hash bucket), lock-free.
	seen [seenSlots]seenSlot
	// strings caches recent canonical strings by hash; it keeps at most
	// 1<<internCacheBits strings alive.
	strings [1 << internCacheBits]atomic.Pointer[string]
	// memo remembers canonical copies by the bytes a decoder decoded them
	// from (decode_share.go); made at first use.
	memo atomic.Pointer[memo]
	// mutations counts the canonical copies the Guard removed as
	// mutated: a memo entry stored before the count changed is not used.
	mutations atomic.Uint64
	// exact, when not nil (NewExactTable), admits without loss.
	exact *exactSeen
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

// seenSlot is the last value seen in one bucket: its hash, and its
// address (shifted left by objectBits) with the number of the object
// that held it (Hash.object).
type seenSlot struct {
	hash, where atomic.Uint64
}

// objectBits is the width of an object's number in a seenSlot; objectIDs
// the numbers there are (0 is no object). Two objects 65535 walks apart
// look like one to the filter, which then admits their repeat later.
const (
	objectBits = 16
	objectIDs  = 1<<objectBits - 1
)

// admit reports whether a value with hash h at address addr, in the
// walked object numbered obj (0: unknown), repeats one seen at another
// address in another object, and records it when its hash is new. A value
// repeated only inside one object (a Pod's own volume name in its volumes
// and its mounts, its IP in podIP and podIPs) is not admitted: interning
// or sharing it would cost an entry to save a few bytes of one object.
//
// The filter is two-way: a hash goes to one of 2 slots of its bucket, so
// that one value seen in every object (a per-object value whose hash
// shares the bucket) cannot keep another from ever being admitted. The
// newest sighting takes the first slot, the one before moves to the
// second. Slots are written without a lock: a torn slot only admits or
// holds back one value wrongly, and an admitted value is still compared
// exactly.
func (t *Table) admit(h uint64, addr unsafe.Pointer, obj uint64) bool {
	return t.admitWhere(h, uint64(uintptr(addr))<<objectBits|obj, obj)
}

// admitWhere is admit of a value at where: its address shifted left by
// objectBits, with obj in the low bits.
func (t *Table) admitWhere(h, where, obj uint64) bool {
	if t.exact != nil {
		return t.exact.admit(h, where, obj)
	}
	b := (h >> (64 - seenBits)) &^ 1
	first, second := &t.seen[b], &t.seen[b+1]
	for _, s := range [2]*seenSlot{first, second} {
		if s.hash.Load() == h {
			prev := s.where.Load()
			sameObject := obj != 0 && prev&objectIDs == obj
			return prev>>objectBits != where>>objectBits && !sameObject
		}
	}
	second.hash.Store(first.hash.Load())
	second.where.Store(first.where.Load())
	first.hash.Store(h)
	first.where.Store(where)
	return false
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
// returns it. fresh returns the storage to point at weakly, its length and
// the function that recomputes h from them (the Guard's check; nil for
// none).
//
// A value not admitted (seen for the first time) is returned as it is,
// at addr with length n, without a lookup.
func (t *Table) lookup(typ reflect.Type, h uint64, obj uint64, addr unsafe.Pointer, n int, same func(p unsafe.Pointer, n int) bool, fresh func() (unsafe.Pointer, int, checkFunc)) (unsafe.Pointer, int) {
	p, pn, _ := t.lookupCanonical(typ, h, obj, addr, n, same, fresh)
	return p, pn
}

// lookupCanonical is lookup that also reports whether the value returned
// is the table's canonical copy (false for a value not admitted).
func (t *Table) lookupCanonical(typ reflect.Type, h uint64, obj uint64, addr unsafe.Pointer, n int, same func(p unsafe.Pointer, n int) bool, fresh func() (unsafe.Pointer, int, checkFunc)) (unsafe.Pointer, int, bool) {
	if !t.admit(h, addr, obj) {
		return addr, n, false
	}
	h = slotHash(h)
	tw := typeWord(typ)
	s := &t.shards[h%shardCount]
	s.mu.Lock()
	defer s.mu.Unlock()
	if p, pn, ok := s.findLocked(tw, h, same); ok {
		return p, pn, true // the common case: no write
	}
	found, foundN, check := fresh()
	s.addLocked(tw, h, found, foundN, check)
	return found, foundN, true
}

// Sweep drops every slot whose canonical copy was collected. Tables sweep
// themselves as they fill up; Sweep is for tests and for callers that
// want the table's size to follow a collection at once.
func (t *Table) Sweep() {
	for i := range t.shards {
		s := &t.shards[i]
		s.mu.Lock()
		s.rebuildLocked(0)
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
		n += s.used
		s.mu.Unlock()
	}
	return n
}
