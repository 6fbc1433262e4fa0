package cache

import (
	"sync"
	"time"

	"k8s.io/klog/v2"
)

// The kinds of Delta only a RealFIFO with AtomicEvents queues.
const (
	// ReplacedAll is a whole (re)list: its Object is a ReplacedAllInfo.
	ReplacedAll DeltaType = "ReplacedAll"
	// SyncAll is a resync of the whole cache: its Object is a SyncAllInfo.
	SyncAll DeltaType = "SyncAll"
	// Bookmark is a resourceVersion without objects: its Object is a
	// BookmarkInfo.
	Bookmark DeltaType = "Bookmark"
)

// ReplacedAllInfo is the Object of a ReplacedAll Delta.
//
// Compatibility code, kept for code written against client-go: the informer
// does not use it.
type ReplacedAllInfo struct {
	// ResourceVersion is the version of the list given to Replace.
	ResourceVersion string
	// Objects are the objects given to Replace, transformed.
	Objects []any
}

// BookmarkInfo is the Object of a Bookmark Delta.
//
// Compatibility code, kept for code written against client-go: the informer
// does not use it.
type BookmarkInfo struct {
	// ResourceVersion is the version given to Bookmark.
	ResourceVersion string
}

// SyncAllInfo is the Object of a SyncAll Delta.
//
// Compatibility code, kept for code written against client-go: the informer
// does not use it.
type SyncAllInfo struct{}

// ProcessBatchFunc processes several Deltas popped at once, of distinct
// objects, oldest first.
//
// Compatibility code, kept for code written against client-go: the informer
// does not use it.
type ProcessBatchFunc func(deltas []Delta, isInInitialList bool) error

// QueueWithBatch is a Queue that can also pop several keys at once.
//
// Compatibility code, kept for code written against client-go: the informer
// does not use it.
type QueueWithBatch interface {
	Queue

	// PopBatch pops queued deltas, calling processBatch with several of
	// them or processSingle with one; both must process alike.
	PopBatch(processBatch ProcessBatchFunc, processSingle PopProcessFunc) error
}

// RealFIFOOptions configures NewRealFIFOWithOptions.
//
// Compatibility code, kept for code written against client-go: the informer
// does not use it.
type RealFIFOOptions struct {
	// Logger, when not nil, is logged to instead of klog.Background(),
	// with the FIFO's name added.
	Logger *klog.Logger
	// Name overrides the name "RealFIFO", unless Identifier has a name.
	Name string
	// KeyFunction keys objects; MetaNamespaceKeyFunc by default.
	KeyFunction KeyFunc
	// KnownObjects is the consumer's cache, which Replace and Resync
	// consult; required unless AtomicEvents, forbidden with it.
	KnownObjects KeyListerGetter
	// Transformer, when not nil, transforms every object before it is
	// queued.
	Transformer TransformFunc
	// AtomicEvents makes Replace queue one ReplacedAll Delta and Resync one
	// SyncAll Delta instead of one Delta per object.
	AtomicEvents bool
	// UnlockWhileProcessing lets writers queue while Pop and PopBatch
	// process (as long as fewer than two batches are queued); requires
	// AtomicEvents.
	UnlockWhileProcessing bool
	// Identifier names the FIFO for metrics and logs; metrics are
	// published only while it is reserved.
	Identifier InformerNameAndResource
	// MetricsProvider publishes the queue's length and processing
	// latency; the provider of SetInformerMetricsProvider by default.
	MetricsProvider InformerMetricsProvider
	// EmitDeltaTypeBookmark makes Bookmark queue a Bookmark Delta;
	// requires AtomicEvents.
	EmitDeltaTypeBookmark bool
}

// realFIFOBatchSize is the most Deltas PopBatch hands out at once.
const realFIFOBatchSize = 1000

var (
	_ = QueueWithBatch(&RealFIFO{})
	_ = DoneChecker(&RealFIFO{})
)

// RealFIFO is client-go's queue of every change, in order: unlike
// DeltaFIFO it does not gather the changes of a key, so an object changed
// three times is popped three times, deleted objects included. Pop hands
// out one Delta (as a one-element Deltas), PopBatch several of distinct
// objects.
//
// Compatibility code, kept for code written against client-go: the informer
// does not use it.
type RealFIFO struct {
	// Set at construction, read-only after.
	logger                klog.Logger
	name                  string
	keyFunc               KeyFunc
	knownObjects          KeyListerGetter // nil with emitAtomicEvents
	transformer           TransformFunc
	batchSize             int
	emitAtomicEvents      bool
	unlockWhileProcessing bool
	emitDeltaTypeBookmark bool
	identifier            InformerNameAndResource
	metrics               fifoMetrics

	// lock guards every field below; cond waits on it.
	lock  sync.RWMutex
	cond  sync.Cond
	items []Delta
	// synced is closed, once (syncedClosed), when the first batch was
	// processed; populated is set by the first write, and
	// initialPopulationCount counts the Deltas of the first Replace (when
	// it was the first write) still to process.
	synced                 chan struct{}
	syncedClosed           bool
	populated              bool
	initialPopulationCount int
	closed                 bool
}

// NewRealFIFO returns a RealFIFO keying with keyFunc, consulting
// knownObjects and transforming with transformer.
//
// Deprecated: use NewRealFIFOWithOptions (as client-go says).
func NewRealFIFO(keyFunc KeyFunc, knownObjects KeyListerGetter, transformer TransformFunc) *RealFIFO {
	return NewRealFIFOWithOptions(RealFIFOOptions{KeyFunction: keyFunc, KnownObjects: knownObjects, Transformer: transformer})
}

// NewRealFIFOWithOptions returns an empty RealFIFO configured by opts. It
// panics, with client-go's messages, on options that do not go together.
func NewRealFIFOWithOptions(opts RealFIFOOptions) *RealFIFO {
	checkRealFIFOOptions(opts)
	if opts.KeyFunction == nil {
		opts.KeyFunction = MetaNamespaceKeyFunc
	}
	f := &RealFIFO{
		logger:                klog.Background(),
		name:                  "RealFIFO",
		keyFunc:               opts.KeyFunction,
		knownObjects:          opts.KnownObjects,
		transformer:           opts.Transformer,
		batchSize:             realFIFOBatchSize,
		emitAtomicEvents:      opts.AtomicEvents,
		unlockWhileProcessing: opts.UnlockWhileProcessing,
		emitDeltaTypeBookmark: opts.EmitDeltaTypeBookmark,
		identifier:            opts.Identifier,
		metrics:               newFIFOMetrics(opts.Identifier, opts.MetricsProvider),
		items:                 make([]Delta, 0, 10),
		synced:                make(chan struct{}),
	}
	if opts.Logger != nil {
		f.logger = *opts.Logger
	}
	if opts.Name != "" {
		f.name = opts.Name
	}
	if name := opts.Identifier.Name(); name != "" {
		f.name = name
	}
	f.logger = klog.LoggerWithName(f.logger, f.name)
	f.cond.L = &f.lock
	return f
}

func checkRealFIFOOptions(opts RealFIFOOptions) {
	switch {
	case opts.AtomicEvents && opts.KnownObjects != nil:
		panic("coding error: knownObjects must not be provided when AtomicEvents is true")
	case opts.AtomicEvents:
	case opts.UnlockWhileProcessing:
		panic("coding error: UnlockWhileProcessing must be false when AtomicEvents is false")
	case opts.KnownObjects == nil:
		panic("coding error: knownObjects must be provided when AtomicEvents is false")
	case opts.EmitDeltaTypeBookmark:
		panic("coding error: EmitDeltaTypeBookmark must be false when AtomicEvents is false")
	}
}

// fifoMetrics publishes a RealFIFO's queue length and processing latency;
// its zero value publishes nothing. Read-only after construction.
type fifoMetrics struct {
	queued  GaugeMetric
	latency HistogramMetric
}

func newFIFOMetrics(id InformerNameAndResource, provider InformerMetricsProvider) fifoMetrics {
	if provider == nil {
		globalInformerMetrics.once.Do(func() {}) // freeze the global provider
		provider = globalInformerMetrics.provider
	}
	if provider == nil || !id.Reserved() {
		return fifoMetrics{}
	}
	return fifoMetrics{queued: provider.NewQueuedItemMetric(id), latency: provider.NewProcessingLatencyMetric(id)}
}

func (m fifoMetrics) setQueued(n int) {
	if m.queued != nil {
		m.queued.Set(float64(n))
	}
}

func (m fifoMetrics) observeSince(start time.Time) {
	if m.latency != nil {
		m.latency.Observe(time.Since(start).Seconds())
	}
}

// Close makes Pop and PopBatch return ErrFIFOClosed once the queue is
// empty.
func (f *RealFIFO) Close() {
	f.lock.Lock()
	defer f.lock.Unlock()
	f.closed = true
	f.cond.Broadcast()
}

// IsClosed reports whether Close was called.
func (f *RealFIFO) IsClosed() bool {
	f.lock.Lock()
	defer f.lock.Unlock()
	return f.closed
}

// HasSynced reports whether an Add, Update or Delete came first, or the
// Deltas of the first Replace have all been processed.
func (f *RealFIFO) HasSynced() bool {
	f.lock.Lock()
	defer f.lock.Unlock()
	return f.syncedClosed
}

// HasSyncedChecker returns f, done when HasSynced becomes true.
func (f *RealFIFO) HasSyncedChecker() DoneChecker { return f }

// Name is the FIFO's name.
func (f *RealFIFO) Name() string { return f.name }

// Done is closed when HasSynced becomes true.
func (f *RealFIFO) Done() <-chan struct{} { return f.synced }

// Transformer returns the FIFO's transformer.
func (f *RealFIFO) Transformer() TransformFunc { return f.transformer }

// checkSyncedLocked closes synced once the first batch is processed.
func (f *RealFIFO) checkSyncedLocked() {
	if f.populated && f.initialPopulationCount == 0 && !f.syncedClosed {
		f.syncedClosed = true
		close(f.synced)
	}
}

// keyOf is the FIFO's key function, also keying Deltas (by their newest
// object), a Delta and DeletedFinalStateUnknown tombstones.
func (f *RealFIFO) keyOf(obj any) (string, error) {
	if d, ok := obj.(Deltas); ok {
		if len(d) == 0 {
			return "", KeyError{obj, ErrZeroLengthDeltasObject}
		}
		obj = d.Newest().Object
	}
	if d, ok := obj.(Delta); ok {
		obj = d.Object
	}
	if d, ok := obj.(DeletedFinalStateUnknown); ok {
		return d.Key, nil
	}
	return f.keyFunc(obj)
}

// appendLocked queues a Delta of obj, transformed unless skipTransform or
// obj is a tombstone. It fails with a KeyError when obj has no key.
func (f *RealFIFO) appendLocked(t DeltaType, skipTransform bool, obj any) error {
	if _, err := f.keyOf(obj); err != nil {
		return KeyError{obj, err}
	}
	if _, tombstone := obj.(DeletedFinalStateUnknown); f.transformer != nil && !tombstone && !skipTransform {
		var err error
		if obj, err = f.transformer(obj); err != nil {
			return err
		}
	}
	f.pushLocked(Delta{Type: t, Object: obj})
	return nil
}

// pushLocked queues d and wakes the consumer.
func (f *RealFIFO) pushLocked(d Delta) {
	f.items = append(f.items, d)
	f.cond.Broadcast()
	f.metrics.setQueued(len(f.items))
}

// write queues a Delta of type t of obj, counting as the first write.
func (f *RealFIFO) write(t DeltaType, obj any) error {
	f.lock.Lock()
	defer f.lock.Unlock()
	f.populated = true
	f.checkSyncedLocked()
	return f.appendLocked(t, false, obj)
}

// Add queues an Added Delta of obj.
func (f *RealFIFO) Add(obj any) error { return f.write(Added, obj) }

// Update queues an Updated Delta of obj.
func (f *RealFIFO) Update(obj any) error { return f.write(Updated, obj) }

// Delete queues a Deleted Delta of obj.
func (f *RealFIFO) Delete(obj any) error { return f.write(Deleted, obj) }

// Bookmark queues a Bookmark Delta when the FIFO emits them, and does
// nothing otherwise.
func (f *RealFIFO) Bookmark(resourceVersion string) error {
	if !f.emitDeltaTypeBookmark {
		return nil
	}
	f.lock.Lock()
	defer f.lock.Unlock()
	f.items = append(f.items, Delta{Type: Bookmark, Object: BookmarkInfo{ResourceVersion: resourceVersion}})
	f.cond.Broadcast()
	return nil
}
