package compact

import (
	"sync"
	"sync/atomic"
	"unsafe"

	"k8s.io/apimachinery/pkg/runtime"
)

// Decoded is the contract between a decoder that hands over the objects
// it decodes already compact (runtime/jsonwatch's Watcher, on its
// stream's goroutine) and the informer that caches them, which then does
// not compact them again:
//
//   - the informer, when it starts and only when it compacts its objects
//     with no transform before compaction (but one that writes no part
//     compaction shares, as runtime/cache's StripManagedFields), enables
//     it (Enable) with its key function, its queue's hint (the previous
//     version of a key, see runtime/cache's DeltaFIFO), its own
//     compaction and whether it strips managedFields, which the
//     decoder then does itself (Enable);
//   - the decoder, once an object is decoded, calls Compact: the object
//     is compacted by the informer's compaction against the hint it will
//     get, the same walks and Table, so its parts come out of the decoder
//     shared exactly as the informer would share them (the update walk's
//     taking of the previous version's equal parts included), the
//     canonical copies registered in the Table and its Guard the same
//     way. The hint is the object of the newest event of the same key
//     this Decoded compacted, when it remembers one (the informer queues
//     that event before this one, but may not have yet: a stream decodes
//     one event ahead of the reflector), else the queue's;
//   - the informer, before it compacts an object, asks Compacted with the
//     hint it has: true when Compact compacted that very object against
//     that very hint, and the informer skips its compaction. Any other
//     object, or the same one against another hint (a relist replaced the
//     key in between), is compacted as before: walking a compact object
//     changes nothing that is already shared.
//
// A decoder hands objects over in sessions (Begin, DecodedSession): one
// per watch stream and one per list, so that an object of an earlier
// stream, which the informer may never have taken or a relist may have
// replaced, is never the hint of a later object.
//
// Objects are recognized by identity (the pointer the decoder returned),
// never by type or content, but for the items of a listed page, which the
// reflector copies (AdoptCopied): a shallow copy of one is recognized by
// its key, type and every byte of its struct. A Decoded remembers at most the last
// decodedSlots objects it compacted (more than the objects a reflector
// takes before it queues them: a first list's batch; an object the
// reflector drops is pushed out by newer ones), holding them so that none
// can be freed and its address reused while remembered, and of the
// objects the informer took only the newest of each key, which the
// informer's cache holds too.
//
// The zero Decoded is ready, disabled. All methods are safe for
// concurrent use.
type Decoded struct {
	// on holds the informer's functions once enabled.
	on atomic.Pointer[decodedConfig]
	// mu guards slots, next, byObject and byKey.
	mu sync.Mutex
	// slots, guarded by mu, are the objects Compact compacted, a ring
	// made by Enable whose oldest is at next; next, guarded by mu, is the
	// slot the next one takes.
	slots []decodedSlot
	next  int
	// byObject and byKey, guarded by mu, index slots by object identity
	// and by key (the newest slot of a key).
	byObject map[identity]int
	byKey    map[string]int
	// session, guarded by mu, counts the sessions begun (Begin): slots
	// hold only objects handed over in the newest.
	session uint64
	// copies is set once AdoptCopied was called: Compacted then looks an
	// object it does not know by identity up by key.
	copies atomic.Bool
}

// decodedSlots bounds the objects a Decoded remembers: above the 256
// objects of a first list's batch (runtime/cache) that a reflector
// decodes before it queues them.
const decodedSlots = 1024

type decodedConfig struct {
	key        func(obj any) (string, error)
	hint       func(key string) any
	compaction func(obj, old any)
	// strip is whether the informer strips metadata.managedFields (see
	// Enable).
	strip bool
}

// decodedSlot is one object Compact compacted: its key, the hint it was
// compacted against, whether its event deletes the key, and whether the
// informer took it (Compacted). A taken slot stays the key's pending
// hint (pending) until the key's next event: the informer may not have
// queued it yet. It holds no object for a deletion, and the object the
// cache holds for the key otherwise.
type decodedSlot struct {
	key           string
	obj, hint     any
	deleted, seen bool
	// session is the session obj was handed over in (Begin), or
	// newestSession.
	session uint64
	// size, when not 0, is the size of *obj's struct: the informer takes
	// a shallow copy of obj (AdoptCopied).
	size uintptr
}

// identity is an interface value's two words: equal for the same
// pointer of the same type, and comparable whatever the value (two
// interfaces holding non-pointer values never compare equal by it).
type identity [2]unsafe.Pointer

func identityOf(v any) identity { return *(*identity)(unsafe.Pointer(&v)) }

// Enable makes Compact compact objects with compaction, against the hint
// the informer will give them: hint(key) (nil for none) for an object of
// key (key(obj)). The informer calls it once, before it starts watching.
//
// stripManagedFields tells that the informer clears each object's
// metadata.managedFields before it compacts it (runtime/cache's
// StripManagedFields, a factory's default): Compact, Adopt and
// AdoptCopied then clear them (StripManagedFields) on the decoder's
// goroutine, while the object is the decoder's alone, so that the
// informer's own pass finds nothing left to write, and a decoder may
// skip decoding them (StripsManagedFields). It must be done there: the
// decoder reads the object it remembers as the hint of the key's next
// object (Previous) while the informer takes it, and a write by the
// informer then would race with that read.
func (c *Decoded) Enable(key func(obj any) (string, error), hint func(key string) any, compaction func(obj, old any), stripManagedFields bool) {
	c.mu.Lock()
	c.slots, c.next = make([]decodedSlot, decodedSlots), 0
	c.byObject, c.byKey = make(map[identity]int), make(map[string]int)
	c.mu.Unlock()
	c.on.Store(&decodedConfig{key: key, hint: hint, compaction: compaction, strip: stripManagedFields})
}

// StripsManagedFields reports whether the informer strips
// metadata.managedFields (Enable): a decoder may then leave them out of
// the objects it decodes.
func (c *Decoded) StripsManagedFields() bool {
	if c == nil {
		return false
	}
	cfg := c.on.Load()
	return cfg != nil && cfg.strip
}

// prepare strips obj's managedFields when the informer does.
func (cfg *decodedConfig) prepare(obj any) {
	if cfg.strip {
		StripManagedFields(obj)
	}
}

// Enabled reports whether Compact compacts.
func (c *Decoded) Enabled() bool { return c != nil && c.on.Load() != nil }

// remember puts s in the oldest slot, unless it was handed over in a
// session before the newest (Begin): such an object is forgotten, and
// the informer, should it take it, compacts it itself.
func (c *Decoded) remember(s decodedSlot) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if s.session != newestSession && s.session != c.session {
		return
	}
	if j, ok := c.byKey[s.key]; ok && c.slots[j].seen {
		// The key's previous event is the informer's now, and no
		// longer its next hint: let it go.
		c.slots[j] = decodedSlot{}
		delete(c.byKey, s.key)
	}
	i := c.next
	if old := &c.slots[i]; old.key != "" {
		if !old.seen {
			delete(c.byObject, identityOf(old.obj))
		}
		if c.byKey[old.key] == i {
			delete(c.byKey, old.key)
		}
	}
	c.slots[i] = s
	c.byObject[identityOf(s.obj)] = i
	c.byKey[s.key] = i
	c.next = (i + 1) % len(c.slots)
}

// pending returns the hint the informer will give the next object of key
// when c remembers an object of key: that object, or nil after a
// deletion; session is the one asking: a session before the newest
// (Begin) gets none, and asks the informer.
func (c *Decoded) pending(key string, session uint64) (hint any, known bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	i, ok := c.byKey[key]
	switch {
	case !ok || (session != newestSession && session != c.session):
		return nil, false
	case c.slots[i].deleted:
		return nil, true
	}
	return c.slots[i].obj, true
}

// Compacted reports whether Compact compacted obj against hint and the
// informer did not ask for obj before. Objects and hints are compared by
// identity, but for an object adopted with AdoptCopied, whose shallow
// copies are recognized too. c may be nil.
func (c *Decoded) Compacted(obj, hint any) bool {
	_, compacted := c.take(obj, hint)
	return compacted
}

// Take is what the informer calls before it compacts obj against hint:
// compacted, as Compacted, when a decoder compacted obj against that very
// hint (the informer then skips its compaction and takes obj); otherwise
// the object for the informer to compact, obj itself, or, for an object
// a decoder handed over against another hint, a deep copy of it
// (runtime.Object's DeepCopyObject): the decoder may read that object
// as the hint of its key's next object while the informer compacts, so
// the informer must not write it. c may be nil.
func (c *Decoded) Take(obj, hint any) (taken any, compacted bool) {
	known, compacted := c.take(obj, hint)
	if known && !compacted {
		if o, ok := obj.(runtime.Object); ok {
			return o.DeepCopyObject(), false
		}
	}
	return obj, compacted
}

// take is Compacted, and whether a decoder handed obj over at all.
func (c *Decoded) take(obj, hint any) (known, compacted bool) {
	if c == nil || obj == nil {
		return false, false
	}
	cfg := c.on.Load()
	if cfg == nil {
		return false, false
	}
	key := ""
	if c.copies.Load() {
		key, _ = cfg.key(obj) // outside mu: the key function may take locks
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	i, ok := c.byObject[identityOf(obj)]
	if !ok {
		if i, ok = c.copyOf(obj, key); !ok {
			return false, false
		}
		// The informer holds the copy: the original is no longer needed.
		delete(c.byObject, identityOf(c.slots[i].obj))
		c.slots[i].obj = obj
	}
	// The informer takes obj: no identity to keep, and for a deletion no
	// object (only that the key's newest event deletes it, for pending).
	s := &c.slots[i]
	delete(c.byObject, identityOf(obj))
	if identityOf(s.hint) != identityOf(hint) {
		// The informer compacts a copy (Take), which becomes the key's
		// version: obj is no hint for the key's next object.
		if c.byKey[s.key] == i {
			delete(c.byKey, s.key)
		}
		*s = decodedSlot{}
		return true, false
	}
	s.seen = true
	s.hint = nil
	if s.deleted {
		s.obj = nil
	}
	return true, true
}

// copyOf returns the slot of the object adopted with AdoptCopied for key
// of which obj is a shallow copy: of the same type, its struct's bytes
// equal (every string, slice, map and pointer the same). c.mu is held.
func (c *Decoded) copyOf(obj any, key string) (int, bool) {
	i, ok := c.byKey[key]
	if !ok || key == "" {
		return 0, false
	}
	s := &c.slots[i]
	if s.seen || s.size == 0 {
		return 0, false
	}
	a, b := identityOf(obj), identityOf(s.obj)
	if a[0] != b[0] || a[1] == nil || b[1] == nil {
		return 0, false
	}
	return i, unsafe.String((*byte)(a[1]), s.size) == unsafe.String((*byte)(b[1]), s.size)
}
