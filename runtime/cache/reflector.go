package cache

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"github.com/informer-gen/informer-gen/runtime/cache/internal/protocol"
	"github.com/informer-gen/informer-gen/runtime/cache/internal/queue"
	"io"
	"math/rand/v2"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	utilnet "k8s.io/apimachinery/pkg/util/net"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/klog/v2"
	"k8s.io/utils/clock"
)

// ReflectorStore is what a Reflector writes into (a DeltaFIFO or a Store).
// The Reflector calls it from its own goroutine only, except Resync, which
// it calls from its resync goroutine: implementations must be safe for
// concurrent use.
type ReflectorStore interface {
	Add(obj any) error
	Update(obj any) error
	Delete(obj any) error
	Replace(list []any, resourceVersion string) error
	Resync() error
}

// ReflectorBookmarkStore is an optional interface that allows a store to
// be informed of bookmark events received by the reflector: Bookmark is
// called with each bookmark's resourceVersion on a watch (not on the
// bookmarks of a watch list's initial events, which go to a temporary
// store, as in client-go). RealFIFO implements it. An error is logged.
type ReflectorBookmarkStore interface {
	Bookmark(resourceVersion string) error
}

// TransformingStore is an optional interface that can be implemented by
// the provided store. If implemented on the provided store reflector will
// use the same transformer in its internal stores: the objects of a watch
// list go through Transformer() on their way into the temporary store the
// list is collected in, before Replace hands them to the store.
// DeltaFIFO and RealFIFO implement it.
type TransformingStore interface {
	ReflectorStore
	Transformer() TransformFunc
}

// ResourceVersionUpdater is optionally implemented by a ReflectorStore that
// wants to track the reflector's resourceVersion: the Reflector calls it
// each time LastSyncResourceVersion moves on a watch event (bookmarks
// included; not during the replay of a watch from "" or "0"), and at the
// end of a watch list. It calls it from its own goroutine, after the event
// is otherwise handled.
type ResourceVersionUpdater interface {
	UpdateResourceVersion(resourceVersion string)
}

const (
	defaultPageSize        = 500
	defaultMinWatchTimeout = 5 * time.Minute
	// defaultWatchListProgressTimeout is ReflectorOptions'
	// WatchListProgressTimeout default: a server starts a watch list's
	// initial events, or its bookmark for an empty collection, within
	// a second or two.
	defaultWatchListProgressTimeout = 10 * time.Second
	// veryShortWatch is how quickly a watch must close to be re-opened
	// only after a back-off (so a server that closes every watch at once is
	// not re-watched in a hot loop); one that delivered nothing also counts
	// as a failure.
	veryShortWatch = time.Second
)

// ReflectorOptions configures a Reflector. The zero value of every field is
// a sensible default.
type ReflectorOptions struct {
	// Name identifies the reflector in logs; default derived from
	// ExpectedType.
	Name string
	// ExpectedType, when set, is the Go type of the objects to accept;
	// objects of another type are logged and dropped.
	ExpectedType runtime.Object
	// ResyncPeriod is how often store.Resync() is called (when ShouldResync
	// is nil or returns true); 0 means never.
	ResyncPeriod time.Duration
	// ShouldResync, when set, is asked before each periodic resync.
	ShouldResync func() bool
	// PageSize is the page size of lists; 0 means 500. A ListWatch with
	// DisableChunking is never paged.
	PageSize int64
	// UseWatchList streams the initial list with a watch
	// (sendInitialEvents) and falls back to a plain LIST when the server
	// does not support it.
	UseWatchList bool
	// WatchListTimeout bounds how long a streamed initial list may take
	// before the end-of-initial-events bookmark arrives; past it the
	// reflector falls back to LIST. Default MinWatchTimeout.
	WatchListTimeout time.Duration
	// WatchListProgressTimeout bounds how long a streamed initial list
	// from a server may go without any event before the
	// end-of-initial-events bookmark; past it that attempt falls back to
	// LIST, and after three such stalls in a row watch lists are off for
	// 30 minutes (internal/protocol/state.go). Default 10 seconds, at most
	// IdleTimeout.
	WatchListProgressTimeout time.Duration
	// WatchErrorHandler is called on every list or watch failure; the
	// default is DefaultWatchErrorHandler.
	WatchErrorHandler WatchErrorHandlerWithContext
	// Metrics, when set, receives list and watch measurements.
	Metrics Metrics
	// Clock is the time source; nil means the real clock. A clock that does
	// not implement clock.WithTicker gets its tickers from the real clock.
	Clock clock.Clock
	// Logger, when set, is used instead of klog.FromContext of Run's
	// context.
	Logger *klog.Logger
	// TypeDescription names the type of the objects in logs; default
	// derived from the expected type.
	TypeDescription string
	// Backoff, when set, replaces the reflector's back-off between
	// failures (backoff.go), as in client-go: Duration growing by Factor
	// per failure up to Cap, each delay plus up to Jitter times itself.
	// Steps is not used: the reflector retries for as long as it runs
	// (setting it is logged once at V(2)).
	// The count of failures starts over after a healthy watch, as with
	// the default.
	Backoff *wait.Backoff
	// MinWatchTimeout is the minimum server-side watch timeout; each watch
	// asks for a random timeout in [MinWatchTimeout, 2*MinWatchTimeout).
	// Default 5 minutes.
	MinWatchTimeout time.Duration
	// IdleTimeout closes and restarts a watch that delivered nothing, not
	// even a bookmark, for this long: it protects from half-open
	// connections. Default 2*MinWatchTimeout + 1 minute, just past the
	// longest timeout the server was asked to honour, so a healthy but
	// quiet watch is never cut short by the client.
	IdleTimeout time.Duration
	// Shard, when set, limits the reflector to a shard of the collection
	// (shard.go): every list, watch list and watch carries the selector
	// of the shard Current gives at the relist, every object outside it
	// is dropped (whether or not the server applied the selector), and
	// when Current's channel closes the reflector ends its watch and
	// relists under the new shard, calling Applied once the store holds
	// the relist. The caller closes the subscription after Run returns.
	Shard ShardSubscription
}

// Reflector keeps a ReflectorStore in sync with the server: it lists, then
// watches from the list's resourceVersion, relisting when the watch can no
// longer resume. Create one with NewReflectorWithOptions and start it with
// RunWithContext.
//
// The exported fields exist for client-go compatibility; set them, if at
// all, before running the reflector.
type Reflector struct {
	// ShouldResync, when set, replaces ReflectorOptions.ShouldResync.
	ShouldResync func() bool
	// WatchListPageSize, when positive, replaces ReflectorOptions.PageSize.
	WatchListPageSize int64
	// MaxInternalErrorRetryDuration is accepted for client-go
	// compatibility and not used: every watch failure is retried with
	// back-off. Setting it is logged once at V(2).
	MaxInternalErrorRetryDuration time.Duration

	name            string
	typeDescription string
	lw              ListerWatcherWithContext
	// sink is where the reflector writes (queue.Sink): given by the
	// informer (its queue's), or chosen from the store by
	// NewReflectorWithOptions. Immutable after construction.
	sink         queue.Sink
	expectedType reflect.Type
	opts         ReflectorOptions
	clock        clock.WithTicker
	onError      func(ctx context.Context, err error)
	chunking     bool

	// backoff is immutable after construction.
	backoff backoff
	// retryingAtOnce is set while onError is told of a failure the next
	// step follows without a back-off (a watch list falling back to a
	// list). Owned by the Run goroutine.
	retryingAtOnce bool
	// paginatedResult is owned by the Run goroutine: the first list came
	// back paginated, so later ones page too.
	paginatedResult bool

	// shard is the shard of the last list or watch list (nil without
	// ReflectorOptions.Shard), shardChanged the channel Current gave with
	// it; shardIgnoredLogged is set once the reflector logged that the
	// server ignored the selector, shardNoEcho once a list response did
	// not echo it. Owned by the Run goroutine.
	shard              Shard
	shardChanged       <-chan struct{}
	shardIgnoredLogged bool
	shardNoEcho        bool
	// shardWoke is the shardChanged whose closing last cut a back-off
	// short (backoffSleep), so that one change wakes one retry only;
	// shardInStore is the shard of what the store holds (the last list
	// stored or narrowing), nil before the first. Owned by the Run
	// goroutine.
	shardWoke    <-chan struct{}
	shardInStore Shard
	// scope is the context of the requests under the shard whose change
	// closes scopeOf (shardScope): it ends when that shard is replaced.
	// Owned by the Run goroutine.
	scope   context.Context
	scopeOf <-chan struct{}

	// relist, when set (before Run, by the informer that makes the
	// reflector), requests a relist: a receive ends the watch and the
	// reflector lists again (compaction_guard.go: the repair of objects
	// holding a mutated shared part). Read by the Run goroutine only.
	relist <-chan struct{}

	// rv is the resourceVersion of the position ("" before the first
	// list): written by the Run goroutine only, read by any
	// (LastSyncResourceVersion). The rest of the protocol state is the
	// Run goroutine's state value (internal/protocol/state.go).
	rv      atomic.Pointer[string]
	running atomic.Bool
}

// NewReflectorWithOptions returns a Reflector that fills store from lw.
// expectedType, when not nil, is an example of the objects to accept (it
// takes precedence over opts.ExpectedType); objects of another Go type are
// logged and dropped.
func NewReflectorWithOptions(lw ListerWatcher, expectedType any, store ReflectorStore, opts ReflectorOptions) *Reflector {
	return newReflector(lw, expectedType, newSink(store), opts)
}

// newReflector returns a Reflector that writes what it lists and watches
// from lw to sink (NewReflectorWithOptions' adapter of a client-go store,
// or an informer's queue's sink, DeltaFIFO.sink).
func newReflector(lw ListerWatcher, expectedType any, sink queue.Sink, opts ReflectorOptions) *Reflector {
	opts = opts.withDefaults()
	ticking, ok := opts.Clock.(clock.WithTicker)
	if !ok {
		ticking = tickingClock{opts.Clock}
	}
	r := &Reflector{
		lw:      ToListerWatcherWithContext(lw),
		sink:    sink,
		opts:    opts,
		clock:   ticking,
		backoff: newBackoff(),
	}
	if opts.Backoff != nil {
		r.backoff = backoffFrom(*opts.Backoff)
	}
	empty := ""
	r.rv.Store(&empty)
	if expectedType == nil && opts.ExpectedType != nil {
		expectedType = opts.ExpectedType
	}
	if expectedType != nil {
		r.expectedType = reflect.TypeOf(expectedType)
	}
	r.typeDescription = cmp.Or(opts.TypeDescription, typeString(r.expectedType))
	r.name = cmp.Or(opts.Name, r.typeDescription, "reflector")
	r.onError = r.logError
	if h := opts.WatchErrorHandler; h != nil {
		r.onError = func(ctx context.Context, err error) { h(ctx, r, err) }
	}
	r.chunking = !chunkingDisabled(lw)
	if u, ok := lw.(watchListSemanticsUnsupported); ok && u.IsWatchListSemanticsUnSupported() {
		r.opts.UseWatchList = false
	}
	return r
}

// withDefaults returns o with every unset field given its default.
func (o ReflectorOptions) withDefaults() ReflectorOptions {
	if o.Clock == nil {
		o.Clock = clock.RealClock{}
	}
	if o.MinWatchTimeout <= 0 {
		o.MinWatchTimeout = defaultMinWatchTimeout
	}
	if o.IdleTimeout <= 0 {
		o.IdleTimeout = 2*o.MinWatchTimeout + time.Minute
	}
	if o.WatchListProgressTimeout <= 0 {
		o.WatchListProgressTimeout = defaultWatchListProgressTimeout
	}
	o.WatchListProgressTimeout = min(o.WatchListProgressTimeout, o.IdleTimeout)
	if o.WatchListTimeout <= 0 {
		o.WatchListTimeout = o.MinWatchTimeout
	}
	return o
}

// typeString is t's name, "" for nil.
func typeString(t reflect.Type) string {
	if t == nil {
		return ""
	}
	return t.String()
}

// chunkingDisabled reports whether lw is a ListWatch (possibly wrapped by
// ToListWatcherWithWatchListSemantics) with DisableChunking set.
func chunkingDisabled(lw ListerWatcher) bool {
	switch lw := lw.(type) {
	case *ListWatch:
		return lw.DisableChunking
	case listWatchWithWatchListSemantics:
		return lw.DisableChunking
	}
	return false
}

// TypeDescription describes the type of the objects the reflector
// accepts.
func (r *Reflector) TypeDescription() string { return r.typeDescription }

// tickingClock gives a clock.Clock without tickers the real clock's.
type tickingClock struct{ clock.Clock }

func (tickingClock) NewTicker(d time.Duration) clock.Ticker { return clock.RealClock{}.NewTicker(d) }

// Name returns the name the reflector logs under.
func (r *Reflector) Name() string { return r.name }

// LastSyncResourceVersion returns the resourceVersion last observed (list,
// event or bookmark). It is safe for concurrent use.
func (r *Reflector) LastSyncResourceVersion() string { return *r.rv.Load() }

func (r *Reflector) setLastSyncResourceVersion(rv string) {
	if *r.rv.Load() == rv {
		return
	}
	r.rv.Store(&rv)
	if r.opts.Metrics != nil {
		r.opts.Metrics.ResourceVersion(rv)
	}
}

// RunWithContext lists and watches until ctx is done, then returns after
// every goroutine it started ended. A Reflector runs once; later calls
// return at once. The ListerWatcher must honour ctx for it to return
// promptly.
func (r *Reflector) RunWithContext(ctx context.Context) {
	if !r.running.CompareAndSwap(false, true) {
		return
	}
	r.applyFields()
	if r.opts.Logger != nil {
		ctx = klog.NewContext(ctx, *r.opts.Logger)
	}
	logger := klog.FromContext(ctx)
	r.reportIgnoredOptions(logger)
	logger.V(3).Info("Starting reflector", "reflector", r.name, "resyncPeriod", r.opts.ResyncPeriod)
	defer logger.V(3).Info("Stopped reflector", "reflector", r.name)

	var wg sync.WaitGroup
	defer wg.Wait()
	if r.opts.ResyncPeriod > 0 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r.resyncLoop(ctx)
		}()
	}
	s := r.initialState()
	for {
		o := r.step(ctx, s)
		if o.End == protocol.EndStopped {
			return
		}
		var e protocol.Effect
		s, e = s.Next(o)
		if !r.between(ctx, s, e, o.Err) {
			return
		}
	}
}

// initialState is the state before the first step: a relist.
func (r *Reflector) initialState() protocol.State {
	s := protocol.State{WatchList: r.opts.UseWatchList}
	s.Phase = s.Relist(r.clock.Now())
	return s
}

// step carries out s's phase and says how it ended (see
// internal/protocol/state.go); protocol.EndStopped once ctx is done.
func (r *Reflector) step(ctx context.Context, s protocol.State) protocol.Outcome {
	var o protocol.Outcome
	switch s.Phase {
	case protocol.PhaseList:
		o = r.listStep(ctx, s)
	case protocol.PhaseWatchList:
		o = r.watchListStep(ctx, s)
	default:
		o = r.watchStep(ctx, s)
	}
	if ctx.Err() != nil {
		if o.W != nil {
			o.W.Stop()
		}
		return protocol.Outcome{End: protocol.EndStopped}
	}
	o.At = r.clock.Now()
	return o
}

// between does what e says before the step of s, for the step that
// ended with err; false when ctx ended while it waited.
func (r *Reflector) between(ctx context.Context, s protocol.State, e protocol.Effect, err error) bool {
	if e.Report && err != nil {
		r.retryingAtOnce = !e.Backoff
		r.onError(ctx, err)
		r.retryingAtOnce = false
	}
	if e.WatchListsOff {
		klog.FromContext(ctx).Info("Watch lists stalled before their initial-events-end bookmark; listing instead until the retry time",
			"reflector", r.name, "stalls", protocol.WatchListMaxStalls, "retryAt", s.WatchListOffUntil)
	}
	if e.Backoff && !r.backoffSleep(ctx, r.backoff.delay(s.Failures)) {
		return false
	}
	return true
}

// resyncLoop calls store.Resync every ResyncPeriod until ctx is done.
func (r *Reflector) resyncLoop(ctx context.Context) {
	for {
		if !sleep(ctx, r.clock, r.opts.ResyncPeriod) {
			return
		}
		if r.opts.ShouldResync != nil && !r.opts.ShouldResync() {
			continue
		}
		if err := r.sink.Resync(); err != nil {
			klog.FromContext(ctx).Error(err, "Resync failed", "reflector", r.name)
		}
	}
}

// pageSize is the Limit of the first page of a list at resourceVersion.
func (r *Reflector) pageSize(resourceVersion string) int64 {
	switch {
	case !r.chunking:
		return 0
	case r.opts.PageSize > 0:
		return r.opts.PageSize
	case r.paginatedResult:
		return defaultPageSize
	case resourceVersion != "" && resourceVersion != "0":
		// A list not older than a known RV can be served whole from the
		// watch cache only without a limit; paging would force a
		// read from etcd (the client-go rule).
		return 0
	}
	return defaultPageSize
}

// listStep is the list phase.
func (r *Reflector) listStep(ctx context.Context, s protocol.State) protocol.Outcome {
	r.takeShard()
	scope := r.shardScope(ctx)
	if err := r.list(scope, s.ListFrom(r.LastSyncResourceVersion())); err != nil {
		if r.cutByShard(ctx, scope) {
			return r.cutEnding(ctx)
		}
		return protocol.Outcome{End: protocol.EndFailed, Err: err}
	}
	r.shardStored()
	return protocol.Outcome{End: protocol.EndStored}
}

// list lists every object at rv and replaces the store's content with
// them; a first list goes into the store page by page (see listedPages).
func (r *Reflector) list(ctx context.Context, rv string) error {
	start := r.clock.Now()
	pages := r.newListedPages()
	listRV, paginated, err := r.listAll(ctx, rv, pages)
	if err != nil && (isExpiredError(err) || isTooLargeResourceVersionError(err)) {
		// The resourceVersion is gone or not there yet: list the latest
		// state with a consistent read.
		rv = ""
		pages.restart()
		listRV, paginated, err = r.listAll(ctx, rv, pages)
	}
	if r.opts.Metrics != nil {
		r.opts.Metrics.ListDone(pages.n, r.clock.Since(start), err)
	}
	if err == nil && rv == "0" && paginated {
		r.paginatedResult = true
	}
	if err != nil {
		pages.abandon()
		return fmt.Errorf("%s: list: %w", r.name, err)
	}
	streamed := pages.first != nil
	if err := pages.finish(listRV); err != nil {
		return fmt.Errorf("%s: storing the list: %w", r.name, err)
	}
	r.setLastSyncResourceVersion(listRV)
	klog.FromContext(ctx).V(2).Info("Caches populated", "reflector", r.name, "items", pages.n, "streamed", streamed, "resourceVersion", listRV)
	return nil
}

// listAll lists at resourceVersion, page by page, into pages, and returns
// the list's resourceVersion and whether it came in several pages. When a
// continue token expires mid-way, the list restarts from scratch with a
// consistent read (RV ""), and unpaged when that expires too.
func (r *Reflector) listAll(ctx context.Context, resourceVersion string, pages *listedPages) (string, bool, error) {
	limit := r.pageSize(resourceVersion)
	opts := r.withShard(metav1.ListOptions{ResourceVersion: resourceVersion, Limit: limit})
	n, restarts := 0, 0
	for {
		obj, err := r.lw.ListWithContext(ctx, opts)
		if err != nil {
			if opts.Continue != "" && isExpiredError(err) && restarts < 2 {
				klog.FromContext(ctx).V(2).Info("List continue token expired, restarting the list", "reflector", r.name)
				restarts++
				if restarts == 2 {
					limit = 0
				}
				opts = r.withShard(metav1.ListOptions{Limit: limit})
				pages.restart()
				n = 0
				continue
			}
			return "", false, err
		}
		n++
		listMeta, err := r.addPage(ctx, pages, obj)
		if err != nil {
			return "", false, err
		}
		next := listMeta.GetContinue()
		if next == "" || opts.Limit == 0 {
			return listMeta.GetResourceVersion(), n > 1, nil
		}
		// Continue requests carry no resourceVersion: the token pins it.
		opts = r.withShard(metav1.ListOptions{Limit: opts.Limit, Continue: next})
	}
}

// addPage adds the objects of the listed page obj to pages and returns
// the page's list metadata.
func (r *Reflector) addPage(ctx context.Context, pages *listedPages, obj runtime.Object) (metav1.ListInterface, error) {
	listMeta, err := meta.ListAccessor(obj)
	if err != nil {
		return nil, fmt.Errorf("unable to understand list result %T: %w", obj, err)
	}
	r.checkShardApplied(ctx, obj)
	page := make([]any, 0, meta.LenList(obj))
	err = meta.EachListItemWithAlloc(obj, func(item runtime.Object) error {
		if r.expectedType != nil && reflect.TypeOf(item) != r.expectedType {
			klog.FromContext(ctx).Error(nil, "Dropping listed object of unexpected type", "reflector", r.name, "expectedType", r.expectedType, "actualType", reflect.TypeOf(item))
			return nil
		}
		if !r.inShard(ctx, item) {
			return nil
		}
		page = append(page, item)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("unable to extract list items of %T: %w", obj, err)
	}
	if err := pages.add(page); err != nil {
		return nil, err
	}
	return listMeta, nil
}

// watchStep is the watch phase: it consumes the watch a watch list left
// open, or opens one from the position, until the watch ends.
func (r *Reflector) watchStep(ctx context.Context, s protocol.State) protocol.Outcome {
	w, replaying := s.W, false
	if r.shardReplaced() {
		if w != nil {
			w.Stop()
		}
		return protocol.Outcome{End: r.reshardEnding(ctx)}
	}
	scope := r.shardScope(ctx)
	if w == nil {
		rv := r.LastSyncResourceVersion()
		// A watch from "" or "0" first replays the current state.
		replaying = rv == "" || rv == "0"
		timeout := r.watchTimeoutSeconds()
		var err error
		w, err = r.lw.WatchWithContext(scope, r.withShard(metav1.ListOptions{
			ResourceVersion:     rv,
			TimeoutSeconds:      &timeout,
			AllowWatchBookmarks: true,
		}))
		if err != nil {
			if r.cutByShard(ctx, scope) {
				return protocol.Outcome{End: r.reshardEnding(ctx)}
			}
			err = fmt.Errorf("%s: watch: %w", r.name, err)
			return protocol.Outcome{End: errorEnding(err), Err: err}
		}
		if r.opts.Metrics != nil {
			r.opts.Metrics.WatchStarted()
		}
	}
	// The watch's life starts when it is open: a REST client may retry
	// inside WatchWithContext for seconds, then hand back an empty,
	// closed watch that must count as very short.
	start := r.clock.Now()
	got, err := r.consume(ctx, w, start, replaying)
	if r.opts.Metrics != nil {
		r.opts.Metrics.WatchEnded(got.events, err)
	}
	lived := r.clock.Since(start)
	end := watchEnding(err, lived, got)
	if r.cutByShard(ctx, scope) && !errors.Is(err, errRelistRequested) {
		// The stream may have ended before consume saw the change.
		end = protocol.EndReshard
	}
	if end == protocol.EndReshard && !errors.Is(err, errRelistRequested) {
		end = r.reshardEnding(ctx)
	}
	return protocol.Outcome{End: end, Healthy: got.changes > 0 || lived >= healthyWatch, Err: err}
}

func (r *Reflector) watchTimeoutSeconds() int64 {
	d := r.opts.MinWatchTimeout + time.Duration(rand.Float64()*float64(r.opts.MinWatchTimeout))
	return max(int64(d/time.Second), 1)
}

var errWatchIdle = errors.New("watch delivered nothing for the idle timeout; restarting it")

// storeEvent writes one watch event to store and returns the event's
// resourceVersion; ok is false when the event was dropped.
func (r *Reflector) storeEvent(ctx context.Context, ev watch.Event, store eventWriter) (rv string, ok bool) {
	if r.expectedType != nil && reflect.TypeOf(ev.Object) != r.expectedType {
		klog.FromContext(ctx).Error(nil, "Dropping watch event with an object of unexpected type", "reflector", r.name, "expectedType", r.expectedType, "actualType", reflect.TypeOf(ev.Object))
		return "", false
	}
	m, err := meta.Accessor(ev.Object)
	if err != nil {
		klog.FromContext(ctx).Error(err, "Dropping watch event without object metadata", "reflector", r.name, "type", ev.Type)
		return "", false
	}
	if ev.Type != watch.Bookmark && !r.contains(ctx, m) {
		// Outside the shard: the server ignored the selector. The event
		// still moves the position.
		return m.GetResourceVersion(), true
	}
	switch ev.Type {
	case watch.Added:
		err = store.Add(ev.Object)
	case watch.Modified:
		err = store.Update(ev.Object)
	case watch.Deleted:
		err = store.Delete(ev.Object)
	case watch.Bookmark:
		err = store.Bookmark(m.GetResourceVersion())
	default:
		klog.FromContext(ctx).Error(nil, "Dropping watch event of unknown type", "reflector", r.name, "type", ev.Type)
		return "", false
	}
	if err != nil {
		klog.FromContext(ctx).Error(err, "Store rejected a watch event", "reflector", r.name, "type", ev.Type)
	}
	return m.GetResourceVersion(), true
}

// logError is DefaultWatchErrorHandler.
func (r *Reflector) logError(ctx context.Context, err error) {
	logger := klog.FromContext(ctx)
	switch {
	case isExpiredError(err):
		logger.V(4).Info("Watch closed: resourceVersion expired", "reflector", r.name, "err", err)
	case errors.Is(err, io.EOF), errors.Is(err, errWatchIdle):
		logger.V(4).Info("Watch closed", "reflector", r.name, "err", err)
	case errors.Is(err, errWatchListIgnored):
		logger.V(2).Info("The client does not stream lists; listing instead", "reflector", r.name, "err", err)
	case errors.Is(err, io.ErrUnexpectedEOF):
		logger.V(1).Info("Watch closed unexpectedly", "reflector", r.name, "err", err)
	default:
		logger.Error(err, "Failed to list or watch", "reflector", r.name)
	}
}

// isExpiredError reports a 410: the resourceVersion is older than the
// server's history.
func isExpiredError(err error) bool {
	return apierrors.IsResourceExpired(err) || apierrors.IsGone(err)
}

// isTooLargeResourceVersionError reports a resourceVersion the server has
// not reached yet.
func isTooLargeResourceVersionError(err error) bool {
	if apierrors.HasStatusCause(err, metav1.CauseTypeResourceVersionTooLarge) {
		return true
	}
	if !apierrors.IsTimeout(err) {
		return false
	}
	var status apierrors.APIStatus
	if !errors.As(err, &status) {
		return false
	}
	s := status.Status()
	if s.Details != nil {
		for _, c := range s.Details.Causes {
			if c.Message == "Too large resource version" {
				return true
			}
		}
	}
	return strings.Contains(s.Message, "Too large resource version")
}

// isRetriableWatchError reports transient failures after which the watch
// can resume from the same resourceVersion once the server recovers, with
// no need to relist.
func isRetriableWatchError(err error) bool {
	if isExpiredError(err) || isTooLargeResourceVersionError(err) {
		return false
	}
	return utilnet.IsConnectionRefused(err) || utilnet.IsConnectionReset(err) ||
		errors.Is(err, io.ErrUnexpectedEOF) ||
		apierrors.IsTooManyRequests(err) || apierrors.IsInternalError(err) ||
		apierrors.IsServiceUnavailable(err) || apierrors.IsServerTimeout(err) ||
		apierrors.IsTimeout(err)
}
