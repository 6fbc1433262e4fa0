package queue

import (
	"errors"
	"fmt"
	"sync"

	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
)

// ErrClosed is returned by PopBatch once the queue is closed; its message
// is client-go's DeltaFIFO's (runtime/cache's ErrFIFOClosed is this
// error).
var ErrClosed = errors.New("DeltaFIFO: manipulating with closed queue")

// KeyListerGetter is the read side of the cache a FIFO feeds, which it
// consults to find deletions on Replace and objects to resync.
type KeyListerGetter interface {
	// ListKeys returns the keys of the cached objects.
	ListKeys() []string
	// GetByKey returns the object cached under key, or exists=false.
	GetByKey(key string) (value any, exists bool, err error)
}

// CacheReader is the read side of an informer's cache that its queue
// uses: KeyListerGetter, the compaction hint's read of one key (with no
// queue lock held, FIFO.Hint) and the number of cached objects. Every
// method is safe for concurrent use and waits for a writer of the cache
// to finish (never skips a read because a lock is held), so what the
// queue reads does not depend on who holds a lock. runtime/cache's
// store.Indexed is one.
type CacheReader interface {
	KeyListerGetter
	// PeekByKey returns the object stored under key.
	PeekByKey(key string) (any, bool)
	// Len returns the number of stored objects.
	Len() int
}

// Compactor compacts obj after the transform, sharing the parts equal to
// hint's (the previous version of obj's key, nil for none; see
// FIFO.Hint), and returns the object to queue: obj, compacted in place,
// or a compacted copy of it when obj must not be written (one a decoder
// still reads, compact.Decoded.Take).
type Compactor func(obj, hint any) any

// Config is what a FIFO is built with besides its cache and compactor.
type Config struct {
	// Name is the queue's name in its errors.
	Name string
	// KeyOf keys an object, a tombstone by its Key. Required.
	KeyOf func(obj any) (string, error)
	// Known is the cache the queue feeds, when New is given no
	// CacheReader (which is then the known objects). Without either,
	// Replace finds deletions only among queued keys and Resync does
	// nothing.
	Known KeyListerGetter
	// Unchanged reports whether a listed object is the cached one at the
	// same version: a list then queues the cached object itself
	// (PrepareListed). Nil: never.
	Unchanged func(cached, listed any) bool
	// Transform, when set, rewrites every object entering the queue
	// except Sync deltas, tombstones made from the known objects and
	// listed objects replaced by the cached ones.
	Transform func(obj any) (any, error)
	// Depth, when set, is told the number of queued keys after each
	// change of it.
	Depth func(n int)
	// Synced, when set, is the channel the queue closes once its initial
	// population is processed; a fresh one otherwise (FIFO.Synced).
	Synced chan struct{}
}

// FIFO is the delta queue between a reflector and the cache: it records,
// per object key, the list of changes (Deltas) not yet applied, and hands
// keys out in the order they were first queued (PopBatch). Consecutive
// deletes of one key are merged. On Replace, keys the cache or the queue
// knows that are missing from the new list are queued as Deleted with a
// DeletedFinalStateUnknown tombstone holding their last known state; a
// relist leaves the queue as one batch flagged ReplacedAll. It is the
// reflector's Sink (sink.go).
//
// All methods are safe for concurrent use. The process function given to
// PopBatch runs without the queue locked, so the producer keeps queueing
// while a batch is applied; Replace and Resync, which read the cache the
// batch is being applied to, wait for the batch to finish, and Delete
// queues unconditionally meanwhile.
//
// Concurrency: no goroutine of its own. Producers (the reflector's Run and
// resync goroutines) call Add/Update/Delete/Replace/Resync; one consumer
// (the informer's processing goroutine) calls PopBatch. Lock order: popMu
// before mu (PopBatch takes both; nothing takes popMu while holding mu),
// then the cache's lock (known and cache read under mu; the compaction
// hint of Add/Update/Delete reads cache with no queue lock held, see
// Hint). cond and idle wait on mu: only PopBatch waits on cond, only
// Replace, Resync and Prune (waitIdleLocked) wait on idle.
type FIFO struct {
	// popMu serialises PopBatch callers, and guards batch and the popped
	// batch of keys: the popping goroutine fills them with mu held, hands
	// batch to process with mu released, and empties both with mu held
	// again. A popped entry's deltas do not change until it is released
	// (a popped key is no longer queued, so nothing appends to it), so
	// the compaction hint reads them under mu while process reads them.
	popMu sync.Mutex
	// mu guards every field below but the immutable ones at the end.
	mu   sync.Mutex
	cond sync.Cond // signalled (on mu) when a key is queued or the queue closes
	idle sync.Cond // broadcast (on mu) when a batch finished processing

	// processing is set while a popped batch is being processed: the
	// cache does not yet reflect the keys of batch, so readers of the
	// cache (Replace, Resync) wait on idle until it is clear.
	processing bool

	// keys holds the queued keys in FIFO order, each with its pending
	// deltas, and the keys of the batch being processed until it is
	// released (keys.Known: the compaction hint reads them there,
	// fifo_prepare.go). The pointer is immutable; mu guards what it
	// holds.
	keys    *Keys[pending]
	batch   []Popped
	listGen uint64 // number of Replace calls so far
	// relistLast is the queued entry that closes the latest relist (a
	// Replace after the first), nil when none is queued: the queued keys
	// up to and including it are one relist unit, popped as one batch.
	relistLast *fifoEntry
	// queuedTotal counts the entries ever appended to queue, and
	// processedTotal those popped whose batch finished processing: the
	// entries queued before a moment are processed once processedTotal
	// reaches queuedTotal's value then (AfterApplied). barriers wait
	// for that, oldest first.
	queuedTotal, processedTotal uint64
	barriers                    []fifoBarrier

	populated bool // a Replace, or a first list's Close, completed
	// firstListOpen is set between OpenFirstList and the first list's
	// Close or Abandon: the objects of the first list are being queued
	// as they arrive (fifo_first_list.go).
	firstListOpen bool
	// initialPopulationCount is the number of keys of the initial
	// population (queued by the first Replace) not yet popped and
	// processed: HasSynced once it is 0 after populated.
	initialPopulationCount int
	// synced is closed once populated and initialPopulationCount is 0
	// (noteSyncedLocked): HasSynced's channel. The channel is immutable.
	synced chan struct{}
	closed bool // Close was called: PopBatch returns ErrClosed

	// Immutable after construction.
	doneCh chan struct{} // closed by Close
	cfg    Config
	known  KeyListerGetter
	// cache is the informer's cache the queue feeds (New's cache): known,
	// read through its keyed contract; nil for a queue of runtime/cache's
	// NewDeltaFIFO*.
	cache CacheReader
	// compact, when set, compacts each object after cfg.Transform; its
	// second argument is a hint (fifo_prepare.go).
	compact Compactor
}

// fifoEntry is one key of the queue (or of the batch being processed)
// with its pending deltas.
type fifoEntry = Entry[pending]

// pending is what the queue holds for one key: the changes not yet
// applied. Its first delta is stored inline, so a key with a single
// pending change costs no allocation besides the entry.
type pending struct {
	deltas Deltas
	// listGen is the Replace call (FIFO.listGen) whose list last held
	// the key.
	listGen uint64
	// initialDeltas is the number of leading deltas of the initial
	// population; non-zero marks a key of the initial population.
	initialDeltas int
	inline        [1]Delta
}

// initPending readies a newly allocated entry's value: its deltas start
// in the inline array.
func initPending(p *pending) { p.deltas = p.inline[:0] }

// resetPending drops a processed entry's references to objects; a
// recycled one (keep) keeps its deltas' capacity unless it grew large.
func resetPending(p *pending, keep bool) {
	clear(p.deltas)
	p.initialDeltas = 0
	if !keep {
		p.deltas = nil
		p.inline = [1]Delta{}
		return
	}
	if cap(p.deltas) > 16 {
		p.deltas = p.inline[:0]
	}
	p.deltas = p.deltas[:0]
}

// New returns an empty, open FIFO feeding cache (nil for none: cfg.Known
// then) and compacting what it queues with compact (nil for none).
func New(cache CacheReader, compact Compactor, cfg Config) *FIFO {
	f := &FIFO{
		doneCh:  make(chan struct{}),
		synced:  cfg.Synced,
		keys:    NewKeys(initPending, resetPending),
		cfg:     cfg,
		known:   cfg.Known,
		cache:   cache,
		compact: compact,
	}
	if f.synced == nil {
		f.synced = make(chan struct{})
	}
	if cache != nil {
		f.known = cache
	}
	f.cond.L = &f.mu
	f.idle.L = &f.mu
	return f
}

// keyOf is cfg.KeyOf with its error wrapped as runtime/cache words it.
func (f *FIFO) keyOf(obj any) (string, error) {
	key, err := f.cfg.KeyOf(obj)
	if err != nil {
		return "", fmt.Errorf("cache: cannot key %T: %w", obj, err)
	}
	return key, nil
}

// Add queues an Added delta for obj.
func (f *FIFO) Add(obj any) error {
	key, err := f.keyOf(obj)
	if err != nil {
		return err
	}
	return f.queueEvent(key, Added, obj)
}

// Update queues an Updated delta for obj.
func (f *FIFO) Update(obj any) error {
	key, err := f.keyOf(obj)
	if err != nil {
		return err
	}
	return f.queueEvent(key, Updated, obj)
}

// Delete queues a Deleted delta for obj, unless its key is neither queued
// nor known to the cache (there is nothing to delete). While a batch is
// being processed the cache may be about to learn the key, so the delete is
// queued anyway (the informer ignores deletes of keys it does not hold).
func (f *FIFO) Delete(obj any) error {
	key, err := f.keyOf(obj)
	if err != nil {
		return err
	}
	f.mu.Lock()
	unknown := f.unknownLocked(key)
	f.mu.Unlock()
	if unknown {
		return nil
	}
	return f.queueEvent(key, Deleted, obj)
}

// unknownLocked reports whether key is neither queued, nor possibly in
// the batch being processed, nor in the cache: a delete of it has
// nothing to delete.
func (f *FIFO) unknownLocked(key string) bool {
	if _, queued := f.keys.Queued(key); queued || f.processing {
		return false
	}
	if f.known == nil {
		return true
	}
	_, exists, err := f.known.GetByKey(key)
	return err == nil && !exists
}

// Resync queues a Sync delta for every known object whose key is not
// already queued.
func (f *FIFO) Resync() error {
	if f.known == nil {
		return nil
	}
	f.mu.Lock()
	err := f.resyncLocked()
	f.mu.Unlock()
	return err
}

func (f *FIFO) resyncLocked() error {
	f.waitIdleLocked()
	for _, key := range f.known.ListKeys() {
		if _, queued := f.keys.Queued(key); queued {
			continue
		}
		obj, exists, err := f.known.GetByKey(key)
		if err != nil {
			utilruntime.HandleError(fmt.Errorf("cache: resync of key %q: %w", key, err))
			continue
		}
		if !exists {
			continue
		}
		f.queueKeyedLocked(key, Sync, obj)
	}
	return nil
}

// queueKeyedLocked appends a delta of obj, prepared already (see
// queueEvent), to key's list and returns key's entry.
func (f *FIFO) queueKeyedLocked(key string, typ DeltaType, obj any) *fifoEntry {
	e, queued := f.keys.Queued(key)
	if !queued {
		e = f.keys.Push(key)
		f.queuedTotal++
		if f.keys.Len() == 1 {
			f.cond.Signal()
		}
	}
	e.Value.deltas = append(e.Value.deltas, Delta{Type: typ, Object: obj})
	e.Value.deltas = dedupDeletes(e.Value.deltas)
	if f.cfg.Depth != nil {
		f.cfg.Depth(f.keys.Len())
	}
	return e
}

// waitIdleLocked waits until no popped batch is being processed, so that
// the cache reflects every key no longer queued.
func (f *FIFO) waitIdleLocked() {
	for f.processing {
		f.idle.Wait()
	}
}

// HasSynced is true once a first Replace (or first list) completed and
// every key it queued has been popped and processed.
func (f *FIFO) HasSynced() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.populated && f.initialPopulationCount == 0
}

// Synced returns the channel closed once HasSynced is true.
func (f *FIFO) Synced() <-chan struct{} { return f.synced }

// Len returns the number of queued keys.
func (f *FIFO) Len() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.keys.Len()
}

// Close makes PopBatch return ErrClosed, now and in the future.
func (f *FIFO) Close() {
	f.mu.Lock()
	defer f.mu.Unlock()
	if !f.closed {
		close(f.doneCh)
	}
	f.closed = true
	f.cond.Broadcast()
}

// Done returns a channel closed by Close.
func (f *FIFO) Done() <-chan struct{} { return f.doneCh }

// IsClosed reports whether Close was called.
func (f *FIFO) IsClosed() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.closed
}
