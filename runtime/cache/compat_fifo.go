package cache

import (
	"sync"
)

// Queue is a ReflectorStore with a collection of keys to process: each
// Add, Update or Delete may queue the object's key, and Pop hands out
// queued keys' accumulators. It is safe for concurrent use; Pop is meant
// for a single consumer. Once closed, Pop on an empty queue returns
// ErrFIFOClosed.
//
// Compatibility code, kept for code written against client-go: the informer
// does not use it.
type Queue interface {
	ReflectorStore

	// Pop blocks until a key is queued or the queue is closed, then
	// removes one key with its accumulator, calls process with it, and
	// returns the accumulator and process's error.
	Pop(PopProcessFunc) (any, error)

	// HasSynced reports whether the keys of the first Replace, when it
	// came before any Add, Update or Delete, have all been popped.
	HasSynced() bool

	// HasSyncedChecker is a DoneChecker done when HasSynced becomes true.
	HasSyncedChecker() DoneChecker

	// Close closes the queue.
	Close()
}

// FIFO is client-go's plain Queue: the accumulator of a key is the object
// last given for it, and keys are popped in the order they were first
// queued. An object updated several times while queued is popped once, in
// its latest state; an object deleted while queued is not popped at all;
// Resync only re-queues keys missing from the queue (there are none).
// Compare DeltaFIFO, which hands out every change.
//
// Compatibility code, kept for code written against client-go: the informer
// does not use it.
type FIFO struct {
	// lock guards every field below; cond waits on it.
	lock sync.RWMutex
	cond sync.Cond
	// items holds the accumulators; every key of items is in queue, which
	// may also hold keys deleted since they were queued.
	items map[string]any
	queue []string

	// synced is closed, once (syncedClosed), when the first batch was
	// popped.
	synced       chan struct{}
	syncedClosed bool
	// populated is set by the first write of any kind;
	// initialPopulationCount counts the keys of the first Replace still
	// to pop, when that Replace was the first write.
	populated              bool
	initialPopulationCount int

	keyFunc KeyFunc // read-only
	closed  bool
}

var (
	_ = Queue(&FIFO{})
	_ = DoneChecker(&FIFO{})
	_ = Queue(&DeltaFIFO{}) // as in client-go
)

// NewFIFO returns an empty FIFO keying objects with keyFunc.
func NewFIFO(keyFunc KeyFunc) *FIFO {
	f := &FIFO{
		synced:  make(chan struct{}),
		items:   map[string]any{},
		queue:   []string{},
		keyFunc: keyFunc,
	}
	f.cond.L = &f.lock
	return f
}

// Close makes Pop return ErrFIFOClosed once the queue is empty.
func (f *FIFO) Close() {
	f.lock.Lock()
	defer f.lock.Unlock()
	f.closed = true
	f.cond.Broadcast()
}

// HasSynced reports whether an Add, Update or Delete came first, or the
// keys of the first Replace have all been popped.
func (f *FIFO) HasSynced() bool {
	f.lock.Lock()
	defer f.lock.Unlock()
	return f.syncedClosed
}

// HasSyncedChecker returns f, done when HasSynced becomes true.
func (f *FIFO) HasSyncedChecker() DoneChecker { return f }

// Name is "FIFO".
func (f *FIFO) Name() string { return "FIFO" }

// Done is closed when HasSynced becomes true.
func (f *FIFO) Done() <-chan struct{} { return f.synced }

// checkSyncedLocked closes synced once the first batch is popped.
func (f *FIFO) checkSyncedLocked() {
	if f.populated && f.initialPopulationCount == 0 && !f.syncedClosed {
		f.syncedClosed = true
		close(f.synced)
	}
}

// Add stores obj as its key's accumulator, queueing the key unless it is
// queued. The error is a KeyError when the key cannot be computed.
func (f *FIFO) Add(obj any) error {
	id, err := f.keyFunc(obj)
	if err != nil {
		return KeyError{obj, err}
	}
	f.lock.Lock()
	defer f.lock.Unlock()
	f.populated = true
	f.checkSyncedLocked()
	if _, exists := f.items[id]; !exists {
		f.queue = append(f.queue, id)
	}
	f.items[id] = obj
	f.cond.Broadcast()
	return nil
}

// Update is Add.
func (f *FIFO) Update(obj any) error { return f.Add(obj) }

// Delete drops obj's key's accumulator: a queued key is then skipped by
// Pop.
func (f *FIFO) Delete(obj any) error {
	id, err := f.keyFunc(obj)
	if err != nil {
		return KeyError{obj, err}
	}
	f.lock.Lock()
	defer f.lock.Unlock()
	f.populated = true
	f.checkSyncedLocked()
	delete(f.items, id)
	return nil
}

// IsClosed reports whether Close was called.
func (f *FIFO) IsClosed() bool {
	f.lock.Lock()
	defer f.lock.Unlock()
	return f.closed
}

// Pop waits for a queued key with an accumulator, removes both, and calls
// process with the accumulator while holding the queue's lock (so process
// must not call the FIFO). It returns the accumulator and process's
// error, or ErrFIFOClosed when the queue is closed and empty. An item that
// fails processing is not re-queued.
func (f *FIFO) Pop(process PopProcessFunc) (any, error) {
	f.lock.Lock()
	defer f.lock.Unlock()
	for {
		for len(f.queue) == 0 {
			if f.closed {
				return nil, ErrFIFOClosed
			}
			f.cond.Wait()
		}
		isInInitialList := !f.syncedClosed
		id := f.queue[0]
		f.queue = f.queue[1:]
		if f.initialPopulationCount > 0 {
			f.initialPopulationCount--
			defer f.checkSyncedLocked() // once process has returned
		}
		item, ok := f.items[id]
		if !ok {
			continue // deleted since it was queued
		}
		delete(f.items, id)
		err := process(item, isInInitialList)
		return item, err
	}
}

// Replace makes list the whole content and queues its keys, in no
// particular order, instead of the queued ones. It fails, changing
// nothing, with a KeyError when a key cannot be computed.
func (f *FIFO) Replace(list []any, resourceVersion string) error {
	items := make(map[string]any, len(list))
	for _, item := range list {
		key, err := f.keyFunc(item)
		if err != nil {
			return KeyError{item, err}
		}
		items[key] = item
	}
	f.lock.Lock()
	defer f.lock.Unlock()
	if !f.populated {
		f.populated = true
		f.initialPopulationCount = len(items)
		f.checkSyncedLocked()
	}
	f.items = items
	f.queue = f.queue[:0]
	for id := range items {
		f.queue = append(f.queue, id)
	}
	if len(f.queue) > 0 {
		f.cond.Broadcast()
	}
	return nil
}

// Resync queues every key with an accumulator that is not queued.
func (f *FIFO) Resync() error {
	f.lock.Lock()
	defer f.lock.Unlock()
	inQueue := make(map[string]struct{}, len(f.queue))
	for _, id := range f.queue {
		inQueue[id] = struct{}{}
	}
	for id := range f.items {
		if _, ok := inQueue[id]; !ok {
			f.queue = append(f.queue, id)
		}
	}
	if len(f.queue) > 0 {
		f.cond.Broadcast()
	}
	return nil
}
