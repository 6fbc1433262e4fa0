package cache

import (
	"context"
	"errors"
	"fmt"
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

// ResourceVersionUpdater is optionally implemented by a ReflectorStore that
// wants to hear of resourceVersions that carry no object (bookmarks, the end
// of a watch list). The Reflector calls it from its own goroutine, after the
// event is otherwise handled.
type ResourceVersionUpdater interface {
	UpdateResourceVersion(resourceVersion string)
}

const (
	defaultPageSize        = 500
	defaultMinWatchTimeout = 5 * time.Minute
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
	// Backoff is accepted for client-go compatibility and not used: the
	// reflector backs off between failures with its own jittered
	// exponential policy (up to 30s, reset after a healthy watch).
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
	// back-off.
	MaxInternalErrorRetryDuration time.Duration

	name            string
	typeDescription string
	lw              ListerWatcherWithContext
	store           ReflectorStore
	expectedType    reflect.Type
	opts            ReflectorOptions
	clock           clock.WithTicker
	onError         func(ctx context.Context, err error)
	chunking        bool

	// Owned by the Run goroutine.
	backoff          *backoff
	paginatedResult  bool // the first list came back paginated: keep paging
	watchListBlocked bool // the server does not support watch lists

	position *position // see reflector_state.go
	running  atomic.Bool
}

// NewReflector returns a Reflector that fills store from lw with objects
// of expectedType's Go type, calling store.Resync every resyncPeriod.
func NewReflector(lw ListerWatcher, expectedType any, store ReflectorStore, resyncPeriod time.Duration) *Reflector {
	return NewReflectorWithOptions(lw, expectedType, store, ReflectorOptions{ResyncPeriod: resyncPeriod})
}

// NewNamedReflector is NewReflector with the name the reflector logs under.
func NewNamedReflector(name string, lw ListerWatcher, expectedType any, store ReflectorStore, resyncPeriod time.Duration) *Reflector {
	return NewReflectorWithOptions(lw, expectedType, store, ReflectorOptions{Name: name, ResyncPeriod: resyncPeriod})
}

// NewReflectorWithOptions returns a Reflector that fills store from lw.
// expectedType, when not nil, is an example of the objects to accept (it
// takes precedence over opts.ExpectedType); objects of another Go type are
// logged and dropped.
func NewReflectorWithOptions(lw ListerWatcher, expectedType any, store ReflectorStore, opts ReflectorOptions) *Reflector {
	if opts.Clock == nil {
		opts.Clock = clock.RealClock{}
	}
	ticking, ok := opts.Clock.(clock.WithTicker)
	if !ok {
		ticking = tickingClock{opts.Clock}
	}
	if opts.MinWatchTimeout <= 0 {
		opts.MinWatchTimeout = defaultMinWatchTimeout
	}
	if opts.IdleTimeout <= 0 {
		opts.IdleTimeout = 2*opts.MinWatchTimeout + time.Minute
	}
	if opts.WatchListTimeout <= 0 {
		opts.WatchListTimeout = opts.MinWatchTimeout
	}
	r := &Reflector{
		name:    opts.Name,
		lw:      ToListerWatcherWithContext(lw),
		store:   store,
		opts:    opts,
		clock:   ticking,
		backoff: newBackoff(opts.Clock),
	}
	if expectedType == nil && opts.ExpectedType != nil {
		expectedType = opts.ExpectedType
	}
	if expectedType != nil {
		r.expectedType = reflect.TypeOf(expectedType)
	}
	r.typeDescription = opts.TypeDescription
	if r.typeDescription == "" && r.expectedType != nil {
		r.typeDescription = r.expectedType.String()
	}
	if r.name == "" {
		r.name = "reflector"
		if r.typeDescription != "" {
			r.name = r.typeDescription
		}
	}
	r.onError = r.logError
	if h := opts.WatchErrorHandler; h != nil {
		r.onError = func(ctx context.Context, err error) { h(ctx, r, err) }
	}
	r.chunking = !chunkingDisabled(lw)
	if u, ok := lw.(watchListSemanticsUnsupported); ok && u.IsWatchListSemanticsUnSupported() {
		r.opts.UseWatchList = false
	}
	r.position = newPosition()
	return r
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
func (r *Reflector) LastSyncResourceVersion() string { return r.position.resourceVersion() }

func (r *Reflector) setLastSyncResourceVersion(rv string) {
	if r.position.advance(rv) && r.opts.Metrics != nil {
		r.opts.Metrics.ResourceVersion(rv)
	}
}

// Run is RunWithContext with a context that ends when stopCh is closed.
func (r *Reflector) Run(stopCh <-chan struct{}) {
	r.RunWithContext(wait.ContextForChannel(stopCh))
}

// ListAndWatch is ListAndWatchWithContext with a context that ends when
// stopCh is closed.
func (r *Reflector) ListAndWatch(stopCh <-chan struct{}) error {
	return r.ListAndWatchWithContext(wait.ContextForChannel(stopCh))
}

// ListAndWatchWithContext lists (or stream-lists) into the store, then
// watches until the watch can no longer resume or ctx is done, and returns
// the error that ended it (nil when ctx ended it). It does not retry: that
// is RunWithContext's job. It must not run concurrently with
// RunWithContext.
func (r *Reflector) ListAndWatchWithContext(ctx context.Context) error {
	r.applyFields()
	if r.opts.Logger != nil {
		ctx = klog.NewContext(ctx, *r.opts.Logger)
	}
	if err := r.listAndWatch(ctx); err != nil && ctx.Err() == nil {
		return err
	}
	return nil
}

// applyFields copies the exported fields set since construction into the
// options.
func (r *Reflector) applyFields() {
	if r.ShouldResync != nil {
		r.opts.ShouldResync = r.ShouldResync
	}
	if r.WatchListPageSize > 0 {
		r.opts.PageSize = r.WatchListPageSize
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
	for ctx.Err() == nil {
		if err := r.listAndWatch(ctx); err != nil && ctx.Err() == nil {
			r.onError(ctx, err)
		}
		if !sleep(ctx, r.clock, r.backoff.next()) {
			return
		}
	}
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
		if err := r.store.Resync(); err != nil {
			klog.FromContext(ctx).Error(err, "Resync failed", "reflector", r.name)
		}
	}
}

// listAndWatch fills the store, by watch list or list, then watches until
// the watch can no longer resume or ctx is done. It returns the error that
// made it give up; nil when ctx is done.
func (r *Reflector) listAndWatch(ctx context.Context) error {
	var w watch.Interface
	if r.opts.UseWatchList && !r.watchListBlocked {
		var err error
		w, err = r.watchList(ctx)
		if ctx.Err() != nil {
			return nil
		}
		if err != nil {
			klog.FromContext(ctx).V(2).Info("Watch list failed, falling back to list", "reflector", r.name, "err", err)
			r.onError(ctx, err)
			w = nil
		}
	}
	if w == nil {
		if err := r.list(ctx); err != nil {
			if ctx.Err() != nil {
				return nil
			}
			return err
		}
	}
	return r.watchLoop(ctx, w)
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

// list lists every object and replaces the store's content with them.
func (r *Reflector) list(ctx context.Context) error {
	start := r.clock.Now()
	rv := r.position.listFrom()
	items, listRV, paginated, err := r.listAll(ctx, rv)
	if err != nil && (isExpiredError(err) || isTooLargeResourceVersionError(err)) {
		// The resourceVersion is gone or not there yet: list the latest
		// state with a consistent read.
		r.position.expire()
		rv = ""
		items, listRV, paginated, err = r.listAll(ctx, rv)
	}
	if r.opts.Metrics != nil {
		r.opts.Metrics.ListDone(len(items), r.clock.Since(start), err)
	}
	if err != nil {
		return fmt.Errorf("%s: list: %w", r.name, err)
	}
	if rv == "0" && paginated {
		r.paginatedResult = true
	}
	r.position.reset()
	if err := r.replace(items, listRV); err != nil {
		return fmt.Errorf("%s: storing the list: %w", r.name, err)
	}
	r.setLastSyncResourceVersion(listRV)
	klog.FromContext(ctx).V(2).Info("Caches populated", "reflector", r.name, "items", len(items), "resourceVersion", listRV)
	return nil
}

// replace replaces the store's content with a list at resourceVersion
// whose objects went through prepareListed when the store is a
// listPreparer.
func (r *Reflector) replace(items []any, resourceVersion string) error {
	if p, ok := r.store.(listPreparer); ok {
		return p.replacePrepared(items, resourceVersion)
	}
	return r.store.Replace(items, resourceVersion)
}

// listAll lists at resourceVersion, page by page, and returns the objects,
// the list's resourceVersion and whether it came in several pages. When a
// continue token expires mid-way, the list restarts from scratch with a
// consistent read (RV ""), and unpaged when that expires too.
func (r *Reflector) listAll(ctx context.Context, resourceVersion string) ([]any, string, bool, error) {
	limit := r.pageSize(resourceVersion)
	opts := metav1.ListOptions{ResourceVersion: resourceVersion, Limit: limit}
	var items []any
	pages, restarts := 0, 0
	for {
		obj, err := r.lw.ListWithContext(ctx, opts)
		if err != nil {
			if opts.Continue != "" && isExpiredError(err) && restarts < 2 {
				klog.FromContext(ctx).V(2).Info("List continue token expired, restarting the list", "reflector", r.name)
				restarts++
				if restarts == 2 {
					limit = 0
				}
				opts = metav1.ListOptions{Limit: limit}
				items, pages = items[:0], 0
				continue
			}
			return nil, "", false, err
		}
		pages++
		listMeta, err := meta.ListAccessor(obj)
		if err != nil {
			return nil, "", false, fmt.Errorf("unable to understand list result %T: %w", obj, err)
		}
		if items == nil {
			if n := meta.LenList(obj); n > 0 {
				items = make([]any, 0, n)
			}
		}
		pageStart := len(items)
		err = meta.EachListItemWithAlloc(obj, func(item runtime.Object) error {
			if r.expectedType != nil && reflect.TypeOf(item) != r.expectedType {
				klog.FromContext(ctx).Error(nil, "Dropping listed object of unexpected type", "reflector", r.name, "expectedType", r.expectedType, "actualType", reflect.TypeOf(item))
				return nil
			}
			items = append(items, item)
			return nil
		})
		if err != nil {
			return nil, "", false, fmt.Errorf("unable to extract list items of %T: %w", obj, err)
		}
		if p, ok := r.store.(listPreparer); ok {
			if err := p.prepareListed(items[pageStart:]); err != nil {
				return nil, "", false, fmt.Errorf("preparing listed objects: %w", err)
			}
		}
		next := listMeta.GetContinue()
		if next == "" || opts.Limit == 0 {
			return items, listMeta.GetResourceVersion(), pages > 1, nil
		}
		// Continue requests carry no resourceVersion: the token pins it.
		opts = metav1.ListOptions{Limit: opts.Limit, Continue: next}
	}
}

// watchLoop consumes w (or a new watch when w is nil) and re-watches from
// the last resourceVersion for as long as that is possible. It returns nil
// when ctx is done and the error that requires a relist otherwise.
func (r *Reflector) watchLoop(ctx context.Context, w watch.Interface) error {
	for {
		if ctx.Err() != nil {
			if w != nil {
				w.Stop()
			}
			return nil
		}
		start := r.clock.Now()
		// A watch handed over by watchList is past its initial events.
		replaying := false
		if w == nil {
			rv := r.LastSyncResourceVersion()
			replaying = rv == "" || rv == "0"
			timeout := r.watchTimeoutSeconds()
			var err error
			w, err = r.lw.WatchWithContext(ctx, metav1.ListOptions{
				ResourceVersion:     rv,
				TimeoutSeconds:      &timeout,
				AllowWatchBookmarks: true,
			})
			if err != nil {
				if ctx.Err() != nil {
					return nil
				}
				err = fmt.Errorf("%s: watch: %w", r.name, err)
				if again, err := r.follow(ctx, after(err, 0), err); !again {
					return err
				}
				continue
			}
			// The watch's life starts when it is open: a REST client may
			// retry inside WatchWithContext for seconds, then hand back an
			// empty, closed watch that must count as very short.
			start = r.clock.Now()
			if r.opts.Metrics != nil {
				r.opts.Metrics.WatchStarted()
			}
		}
		events, err := r.consume(ctx, w, start, replaying)
		w = nil
		if r.opts.Metrics != nil {
			r.opts.Metrics.WatchEnded(events, err)
		}
		if ctx.Err() != nil {
			return nil
		}
		if again, err := r.follow(ctx, after(err, r.clock.Since(start)), err); !again {
			return err
		}
	}
}

// follow carries out t, the transition after a watch that ended with err
// (see reflector_state.go): it reports err and waits the back-off as t
// says, and returns true to watch again. It returns false with the error
// to relist on when t leads to phaseList (recording an expired position),
// and false with nil when ctx ended during the back-off.
func (r *Reflector) follow(ctx context.Context, t transition, err error) (bool, error) {
	if t.next == phaseList {
		return false, r.noteExpiry(err)
	}
	if t.report {
		r.onError(ctx, err)
	}
	if t.backoff && !sleep(ctx, r.clock, r.backoff.next()) {
		return false, nil
	}
	return true, nil
}

// noteExpiry remembers that the last resourceVersion is no longer served,
// so the next list is a consistent read from "", and returns err.
func (r *Reflector) noteExpiry(err error) error {
	if isExpiredError(err) || isTooLargeResourceVersionError(err) {
		r.position.expire()
	}
	return err
}

func (r *Reflector) watchTimeoutSeconds() int64 {
	d := r.opts.MinWatchTimeout + time.Duration(rand.Float64()*float64(r.opts.MinWatchTimeout))
	return max(int64(d/time.Second), 1)
}

var (
	errWatchIdle      = errors.New("watch delivered nothing for the idle timeout; restarting it")
	errVeryShortWatch = errors.New("watch closed immediately without delivering anything")
)

// maxBurst is the most watch events consume handles in one burst: events
// already waiting in the result channel are handled back to back, and
// the per-burst work (reading the clock, publishing the resourceVersion,
// checking ctx) is done once per burst.
const maxBurst = 256

// consume applies the events of w to the store until w closes, fails, stays
// idle for IdleTimeout, or ctx is done; it always stops w. replaying is
// set for a watch started at "" or "0", which first replays the current
// state as synthetic Added events in no resourceVersion order: their
// resourceVersions are no position, so tracking starts at the first event
// of another type.
// It returns the number of events handled and why it stopped (nil for a
// clean close).
//
// Events are handled in bursts: after waiting for one event, consume also
// handles, without waiting, those already queued behind it (up to
// maxBurst). The time of the burst's first event stands for the whole
// burst in the idle check, and LastSyncResourceVersion moves once per
// burst, to the burst's last resourceVersion (at once for bookmarks, and
// before consume returns).
func (r *Reflector) consume(ctx context.Context, w watch.Interface, start time.Time, replaying bool) (int, error) {
	defer w.Stop()
	idle := r.clock.NewTimer(r.opts.IdleTimeout)
	defer idle.Stop()
	results := w.ResultChan()
	updater, _ := r.store.(ResourceVersionUpdater)
	lastEvent := r.clock.Now()
	events := 0
	for {
		var ev watch.Event
		var ok bool
		select {
		case <-ctx.Done():
			return events, ctx.Err()
		case <-idle.C():
			// The timer is armed for the idle timeout after the event seen
			// when it was last armed; re-arm it for the time left since.
			if left := r.opts.IdleTimeout - r.clock.Since(lastEvent); left > 0 {
				idle.Reset(left)
				continue
			}
			return events, fmt.Errorf("%s: %w", r.name, errWatchIdle)
		case ev, ok = <-results:
		}
		lastEvent = r.clock.Now()
		// The burst's resourceVersion, not yet published when pending.
		var rv string
		pending := false
		for n := 1; ; n++ {
			if !ok {
				r.publishResourceVersion(rv, pending)
				if events == 0 && r.clock.Since(start) < veryShortWatch {
					return events, fmt.Errorf("%s: %w", r.name, errVeryShortWatch)
				}
				return events, nil
			}
			if ev.Type == watch.Error {
				r.publishResourceVersion(rv, pending)
				return events, fmt.Errorf("%s: watch event: %w", r.name, apierrors.FromObject(ev.Object))
			}
			events++
			if evRV, applied := r.apply(ctx, ev, r.store); applied {
				if ev.Type != watch.Added {
					replaying = false
				}
				// An event without a resourceVersion (a bookmark of a
				// server that sends none) says nothing of the position.
				if !replaying && evRV != "" {
					rv, pending = evRV, true
					if ev.Type == watch.Bookmark && updater != nil {
						r.publishResourceVersion(rv, pending)
						pending = false
						updater.UpdateResourceVersion(rv)
					}
				}
			}
			if n == maxBurst {
				break
			}
			select {
			case ev, ok = <-results:
				continue
			default:
			}
			break
		}
		r.publishResourceVersion(rv, pending)
	}
}

// publishResourceVersion makes rv the LastSyncResourceVersion when
// pending.
func (r *Reflector) publishResourceVersion(rv string, pending bool) {
	if pending {
		r.setLastSyncResourceVersion(rv)
	}
}

// apply writes one watch event to store and returns the event's
// resourceVersion; ok is false when the event was dropped.
func (r *Reflector) apply(ctx context.Context, ev watch.Event, store ReflectorStore) (rv string, ok bool) {
	if r.expectedType != nil && reflect.TypeOf(ev.Object) != r.expectedType {
		klog.FromContext(ctx).Error(nil, "Dropping watch event with an object of unexpected type", "reflector", r.name, "expectedType", r.expectedType, "actualType", reflect.TypeOf(ev.Object))
		return "", false
	}
	m, err := meta.Accessor(ev.Object)
	if err != nil {
		klog.FromContext(ctx).Error(err, "Dropping watch event without object metadata", "reflector", r.name, "type", ev.Type)
		return "", false
	}
	switch ev.Type {
	case watch.Added:
		err = store.Add(ev.Object)
	case watch.Modified:
		err = store.Update(ev.Object)
	case watch.Deleted:
		err = store.Delete(ev.Object)
	case watch.Bookmark:
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
