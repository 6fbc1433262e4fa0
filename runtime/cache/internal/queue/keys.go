package queue

// Keys is a FIFO of distinct keys, each with a value of type T: the
// key-queue container under FIFO (fifo.go), which keeps a key's
// pending deltas in its value. A key is queued at most once; Push appends
// a key not queued, Pop takes keys from the head as one batch, whose
// entries stay known (Known) until Release, so a reader of the queue can
// tell a key being processed from one that is not.
//
// Entries are allocated in chunks and recycled: a value keeps what its
// reset leaves (a slice's capacity) for the next key. Go maps never
// shrink, so the key map and the queue slice are made anew once a large
// queue drains, and the map is rebuilt when stale mappings of processed
// keys (kept rather than deleted one by one from a large map) outnumber
// the queued keys; each rebuild follows at least as many pops as it
// costs, so its cost per key is constant.
//
// Keys is not safe for concurrent use: its owner guards it (FIFO.mu).
type Keys[T any] struct {
	// A key is queued if and only if items maps it to an entry e with
	// e.key == key in queue[head:], and in the popped batch if and only if
	// items maps it to an entry e with e.key == key and e.popped. A large
	// map may keep stale mappings of released entries, whose key is "" or
	// another key's once reused.
	items     map[string]*Entry[T]
	itemsHigh int         // most keys items held since it was last made
	queue     []*Entry[T] // keys in FIFO order, from head
	head      int         // queue[:head] are popped (nil)
	free      []*Entry[T] // recycled entries, at most maxFree
	chunk     []Entry[T]  // unused entries of the last allocated chunk
	popped    []*Entry[T] // the batch of the last Pop, until Release

	// init readies the value of a newly allocated entry; reset clears a
	// released one (keep: it is recycled, else dropped). Immutable.
	init  func(v *T)
	reset func(v *T, keep bool)
}

// Entry is one key of a Keys with its value.
type Entry[T any] struct {
	key    string
	popped bool
	// Value is the owner's data for the key.
	Value T
}

// Key returns the entry's key.
func (e *Entry[T]) Key() string { return e.key }

// maxFree caps the recycled entries a Keys keeps.
const maxFree = 1024

// maxChunk is the most entries allocated at once when the free list is
// empty (a large list being queued).
const maxChunk = 64

// ShrinkThreshold is the number of keys above which the key map and the
// queue slice are made anew once the queue drains.
const ShrinkThreshold = 4096

// NewKeys returns an empty Keys. init readies the value of each entry
// allocated (nil: the zero value); reset clears the value of each entry
// released, keep telling whether the entry is recycled (nil: zeroed).
func NewKeys[T any](init func(v *T), reset func(v *T, keep bool)) *Keys[T] {
	return &Keys[T]{items: make(map[string]*Entry[T]), init: init, reset: reset}
}

// Len returns the number of queued keys.
func (k *Keys[T]) Len() int { return len(k.queue) - k.head }

// Queued returns key's entry when key is queued.
func (k *Keys[T]) Queued(key string) (*Entry[T], bool) {
	e, ok := k.items[key]
	if !ok || e.key != key || e.popped {
		return nil, false
	}
	return e, true
}

// Known returns key's entry when key is queued or in the popped batch
// not yet released (popped reports which).
func (k *Keys[T]) Known(key string) (e *Entry[T], popped bool, ok bool) {
	e, ok = k.items[key]
	if !ok || e.key != key {
		return nil, false, false
	}
	return e, e.popped, true
}

// Push queues key, which must not be queued, at the tail and returns its
// entry, whose value is ready (init) or as a previous key's reset left it.
func (k *Keys[T]) Push(key string) *Entry[T] {
	e := k.newEntry()
	e.key = key
	k.items[key] = e
	k.itemsHigh = max(k.itemsHigh, len(k.items))
	k.queue = append(k.queue, e)
	return e
}

// Entries returns the queued entries, oldest first. The slice is the
// queue's own: valid until the next Push, Pop or Reserve, not to be
// modified.
func (k *Keys[T]) Entries() []*Entry[T] { return k.queue[k.head:] }

// Last returns the newest queued entry, nil when none is queued.
func (k *Keys[T]) Last() *Entry[T] {
	if k.Len() == 0 {
		return nil
	}
	return k.queue[len(k.queue)-1]
}

// Position returns how many queued entries precede e and e itself (its
// 1-based position from the head), 0 when e is not queued.
func (k *Keys[T]) Position(e *Entry[T]) int {
	for i, q := range k.queue[k.head:] {
		if q == e {
			return i + 1
		}
	}
	return 0
}

// Reserve sizes an empty queue for n keys at once rather than growing
// step by step; it does nothing when keys are queued or popped, or when
// the queue held n keys already.
func (k *Keys[T]) Reserve(n int) {
	if k.Len() != 0 || len(k.popped) != 0 || n <= k.itemsHigh {
		return
	}
	k.items = make(map[string]*Entry[T], n)
	k.itemsHigh = n
	k.queue = make([]*Entry[T], 0, n)
	k.head = 0
}

// Pop takes the n oldest queued keys (at most Len) as the batch and
// returns their entries, oldest first, valid until Release. The popped
// keys are no longer queued but stay Known until Release. A previous
// batch must have been released.
func (k *Keys[T]) Pop(n int) []*Entry[T] {
	n = min(n, k.Len())
	for i := 0; i < n; i++ {
		e := k.queue[k.head+i]
		k.queue[k.head+i] = nil
		e.popped = true
		k.popped = append(k.popped, e)
	}
	k.head += n
	k.compact()
	return k.popped
}

// Release forgets the popped batch: its keys are no longer Known unless
// queued again, its entries are reset and recycled, and the map and queue
// are shrunk when due.
func (k *Keys[T]) Release() {
	// A large map is left with stale mappings, which Queued and Known
	// tell apart and shrink drops: deleting keys one by one from a large
	// map costs about as much as inserting them.
	keepStale := len(k.items) > ShrinkThreshold
	for i, e := range k.popped {
		if !keepStale && k.items[e.key] == e {
			delete(k.items, e.key)
		}
		k.recycle(e)
		k.popped[i] = nil
	}
	k.popped = k.popped[:0]
	k.shrink()
}

// newEntry returns an empty entry: a recycled one, else one of a chunk
// allocated for the keys being queued (up to maxChunk at a time, in
// proportion to the keys already queued, so a small queue allocates
// small).
func (k *Keys[T]) newEntry() *Entry[T] {
	if n := len(k.free); n > 0 {
		e := k.free[n-1]
		k.free[n-1] = nil
		k.free = k.free[:n-1]
		return e
	}
	if len(k.chunk) == 0 {
		k.chunk = make([]Entry[T], min(max(len(k.items), 1), maxChunk))
	}
	e := &k.chunk[0]
	k.chunk = k.chunk[1:]
	if k.init != nil {
		k.init(&e.Value)
	}
	return e
}

// recycle keeps the released entry e for reuse. A dropped entry is reset
// too: it may share a chunk with live entries, which keeps it allocated.
func (k *Keys[T]) recycle(e *Entry[T]) {
	e.key, e.popped = "", false
	keep := len(k.free) < maxFree
	if k.reset != nil {
		k.reset(&e.Value, keep)
	} else {
		var zero T
		e.Value = zero
	}
	if keep {
		k.free = append(k.free, e)
	}
}

// shrink makes the map and the queue slice anew when the queue is empty
// after having held more than ShrinkThreshold keys, and makes the map anew
// with the queued keys only when stale mappings outnumber them (a steady
// backlog never drains: without this, every key that ever went through
// the queue would stay in the map).
func (k *Keys[T]) shrink() {
	live := k.Len()
	switch {
	case live == 0 && k.itemsHigh > ShrinkThreshold:
		k.items = make(map[string]*Entry[T])
		k.itemsHigh = 0
		k.queue = nil
		k.head = 0
	case len(k.items) > 2*live+ShrinkThreshold:
		k.items = make(map[string]*Entry[T], live)
		for _, e := range k.queue[k.head:] {
			k.items[e.key] = e
		}
		k.itemsHigh = live
	}
}

// compact reclaims the popped prefix of the queue slice.
func (k *Keys[T]) compact() {
	switch {
	case k.head == len(k.queue):
		k.queue = k.queue[:0]
		k.head = 0
	case k.head > 1024 && k.head > len(k.queue)/2:
		n := copy(k.queue, k.queue[k.head:])
		clear(k.queue[n:])
		k.queue = k.queue[:n]
		k.head = 0
	}
}
