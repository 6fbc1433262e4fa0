package cache

import (
	"errors"
	"fmt"
	"runtime"
	"slices"
	"sync"

	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/klog/v2"

	"github.com/informer-gen/informer-gen/runtime/cache/internal/queue"
)

// DeltaType is the kind of change a Delta records.
type DeltaType string

// The kinds of change a DeltaFIFO records.
const (
	// Added is an object seen for the first time on a watch.
	Added DeltaType = "Added"
	// Updated is a new version of an object, seen on a watch.
	Updated DeltaType = "Updated"
	// Deleted is the removal of an object. Its Object is the last state:
	// the object itself when the watch reported the deletion, a
	// DeletedFinalStateUnknown tombstone when a relist revealed it.
	Deleted DeltaType = "Deleted"
	// Replaced is an object of a (re)list.
	Replaced DeltaType = "Replaced"
	// Sync is a periodic resync of an object already in the cache.
	Sync DeltaType = "Sync"
)

// Delta is one recorded change of one object.
type Delta struct {
	Type   DeltaType
	Object any
}

// Deltas is the list of changes queued for one key, oldest first.
type Deltas []Delta

// Oldest returns the oldest delta, or nil when d is empty. The informer
// does not use it; it exists so code written against client-go's Deltas
// compiles unchanged.
func (d Deltas) Oldest() *Delta {
	if len(d) == 0 {
		return nil
	}
	return &d[0]
}

// Newest returns the newest delta, or nil when d is empty.
func (d Deltas) Newest() *Delta {
	if len(d) == 0 {
		return nil
	}
	return &d[len(d)-1]
}

// KeyListerGetter is the read side of the cache a DeltaFIFO feeds, which it
// consults to find deletions on Replace and objects to resync. An Indexer
// is one.
type KeyListerGetter interface {
	KeyLister
	KeyGetter
}

// A KeyLister is anything that knows how to list its keys.
type KeyLister interface {
	ListKeys() []string
}

// A KeyGetter is anything that knows how to get the value stored under a
// given key.
type KeyGetter interface {
	// GetByKey returns the value associated with the key, or sets
	// exists=false.
	GetByKey(key string) (value any, exists bool, err error)
}

// ErrFIFOClosed is returned by popBatch (and Pop) once the queue is
// closed; its message is client-go's.
var ErrFIFOClosed = errors.New("DeltaFIFO: manipulating with closed queue")

// DeltaFIFOOptions configures a DeltaFIFO.
type DeltaFIFOOptions struct {
	// KeyFunction files objects; DeletionHandlingMetaNamespaceKeyFunc
	// semantics are applied on top (tombstones use their Key). Defaults to
	// MetaNamespaceKeyFunc.
	KeyFunction KeyFunc
	// KnownObjects is the cache the queue feeds. Without it, Replace finds
	// deletions only among queued keys and Resync does nothing. With it, a
	// Reflector's list that finds an object unchanged (same UID and
	// resourceVersion as cached, nothing queued for its key) queues the
	// cached object itself, not the listed copy.
	KnownObjects KeyListerGetter
	// Transformer, when set, rewrites every object entering the queue
	// except Sync deltas, tombstones made from KnownObjects and listed
	// objects replaced by the cached ones, which already went through it.
	// A Reflector's listed objects are transformed page by page as the
	// list arrives, before Replace. Objects inside tombstones handed to Delete
	// are transformed.
	Transformer TransformFunc
	// Metrics, when set, receives QueueDepth.
	Metrics Metrics
	// Name identifies the queue in DoneChecker names; "DeltaFIFO" by
	// default.
	Name string
	// Logger is accepted for client-go compatibility; the queue does not
	// log. Setting it is logged once at V(2), to it.
	Logger *klog.Logger
	// EmitDeltaTypeReplaced is accepted for client-go compatibility and
	// ignored: Replace always queues Replaced deltas (client-go queues Sync
	// deltas unless it is set).
	EmitDeltaTypeReplaced bool
}

// poppedBatch is what popBatch hands its process function: one batch of
// keys, and whether it is a relist. It is valid only during the call.
type poppedBatch struct {
	// Items are the keys popped, oldest first.
	Items []poppedDeltas
	// Relist is set when Items are one relist unit (a Replace after the
	// first, with the tombstones it queued), handed out whole and alone:
	// the informer stores it whole before any handler hears of it.
	Relist bool
}

// poppedDeltas is one key handed out by popBatch.
type poppedDeltas struct {
	Key    string
	Deltas Deltas
	// InitialDeltas is the number of leading Deltas that belong to the
	// initial population: the changes queued by the first Replace (and
	// before it). Later changes of the key, queued behind them before the
	// key was popped (a watch deleting and re-creating a listed object),
	// are not part of the initial list. HasSynced waits for every key
	// with InitialDeltas > 0.
	InitialDeltas int
	// IsInInitialList is InitialDeltas > 0: the key counts toward the
	// initial population (only its first InitialDeltas changes are part
	// of the initial list).
	IsInInitialList bool
}

// DeltaFIFO is the queue between a Reflector and the cache: it records, per
// object key, the list of changes (Deltas) not yet applied, and hands keys
// out in the order they were first queued. Consecutive deletes of one key
// are merged. On Replace, keys the cache or the queue knows that are
// missing from the new list are queued as Deleted with a
// DeletedFinalStateUnknown tombstone holding their last known state.
//
// All methods are safe for concurrent use. The process function given to
// popBatch runs without the queue locked, so the producer keeps queueing
// while a batch is applied; Replace and Resync, which read the cache the
// batch is being applied to, wait for the batch to finish, and Delete
// queues unconditionally meanwhile.
//
// Concurrency: no goroutine of its own. Producers (the reflector's Run and
// resync goroutines) call Add/Update/Delete/Replace/Resync; one consumer
// (the informer's processing goroutine) calls popBatch. Lock order: popMu
// before mu (popBatch takes both; nothing takes popMu while holding mu),
// then the cache's lock (known and cache read under mu; the compaction
// hint of Add/Update/Delete reads cache with no queue lock held, see
// hint). cond and idle wait on mu: only popBatch waits on cond, only
// Replace and Resync (waitIdleLocked) wait on idle.
type DeltaFIFO struct {
	// popMu serialises popBatch callers, and guards batch and the popped
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
	// delta_fifo_prepare.go). The pointer is immutable; mu guards what it
	// holds.
	keys    *queue.Keys[pending]
	batch   []poppedDeltas
	listGen uint64 // number of Replace calls so far
	// relistLast is the queued entry that closes the latest relist (a
	// Replace after the first), nil when none is queued: the queued keys
	// up to and including it are one relist unit, popped as one batch.
	relistLast *fifoEntry
	// queuedTotal counts the entries ever appended to queue, and
	// processedTotal those popped whose batch finished processing: the
	// entries queued before a moment are processed once processedTotal
	// reaches queuedTotal's value then (afterProcessed). barriers wait
	// for that, oldest first.
	queuedTotal, processedTotal uint64
	barriers                    []fifoBarrier

	populated bool // a Replace, or closeFirstList, completed
	// firstListOpen is set between openFirstList and closeFirstList or
	// abandonFirstList: the objects of the first list are being queued
	// as they arrive (delta_fifo_first_list.go).
	firstListOpen bool
	// initialPopulationCount is the number of keys of the initial
	// population (queued by the first Replace) not yet popped and
	// processed: HasSynced once it is 0 after populated.
	initialPopulationCount int
	// synced is closed once populated and initialPopulationCount is 0
	// (noteSyncedLocked): HasSynced's channel.
	synced chan struct{}
	closed bool // Close was called: popBatch returns ErrFIFOClosed

	// Immutable after construction.
	name    string
	doneCh  chan struct{} // closed by Close
	keyFunc KeyFunc
	known   KeyListerGetter
	// cache is the informer's cache the queue feeds (queueWiring.Cache):
	// known, read through its keyed contract; nil for a DeltaFIFO built
	// with NewDeltaFIFO*.
	cache     cacheReader
	transform TransformFunc
	// compaction, when set, compacts each object after transform; its
	// second argument is a hint (delta_fifo_prepare.go).
	compaction func(obj, hint any)
	metrics    Metrics
}

// cacheReader is the read side of an informer's cache that its queue
// uses besides KeyListerGetter: the compaction hint's read of one key
// (with no queue lock held, DeltaFIFO.hint) and the number of cached
// objects. Both are safe for concurrent use and wait for a writer of the
// cache to finish (never skip a read because a lock is held), so what the
// queue reads does not depend on who holds a lock.
type cacheReader interface {
	KeyListerGetter
	// PeekByKey returns the object stored under key.
	PeekByKey(key string) (any, bool)
	// Len returns the number of stored objects.
	Len() int
}

// queueWiring is what the informer gives the DeltaFIFO it builds, at
// construction: nothing of it is set later.
type queueWiring struct {
	// Cache is the informer's cache (also DeltaFIFOOptions.KnownObjects).
	Cache cacheReader
	// Compaction, when set, compacts each object after the transform,
	// with the compact object the queue or Cache holds for its key as the
	// hint (delta_fifo_prepare.go).
	Compaction func(obj, hint any)
	// Synced, when set, is the channel the queue closes once its initial
	// population is processed (HasSynced's); a fresh one otherwise.
	Synced chan struct{}
}

// fifoEntry is one key of the queue (or of the batch being processed)
// with its pending deltas.
type fifoEntry = queue.Entry[pending]

// pending is what the queue holds for one key: the changes not yet
// applied. Its first delta is stored inline, so a key with a single
// pending change costs no allocation besides the entry.
type pending struct {
	deltas Deltas
	// listGen is the Replace call (DeltaFIFO.listGen) whose list last
	// held the key.
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

// idleSpins is how many times a consumer yields before sleeping on an
// empty queue.
const idleSpins = 2

// shrinkThreshold is the number of keys above which the queue's key map
// and slice are made anew once the queue drains (queue.Keys): Go maps
// never shrink, and an empty map that once held a 100k-object list would
// otherwise keep its memory for the informer's lifetime.
const shrinkThreshold = queue.ShrinkThreshold

// NewDeltaFIFO returns an empty, open DeltaFIFO filing objects under
// keyFunc and feeding knownObjects (which may be nil).
func NewDeltaFIFO(keyFunc KeyFunc, knownObjects KeyListerGetter) *DeltaFIFO {
	return NewDeltaFIFOWithOptions(DeltaFIFOOptions{KeyFunction: keyFunc, KnownObjects: knownObjects})
}

// NewDeltaFIFOWithOptions returns an empty, open DeltaFIFO.
func NewDeltaFIFOWithOptions(opts DeltaFIFOOptions) *DeltaFIFO {
	if opts.Logger != nil {
		ignoredDeltaFIFOLogger.report(*opts.Logger)
	}
	return newDeltaFIFO(opts, queueWiring{})
}

// newDeltaFIFO returns an empty, open DeltaFIFO wired to an informer's
// cache, compaction and synced channel (w). When w.Cache is set it is the
// queue's known objects, whatever opts.KnownObjects says.
func newDeltaFIFO(opts DeltaFIFOOptions, w queueWiring) *DeltaFIFO {
	f := &DeltaFIFO{
		name:       opts.Name,
		doneCh:     make(chan struct{}),
		synced:     w.Synced,
		keys:       queue.NewKeys(initPending, resetPending),
		keyFunc:    opts.KeyFunction,
		known:      opts.KnownObjects,
		cache:      w.Cache,
		transform:  opts.Transformer,
		compaction: w.Compaction,
		metrics:    opts.Metrics,
	}
	if f.synced == nil {
		f.synced = make(chan struct{})
	}
	if f.keyFunc == nil {
		f.keyFunc = MetaNamespaceKeyFunc
	}
	if w.Cache != nil {
		f.known = w.Cache
	}
	f.cond.L = &f.mu
	f.idle.L = &f.mu
	return f
}

// KeyOf returns the key of obj: a tombstone's Key, else the key function's.
func (f *DeltaFIFO) KeyOf(obj any) (string, error) {
	if d, ok := obj.(Deltas); ok {
		if len(d) == 0 {
			return "", KeyError{obj, ErrZeroLengthDeltasObject}
		}
		obj = d.Newest().Object
	}
	if d, ok := obj.(DeletedFinalStateUnknown); ok {
		return d.Key, nil
	}
	return f.keyFunc(obj)
}

// Add queues an Added delta for obj.
func (f *DeltaFIFO) Add(obj any) error {
	key, err := f.KeyOf(obj)
	if err != nil {
		return fmt.Errorf("cache: cannot key %T: %w", obj, err)
	}
	return f.queueEvent(key, Added, obj)
}

// Update queues an Updated delta for obj.
func (f *DeltaFIFO) Update(obj any) error {
	key, err := f.KeyOf(obj)
	if err != nil {
		return fmt.Errorf("cache: cannot key %T: %w", obj, err)
	}
	return f.queueEvent(key, Updated, obj)
}

// Delete queues a Deleted delta for obj, unless its key is neither queued
// nor known to the cache (there is nothing to delete). While a batch is
// being processed the cache may be about to learn the key, so the delete is
// queued anyway (the informer ignores deletes of keys it does not hold).
func (f *DeltaFIFO) Delete(obj any) error {
	key, err := f.KeyOf(obj)
	if err != nil {
		return fmt.Errorf("cache: cannot key %T: %w", obj, err)
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
func (f *DeltaFIFO) unknownLocked(key string) bool {
	if _, queued := f.queuedLocked(key); queued || f.processing {
		return false
	}
	if f.known == nil {
		return true
	}
	_, exists, err := f.known.GetByKey(key)
	return err == nil && !exists
}

// Replace queues a Replaced delta for every object of list, then a Deleted
// tombstone for every queued or known key absent from list. The first call
// fixes the initial population that HasSynced waits for.
//
// When nothing is queued and the cache is empty (the first list), there
// is nothing to compare the list with, and Replace lets popBatch take the
// keys already queued while it queues the rest.
//
// Replace is all or nothing: every object is transformed (an unchanged
// cached one is taken as is, see DeltaFIFOOptions.KnownObjects) before
// anything is queued, and a failed transform queues nothing.
func (f *DeltaFIFO) Replace(list []any, resourceVersion string) error {
	prepared := slices.Clone(list)
	if err := f.prepareListed(prepared); err != nil {
		return err
	}
	return f.replacePrepared(prepared, resourceVersion)
}

// replaceYieldEvery is how many keys a Replace into an empty queue and
// cache queues between two releases of the lock.
const replaceYieldEvery = 256

// replaceListLocked is Replace of a list whose every object went through
// prepareListed (delta_fifo_list.go).
func (f *DeltaFIFO) replaceListLocked(list []any, _ string) error {
	f.waitIdleLocked()
	var knownKeys []string
	if f.known != nil {
		knownKeys = f.known.ListKeys()
	}
	// Nothing queued and nothing cached: no key can be missing from the
	// list, so the list need not be queued atomically.
	fresh := f.keys.Len() == 0 && len(knownKeys) == 0
	if fresh {
		f.keys.Reserve(len(list))
	}
	f.listGen++
	if err := f.queueListedLocked(list, fresh); err != nil {
		return err
	}
	if !fresh {
		if err := f.queueVanishedLocked(knownKeys); err != nil {
			return err
		}
		// Every key of this relist (and whatever was queued before it)
		// leaves the queue as one unit: see processOneBatchLocked.
		f.relistLast = f.keys.Last()
	}
	f.populated = true
	f.noteSyncedLocked()
	return nil
}

// noteSyncedLocked closes synced once the initial population is
// processed.
func (f *DeltaFIFO) noteSyncedLocked() {
	if f.populated && f.initialPopulationCount == 0 && !IsDone(closedChecker{ch: f.synced}) {
		close(f.synced)
	}
}

// queueListedLocked queues every object of the list of Replace call
// f.listGen as Replaced. Into a fresh queue it lets go of the lock now and
// then, so popBatch can apply the first objects meanwhile.
func (f *DeltaFIFO) queueListedLocked(list []any, fresh bool) error {
	for i, obj := range list {
		key, err := f.KeyOf(obj)
		if err != nil {
			return fmt.Errorf("cache: cannot key %T: %w", obj, err)
		}
		e, err := f.queueKeyedLocked(key, Replaced, obj)
		if err != nil {
			return err
		}
		e.Value.listGen = f.listGen
		f.markInitialLocked(e)
		if fresh && i%replaceYieldEvery == replaceYieldEvery-1 {
			f.mu.Unlock()
			f.mu.Lock()
		}
	}
	return nil
}

// queueVanishedLocked queues a Deleted tombstone for every key the queue
// or the cache (knownKeys) holds that the list of Replace call f.listGen
// did not: with the last state this client knew.
func (f *DeltaFIFO) queueVanishedLocked(knownKeys []string) error {
	// Queued keys first: their newest queued state is the last known one.
	// Tombstones only append to entries already queued, so the queue does
	// not change length during the loop.
	for _, e := range f.keys.Entries() {
		if e.Value.listGen == f.listGen {
			continue
		}
		last := e.Value.deltas.Newest().Object
		if d, ok := last.(DeletedFinalStateUnknown); ok {
			last = d.Obj
		}
		if err := f.queueTombstoneLocked(e.Key(), last); err != nil {
			return err
		}
	}
	// The cache has not changed since knownKeys: no batch was processed
	// meanwhile.
	for _, key := range knownKeys {
		// Every queued key is now listed or holds a tombstone.
		if _, queued := f.queuedLocked(key); queued {
			continue
		}
		last, exists, err := f.known.GetByKey(key)
		if err != nil || !exists {
			utilruntime.HandleError(fmt.Errorf("cache: key %q vanished from the cache during Replace (err %v); queueing a tombstone without object", key, err))
			last = nil
		}
		if err := f.queueTombstoneLocked(key, last); err != nil {
			return err
		}
	}
	return nil
}

// queueTombstoneLocked queues a Deleted DeletedFinalStateUnknown of key
// holding last.
func (f *DeltaFIFO) queueTombstoneLocked(key string, last any) error {
	e, err := f.queueKeyedLocked(key, Deleted, DeletedFinalStateUnknown{Key: key, Obj: last})
	if err != nil {
		return err
	}
	f.markInitialLocked(e)
	return nil
}

// markInitialLocked counts e in the initial population, which HasSynced
// waits for, while the first Replace is under way: every delta e holds
// now is a change of the initial list.
func (f *DeltaFIFO) markInitialLocked(e *fifoEntry) {
	if f.populated {
		return
	}
	if e.Value.initialDeltas == 0 {
		f.initialPopulationCount++
	}
	e.Value.initialDeltas = len(e.Value.deltas)
}

// Resync queues a Sync delta for every known object whose key is not
// already queued.
func (f *DeltaFIFO) Resync() error {
	if f.known == nil {
		return nil
	}
	f.mu.Lock()
	err := f.resyncLocked()
	f.mu.Unlock()
	return err
}

func (f *DeltaFIFO) resyncLocked() error {
	f.waitIdleLocked()
	for _, key := range f.known.ListKeys() {
		if _, queued := f.queuedLocked(key); queued {
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
		if _, err := f.queueKeyedLocked(key, Sync, obj); err != nil {
			return err
		}
	}
	return nil
}

// queueKeyedLocked appends a delta of obj, prepared already (see
// queueEvent), to key's list and returns key's entry.
func (f *DeltaFIFO) queueKeyedLocked(key string, typ DeltaType, obj any) (*fifoEntry, error) {
	e, queued := f.queuedLocked(key)
	if !queued {
		e = f.keys.Push(key)
		f.queuedTotal++
		if f.keys.Len() == 1 {
			f.cond.Signal()
		}
	}
	e.Value.deltas = append(e.Value.deltas, Delta{Type: typ, Object: obj})
	e.Value.deltas = dedupDeletes(e.Value.deltas)
	if f.metrics != nil {
		f.metrics.QueueDepth(f.keys.Len())
	}
	return e, nil
}

// queuedLocked returns key's entry when key is queued.
func (f *DeltaFIFO) queuedLocked(key string) (*fifoEntry, bool) {
	return f.keys.Queued(key)
}

// dedupDeletes merges the last two deltas when both are deletions, keeping
// the one that carries the observed final state over a tombstone.
func dedupDeletes(d Deltas) Deltas {
	n := len(d)
	if n < 2 || d[n-1].Type != Deleted || d[n-2].Type != Deleted {
		return d
	}
	if _, ok := d[n-2].Object.(DeletedFinalStateUnknown); ok {
		d[n-2] = d[n-1]
	}
	d[n-1] = Delta{}
	return d[:n-1]
}

// waitIdleLocked waits until no popped batch is being processed, so that
// the cache reflects every key no longer queued.
func (f *DeltaFIFO) waitIdleLocked() {
	for f.processing {
		f.idle.Wait()
	}
}

// popBatch waits until a key is queued or the queue is closed, then takes
// up to max keys (all queued keys when max <= 0), oldest first, and calls
// process once with them, without holding the queue's lock. The batch and
// its Deltas are valid only during the call. Replace and Resync wait for
// process to return, so process must not call them. It returns the number
// of keys processed, or ErrFIFOClosed once Close was called.
func (f *DeltaFIFO) popBatch(max int, process func(b poppedBatch)) (int, error) {
	f.popMu.Lock()
	defer f.popMu.Unlock()
	f.mu.Lock()
	defer f.mu.Unlock()
	for spin := 0; f.keys.Len() == 0 && !f.closed; spin++ {
		if spin < idleSpins {
			// Let the producer queue more before sleeping: waking a
			// sleeping consumer per key costs more than the key.
			f.mu.Unlock()
			runtime.Gosched()
			f.mu.Lock()
			continue
		}
		f.cond.Wait()
	}
	if f.closed {
		return 0, ErrFIFOClosed
	}
	return f.processOneBatchLocked(max, process), nil
}

// processOneBatchLocked pops up to max keys, or the relist unit at the
// head of the queue, and processes them with the lock released; it is
// called and returns with f.mu held.
func (f *DeltaFIFO) processOneBatchLocked(max int, process func(b poppedBatch)) int {
	n := f.keys.Len()
	if max > 0 && n > max {
		n = max
	}
	// A relist unit leaves the queue as one batch, nothing more, whatever
	// max says (unless max is 1, Pop's client-go contract): the informer
	// applies it to its cache whole before notifying handlers, so none
	// sees half of it.
	relist := f.relistLast != nil && max != 1
	if relist {
		n = f.keys.Position(f.relistLast)
	}
	// A popped entry stays known to f.keys until its batch is processed
	// (releaseBatchLocked): the compaction hint of a key of the batch is
	// its newest delta there.
	initial := 0
	for _, e := range f.keys.Pop(n) {
		if e.Value.initialDeltas > 0 {
			initial++
		}
		f.batch = append(f.batch, poppedDeltas{Key: e.Key(), Deltas: e.Value.deltas, InitialDeltas: e.Value.initialDeltas,
			IsInInitialList: e.Value.initialDeltas > 0})
		if e == f.relistLast {
			f.relistLast = nil
		}
	}
	f.processing = true
	f.mu.Unlock()
	func() {
		// Re-lock even if process panics, for the callers' unlock.
		defer f.mu.Lock()
		process(poppedBatch{Items: f.batch, Relist: relist})
	}()
	f.processing = false
	f.idle.Broadcast()
	f.initialPopulationCount -= initial
	f.processedTotal += uint64(n)
	f.noteSyncedLocked()
	f.releaseBatchLocked()
	f.runBarriersLocked()
	if f.metrics != nil {
		f.metrics.QueueDepth(f.keys.Len())
	}
	return n
}

// releaseBatchLocked empties the processed batch and releases its
// entries (queue.Keys.Release: recycled, the queue shrunk once drained).
func (f *DeltaFIFO) releaseBatchLocked() {
	clear(f.batch)
	f.batch = f.batch[:0]
	f.keys.Release()
}

// HasSynced is true once a first Replace happened and every key it queued
// has been popped and processed.
func (f *DeltaFIFO) HasSynced() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.populated && f.initialPopulationCount == 0
}

// Len returns the number of queued keys.
func (f *DeltaFIFO) Len() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.keys.Len()
}

// Close makes popBatch return ErrFIFOClosed, now and in the future.
func (f *DeltaFIFO) Close() {
	f.mu.Lock()
	defer f.mu.Unlock()
	if !f.closed {
		close(f.doneCh)
	}
	f.closed = true
	f.cond.Broadcast()
}
