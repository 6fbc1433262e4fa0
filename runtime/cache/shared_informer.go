package cache

import (
	"context"
	"fmt"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/klog/v2"
	"k8s.io/utils/clock"

	"github.com/informer-gen/informer-gen/runtime/cache/internal/controller"
	"github.com/informer-gen/informer-gen/runtime/cache/internal/delivery"
	"github.com/informer-gen/informer-gen/runtime/cache/internal/mutation"
	"github.com/informer-gen/informer-gen/runtime/compact"
)

// SharedIndexInformerOptions configures NewSharedIndexInformerWithOptions.
type SharedIndexInformerOptions struct {
	// ResyncPeriod is the default resync period of handlers; 0 disables
	// resync for handlers that do not ask for their own period.
	ResyncPeriod time.Duration
	// Indexers are installed on the cache at creation.
	Indexers Indexers
	// ObjectDescription names the informer in logs and metrics; the Go type
	// of the example object by default.
	ObjectDescription string
	// Identifier names the informer for InformerMetricsProvider (see
	// InformerName.WithResource); when ObjectDescription is empty, a
	// non-empty Identifier also names it in logs and Metrics.
	Identifier InformerNameAndResource
	// InformerMetricsProvider publishes client-go's informer metrics for a
	// reserved Identifier; nil uses the provider set with
	// SetInformerMetricsProvider, if any.
	InformerMetricsProvider InformerMetricsProvider
	// Metrics receives the informer's measurements; nil disables them.
	Metrics Metrics
	// PageSize is the page size of the reflector's lists; 0 lets the
	// reflector choose.
	PageSize int64
	// UseWatchList makes the reflector stream the initial list over a
	// watch (sendInitialEvents) when the server supports it; it lists
	// otherwise. A client that cannot stream is never waited on: one that
	// ClientCannotStreamLists recognises (through
	// ToListWatcherWithWatchListSemantics, as generated informers make
	// their ListWatch) is never asked to, and an in-process watch (any but
	// a *watch.StreamWatcher from a REST client: fakes, hand-built
	// ListWatches) that delivers nothing for 0.5s before the
	// initial-events-end bookmark is taken to ignore sendInitialEvents, and
	// the informer lists from then on. Generated informers and factories
	// set it by default.
	UseWatchList bool
	// DetectCacheMutations turns the cache mutation detector on; it is
	// also on when KUBE_CACHE_MUTATION_DETECTOR=true.
	DetectCacheMutations bool
	// Compact compacts every object entering the cache, after the
	// transform: its strings are interned and its parts that repeat across
	// objects (resource maps, env, probes, labels, ...) replaced by one
	// canonical copy each, in compact.Default() (package
	// runtime/compact). Cached objects compare equal to the decoded ones,
	// but parts are shared between objects, so a caller that mutates a
	// cached object (which the informer contract forbids) changes others
	// too; in test binaries the mutation detector is on while Compact is
	// (unless KUBE_CACHE_MUTATION_DETECTOR=false). Off for informers made
	// with this package's constructors, as client-go's; generated factories
	// turn it on (factory.WithoutCompaction and ByObject.DisableCompaction
	// turn it off), passing it to the constructors of the informers they
	// make. Fixed at construction.
	Compact bool
	// Compactor is the compaction Compact turns on: it compacts obj in
	// place, old being the compact version obj replaces (nil for none).
	// informer-gen's generated informers set it to their kind's generated
	// walks (compact.TransformWith); nil means the walks registered for
	// the example object's type in compact.Default() (compact.Register,
	// RegisterUpdate), else its reflective walk (compact.For).
	Compactor func(obj, old any)
	// Decoded, when set, is shared with the decoder of the informer's
	// watch (runtime/jsonwatch's and runtime/protowatch's Watcher): while
	// the informer compacts with no transform but StripManagedFields, the
	// decoder compacts each object it decodes with
	// the informer's compaction and queue hint, and the informer does not
	// compact it again (compact.Decoded; decoded_compaction.go).
	Decoded *compact.Decoded
	// CompactionGuard is the guard of the canonical copies this
	// informer's compacted objects share (compaction_guard.go): while the
	// informer runs with Compact on, it samples them for mutations, and
	// when one is found the informer relists to restore its objects
	// holding it. nil: compact.DefaultGuard(), the guard of
	// compact.Default(), where informers compact.
	CompactionGuard *compact.Guard
	// DisableCompactionGuard turns the compaction guard off. It is on, with
	// Compact, outside test binaries (where the mutation detector is on
	// instead); INFORMER_GEN_COMPACTION_GUARD=true or =false decides in any
	// binary, unless this is set.
	DisableCompactionGuard bool
	// Clock drives resync scheduling; the real clock by default.
	Clock clock.WithTicker
	// Backoff, when set, replaces the back-off of the informer's
	// reflector between failed lists and watches (ReflectorOptions.Backoff,
	// client-go's meaning); nil keeps the default of internal/reflector/backoff.go. A caller
	// that polls the server at a fixed period anyway (shard/ring's Lease
	// informer) caps it at that period, so that its view comes back as
	// soon as its own writes do after an outage.
	Backoff *wait.Backoff
	// Shard, when set, makes the informer hold only the shard the source
	// gives it, which may change while it runs (see Shard and
	// ShardSubscription; SetShard sets it after construction). The
	// informer subscribes when it starts and closes its subscription when
	// it stops.
	Shard ShardSource
}

// NewSharedInformer returns a SharedInformer for the objects lw serves,
// with the default resync period defaultResync.
func NewSharedInformer(lw ListerWatcher, exampleObject runtime.Object, defaultResync time.Duration) SharedInformer {
	return NewSharedIndexInformer(lw, exampleObject, defaultResync, Indexers{})
}

// NewSharedIndexInformer returns a SharedIndexInformer for the objects lw
// serves, with the default resync period defaultResync and indexers.
func NewSharedIndexInformer(lw ListerWatcher, exampleObject runtime.Object, defaultResync time.Duration, indexers Indexers) SharedIndexInformer {
	return NewSharedIndexInformerWithOptions(lw, exampleObject, SharedIndexInformerOptions{ResyncPeriod: defaultResync, Indexers: indexers})
}

// NewSharedIndexInformerWithOptions returns a SharedIndexInformer for the
// objects lw serves, all of exampleObject's type.
func NewSharedIndexInformerWithOptions(lw ListerWatcher, exampleObject runtime.Object, opts SharedIndexInformerOptions) SharedIndexInformer {
	c := opts.Clock
	if c == nil {
		c = clock.RealClock{}
	}
	name := opts.ObjectDescription
	if name == "" && opts.Identifier.Name() != "" {
		name = opts.Identifier.Name() + "/" + opts.Identifier.GroupVersionResource().String()
	}
	if name == "" {
		name = fmt.Sprintf("%T", exampleObject)
	}
	opts.Metrics = combineMetrics(opts.Metrics, newInformerProviderMetrics(opts.Identifier, opts.InformerMetricsProvider))
	s := &sharedIndexInformer{
		indexer:           newThreadSafeStore(DeletionHandlingMetaNamespaceKeyFunc, opts.Indexers),
		lw:                lw,
		exampleObject:     exampleObject,
		name:              name,
		opts:              opts,
		clock:             c,
		processor:         delivery.NewProcessor(c),
		defaultResync:     opts.ResyncPeriod,
		resyncCheckPeriod: opts.ResyncPeriod,
		fastCapacity:      delivery.DefaultFastCapacity,
		stoppedCh:         make(chan struct{}),
		syncedCh:          make(chan struct{}),
		shard:             opts.Shard,
	}
	s.compact = opts.Compact
	s.testChecks = testChecks()
	if mutationDetectorWanted(opts.DetectCacheMutations, opts.Compact, s.testChecks) {
		s.detector = newMutationDetector(name)
	}
	return s
}

// sharedIndexInformer implements SharedIndexInformer: a Reflector feeds a
// DeltaFIFO; one goroutine, the controller's (internal/controller), pops
// batches from it, applies them to the indexer and hands notifications to
// the listeners, each of which runs its handler on its own goroutine. It
// keeps client-go's declarations and the lifecycle; the engine's parts
// are built, with everything they use, when it runs (newPipelineLocked).
type sharedIndexInformer struct {
	// indexer is the cache. The informer writes it through its keyed path
	// with the keys its DeltaFIFO computed (MetaNamespaceKeyFunc, which
	// agrees with the indexer's key function on every object).
	indexer       *threadSafeStore
	lw            ListerWatcher
	exampleObject runtime.Object
	name          string
	opts          SharedIndexInformerOptions
	clock         clock.WithTicker
	processor     *delivery.Processor
	detector      *mutation.Detector
	fastCapacity  int // per-listener in-order buffer; tests lower it
	// testChecks is testChecks() at construction (test_checks.go):
	// whether handlers are checked for mutations and a compacting
	// informer runs the mutation detector. Immutable.
	testChecks bool
	// compact is opts.Compact: whether the informer compacts what it
	// caches. Immutable.
	compact bool

	// mu guards the configuration and lifecycle fields below.
	mu                sync.Mutex
	started, stopped  bool
	defaultResync     time.Duration
	resyncCheckPeriod time.Duration
	transform         TransformFunc
	watchErrorHandler WatchErrorHandlerWithContext
	shard             ShardSource
	// waitingCheckers are handler checkers asked for before Run; Run
	// starts their waits (registrationChecker.wait).
	waitingCheckers []*registrationChecker
	// controller applies the queue's batches; set by Run (with started),
	// nil before.
	controller *controller.Controller

	// lastErr is the reflector's last list or watch failure (SyncError).
	lastErr   atomic.Pointer[InformerSyncError]
	fifo      atomic.Pointer[DeltaFIFO]
	reflector atomic.Pointer[Reflector]
	isStopped atomic.Bool
	stoppedCh chan struct{} // closed when RunWithContext returns
	syncedCh  chan struct{} // the DeltaFIFO's synced: closed once its initial population is applied
	// syncErrorSubs are the functions AfterSyncError registered.
	syncErrorSubs syncErrorSubscribers
}

var _ SharedIndexInformer = (*sharedIndexInformer)(nil)

// Run runs the informer until stopCh is closed; see SharedInformer.Run.
func (s *sharedIndexInformer) Run(stopCh <-chan struct{}) {
	s.RunWithContext(wait.ContextForChannel(stopCh))
}

// RunWithContext lists and watches until ctx is done; see
// SharedInformer.RunWithContext.
func (s *sharedIndexInformer) RunWithContext(ctx context.Context) {
	s.mu.Lock()
	if s.started {
		s.mu.Unlock()
		return
	}
	s.started = true
	var sub ShardSubscription
	if s.shard != nil {
		sub = s.shard.Subscribe(s.name)
		defer sub.Close()
	}
	fifo, ctrl, r := s.newPipelineLocked(sub)
	releaseGuard := s.holdGuardLocked(r)
	waiting := s.waitingCheckers
	s.waitingCheckers = nil
	s.mu.Unlock()
	for _, c := range waiting {
		go c.wait()
	}

	var wg sync.WaitGroup
	run := func(f func()) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			f()
		}()
	}
	if s.detector != nil {
		run(func() { s.detector.Run(ctx) })
	}
	run(func() { s.processor.Run(ctx) })
	run(func() { r.RunWithContext(ctx) })
	run(func() {
		stop := context.AfterFunc(ctx, fifo.Close)
		defer stop()
		ctrl.Run()
	})
	wg.Wait()
	releaseGuard()

	s.mu.Lock()
	s.stopped = true
	s.mu.Unlock()
	if s.detector != nil {
		s.detector.Check()
	}
	s.isStopped.Store(true)
	close(s.stoppedCh)
}

// newPipelineLocked makes the DeltaFIFO, the Reflector and the controller
// of a run, with the configuration s.mu guards, and publishes them.
func (s *sharedIndexInformer) newPipelineLocked(sub ShardSubscription) (*DeltaFIFO, *controller.Controller, *Reflector) {
	// The queue closes the informer's synced channel itself when its
	// initial population is applied: nothing forwards the signal. An
	// informer runs once, so one queue ever holds it.
	compaction, enableDecoded := s.decodedCompactionLocked(s.compactionLocked())
	fifo := newDeltaFIFO(DeltaFIFOOptions{
		KeyFunction:  MetaNamespaceKeyFunc,
		KnownObjects: s.indexer,
		Transformer:  s.transform,
		Metrics:      s.opts.Metrics,
	}, queueWiring{Cache: s.indexer, Compaction: compaction, Synced: s.syncedCh})
	enableDecoded(fifo)
	// The reflector writes to the queue's sink, handed over here: it never
	// asks its store what it is.
	r := newReflector(s.lw, nil, fifo.sink(), ReflectorOptions{
		Name:              s.name,
		ExpectedType:      s.exampleObject,
		ResyncPeriod:      s.resyncCheckPeriod,
		ShouldResync:      s.processor.ShouldResync,
		PageSize:          s.opts.PageSize,
		UseWatchList:      s.opts.UseWatchList,
		WatchErrorHandler: s.recordingErrors(s.watchErrorHandler),
		Metrics:           s.opts.Metrics,
		Clock:             s.clock,
		Shard:             sub,
		Backoff:           s.opts.Backoff,
	})
	s.controller = s.newControllerLocked(fifo)
	s.fifo.Store(fifo)
	s.reflector.Store(r)
	return fifo, s.controller, r
}

// newControllerLocked makes the controller that applies fifo's batches
// to the cache and the listeners, with the mutation detector as its
// observer when it runs.
func (s *sharedIndexInformer) newControllerLocked(fifo *DeltaFIFO) *controller.Controller {
	cfg := controller.Config{
		Name:      s.name,
		Queue:     fifo.q,
		Cache:     s.indexer.Indexed,
		Processor: s.processor,
		Unchanged: unchangedRelist,
	}
	if s.detector != nil {
		cfg.Observer = s.detector
	}
	if s.opts.Metrics != nil {
		cfg.Metrics = s.opts.Metrics
	}
	return controller.New(cfg)
}

// unchangedRelist is the relist predicate of the informer's queue and
// controller: relisted obj is the cached old, unchanged
// (controller.SameVersion), and old was not found holding a mutated
// shared part (tainted, compaction_guard.go).
func unchangedRelist(old, obj any) bool {
	return controller.SameVersion(old, obj) && !tainted.Has(old)
}

// AddEventHandler registers handler with the default resync period.
func (s *sharedIndexInformer) AddEventHandler(handler ResourceEventHandler) (ResourceEventHandlerRegistration, error) {
	return s.AddEventHandlerWithOptions(handler, HandlerOptions{})
}

// AddEventHandlerWithResyncPeriod registers handler with its own resync
// period.
func (s *sharedIndexInformer) AddEventHandlerWithResyncPeriod(handler ResourceEventHandler, resyncPeriod time.Duration) (ResourceEventHandlerRegistration, error) {
	return s.AddEventHandlerWithOptions(handler, HandlerOptions{ResyncPeriod: &resyncPeriod})
}

// handlerResyncLocked is the resync period of a handler added with
// options, as client-go decides it: the informer's default unless the
// options set one, raised to delivery.MinResyncPeriod, and to the check period
// of a running informer; a shorter one before Run lowers the check period.
func (s *sharedIndexInformer) handlerResyncLocked(options HandlerOptions) time.Duration {
	logger := klog.Background()
	if options.Logger != nil {
		logger = *options.Logger
	}
	resyncPeriod := s.defaultResync
	if options.ResyncPeriod != nil {
		resyncPeriod = *options.ResyncPeriod
	}
	if resyncPeriod <= 0 {
		return resyncPeriod
	}
	if s.started && s.resyncCheckPeriod == 0 {
		// As client-go: a running informer that was started without
		// resync never checks for due resyncs.
		logger.Info("Warning: handler asks for a resync period but the informer was started without resync; the handler gets no resync",
			"informer", s.name, "handler", options.Name, "resyncPeriod", resyncPeriod)
	}
	if resyncPeriod < delivery.MinResyncPeriod {
		logger.V(2).Info("Resync period too small, using the minimum", "informer", s.name, "resyncPeriod", resyncPeriod, "minimumResyncPeriod", delivery.MinResyncPeriod)
		resyncPeriod = delivery.MinResyncPeriod
	}
	switch {
	case s.started && resyncPeriod < s.resyncCheckPeriod:
		logger.V(2).Info("Resync period shorter than the running informer's check period, using the check period", "informer", s.name, "resyncPeriod", resyncPeriod, "resyncCheckPeriod", s.resyncCheckPeriod)
		resyncPeriod = s.resyncCheckPeriod
	case !s.started && (resyncPeriod < s.resyncCheckPeriod || s.resyncCheckPeriod == 0):
		s.resyncCheckPeriod = resyncPeriod
		s.processor.CheckPeriodChanged(resyncPeriod)
	}
	return resyncPeriod
}

// AddEventHandlerWithOptions registers handler; see SharedInformer.
func (s *sharedIndexInformer) AddEventHandlerWithOptions(handler ResourceEventHandler, options HandlerOptions) (ResourceEventHandlerRegistration, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.stopped {
		return nil, fmt.Errorf("cache %s: handler %q not added: %w", s.name, options.Name, delivery.ErrStopped)
	}
	resyncPeriod := s.handlerResyncLocked(options)
	cfg := delivery.ListenerConfig{
		Handler:      handler,
		Name:         options.Name,
		FastCapacity: s.fastCapacity,
		Metrics:      s.opts.Metrics,
		HasKey:       objectHasKey,
		LatestOnly:   options.LatestOnly,
		Resync:       resyncPeriod,
	}
	if s.detector != nil || s.testChecks {
		cfg.AfterCall = s.handlerMutationCheck(options.Name, debug.Stack())
	}
	l := delivery.NewListener(cfg)
	reg := &registration{informer: s, listener: l}
	if !s.started {
		if err := s.processor.Add(l, s.resyncCheckPeriod); err != nil {
			return nil, fmt.Errorf("cache %s: handler %q not added: %w", s.name, options.Name, err)
		}
		return reg, nil
	}
	// Join a running informer: with deltas blocked, the handler gets the
	// current content as its initial list, then deltas flow again.
	if err := s.controller.Join(l, s.resyncCheckPeriod); err != nil {
		return nil, fmt.Errorf("cache %s: handler %q not added: %w", s.name, options.Name, err)
	}
	return reg, nil
}

// handlerMutationCheck returns what a listener calls after its handler
// returned from an add, update or resync of obj: with the mutation
// detector on, the object cached under obj's key is compared with its copy
// at once, so that a handler that mutates it is named with the stack that
// registered it.
func (s *sharedIndexInformer) handlerMutationCheck(name string, registered []byte) func(obj any) {
	return func(obj any) {
		d := s.detector
		if d == nil {
			return
		}
		if key, err := MetaNamespaceKeyFunc(obj); err == nil {
			d.CheckHandler(key, name, registered)
		}
	}
}

// RemoveEventHandler stops deliveries to the handler of handle.
func (s *sharedIndexInformer) RemoveEventHandler(handle ResourceEventHandlerRegistration) error {
	reg, ok := handle.(*registration)
	if !ok || reg.informer != s {
		return fmt.Errorf("cache %s: registration %v does not belong to this informer", s.name, handle)
	}
	s.processor.Remove(reg.listener)
	return nil
}

// GetStore returns the cache.
func (s *sharedIndexInformer) GetStore() Store { return s.indexer }

// GetIndexer returns the cache with its indexes.
func (s *sharedIndexInformer) GetIndexer() Indexer { return s.indexer }

// AddIndexers installs more indexes on the cache, before or after Run.
func (s *sharedIndexInformer) AddIndexers(indexers Indexers) error {
	return s.indexer.AddIndexers(indexers)
}

// HasSynced is true once the first list has been applied to the cache.
func (s *sharedIndexInformer) HasSynced() bool {
	fifo := s.fifo.Load()
	return fifo != nil && fifo.HasSynced()
}

// LastSyncResourceVersion is the reflector's last synced resourceVersion,
// empty before Run.
func (s *sharedIndexInformer) LastSyncResourceVersion() string {
	r := s.reflector.Load()
	if r == nil {
		return ""
	}
	return r.LastSyncResourceVersion()
}

// SetWatchErrorHandler installs handler; it fails once Run started.
func (s *sharedIndexInformer) SetWatchErrorHandler(handler WatchErrorHandler) error {
	return s.SetWatchErrorHandlerWithContext(func(_ context.Context, r *Reflector, err error) { handler(r, err) })
}

// SetWatchErrorHandlerWithContext installs handler; it fails once Run
// started.
func (s *sharedIndexInformer) SetWatchErrorHandlerWithContext(handler WatchErrorHandlerWithContext) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.started {
		return fmt.Errorf("cache %s: informer already started", s.name)
	}
	s.watchErrorHandler = handler
	return nil
}

// GetController returns the informer's Controller view.
func (s *sharedIndexInformer) GetController() Controller { return informerController{s} }

// HasSyncedChecker returns a DoneChecker for HasSynced.
func (s *sharedIndexInformer) HasSyncedChecker() DoneChecker {
	return closedChecker{name: s.name, ch: s.syncedCh}
}

// SetTransform installs transform; it fails once Run started.
func (s *sharedIndexInformer) SetTransform(transform TransformFunc) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.started {
		return fmt.Errorf("cache %s: informer already started", s.name)
	}
	s.transform = transform
	return nil
}

// SetShard makes the informer hold only the shard src gives it; it fails
// once Run started. See SharedIndexInformerOptions.Shard.
func (s *sharedIndexInformer) SetShard(src ShardSource) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.started {
		return fmt.Errorf("cache %s: informer already started", s.name)
	}
	s.shard = src
	return nil
}

var _ ShardSetter = (*sharedIndexInformer)(nil)

// compactionLocked is the queue's compactor (queue.New's): nil
// unless it is on.
func (s *sharedIndexInformer) compactionLocked() func(obj, hint any) {
	if !s.compact {
		return nil
	}
	if s.opts.Compactor != nil {
		return s.opts.Compactor
	}
	return compact.Default().TransformUpdate(s.exampleObject)
}

// IsStopped is true once Run has returned.
func (s *sharedIndexInformer) IsStopped() bool { return s.isStopped.Load() }
