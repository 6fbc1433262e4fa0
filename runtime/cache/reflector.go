package cache

import (
	"cmp"
	"context"
	"reflect"
	"sync/atomic"
	"time"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/klog/v2"
	"k8s.io/utils/clock"

	"github.com/informer-gen/informer-gen/runtime/cache/internal/queue"
	"github.com/informer-gen/informer-gen/runtime/cache/internal/reflector"
)

// This file is the Reflector's client-go-shaped front: its options, its
// store interfaces and the type itself, a thin wrapper over the engine of
// package internal/reflector (list / watch / watch-list I/O, paging,
// back-off, resync, resourceVersion tracking, driving internal/protocol's
// state). reflector_compat.go has the rest of client-go's surface.

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
	defaultMinWatchTimeout = 5 * time.Minute
	// defaultWatchListProgressTimeout is ReflectorOptions'
	// WatchListProgressTimeout default: a server starts a watch list's
	// initial events, or its bookmark for an empty collection, within
	// a second or two.
	defaultWatchListProgressTimeout = 10 * time.Second
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
	// failures (internal/reflector/backoff.go), as in client-go: Duration growing by Factor
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
	// (shard.go, internal/reflector/shard.go): every list, watch list and watch carries the selector
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
// RunWithContext. The work is internal/reflector's Engine; the Reflector
// gives it its configuration and the settings of its exported fields.
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
	opts            ReflectorOptions
	engine          *reflector.Engine

	// retryingAtOnce is set while the watch error handler is told of a
	// failure the next step follows without a back-off (a watch list
	// falling back to a list). Owned by the Run goroutine.
	retryingAtOnce bool

	// relist, when set (before Run, by the informer that makes the
	// reflector), requests a relist: a receive ends the watch and the
	// reflector lists again (compaction_guard.go: the repair of objects
	// holding a mutated shared part). Read by the Run goroutine only.
	relist <-chan struct{}

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
	if expectedType == nil && opts.ExpectedType != nil {
		expectedType = opts.ExpectedType
	}
	var typ reflect.Type
	if expectedType != nil {
		typ = reflect.TypeOf(expectedType)
	}
	r := &Reflector{opts: opts}
	r.typeDescription = cmp.Or(opts.TypeDescription, typeString(typ))
	r.name = cmp.Or(opts.Name, r.typeDescription, "reflector")
	if u, ok := lw.(watchListSemanticsUnsupported); ok && u.IsWatchListSemanticsUnSupported() {
		r.opts.UseWatchList = false
	}
	r.engine = reflector.New(ToListerWatcherWithContext(lw), sink, r.engineConfig(typ, !chunkingDisabled(lw)))
	return r
}

// engineConfig is the engine's configuration from the options.
func (r *Reflector) engineConfig(typ reflect.Type, chunking bool) reflector.Config {
	o := r.opts
	ticking, ok := o.Clock.(clock.WithTicker)
	if !ok {
		ticking = tickingClock{o.Clock}
	}
	cfg := reflector.Config{
		Name: r.name, ExpectedType: typ, ResyncPeriod: o.ResyncPeriod, ShouldResync: o.ShouldResync,
		PageSize: o.PageSize, Unpaged: !chunking,
		UseWatchList: o.UseWatchList, WatchListTimeout: o.WatchListTimeout,
		WatchListProgressTimeout: o.WatchListProgressTimeout, MinWatchTimeout: o.MinWatchTimeout,
		IdleTimeout: o.IdleTimeout, Clock: ticking, Shard: o.Shard, OnError: r.onError,
	}
	if o.Metrics != nil {
		cfg.Metrics = o.Metrics
	}
	if o.Backoff != nil {
		cfg.Backoff = reflector.BackoffFrom(*o.Backoff)
	}
	return cfg
}

// onError is the engine's Config.OnError: the WatchErrorHandler, told
// whether the next step follows at once (retryingAtOnce).
func (r *Reflector) onError(ctx context.Context, err error, atOnce bool) {
	h := r.opts.WatchErrorHandler
	if h == nil {
		r.logError(ctx, err)
		return
	}
	r.retryingAtOnce = atOnce
	h(ctx, r, err)
	r.retryingAtOnce = false
}

// logError is DefaultWatchErrorHandler.
func (r *Reflector) logError(ctx context.Context, err error) {
	reflector.LogError(ctx, r.name, err)
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

// tickingClock gives a clock.Clock without tickers the real clock's.
type tickingClock struct{ clock.Clock }

func (tickingClock) NewTicker(d time.Duration) clock.Ticker { return clock.RealClock{}.NewTicker(d) }

// TypeDescription describes the type of the objects the reflector
// accepts.
func (r *Reflector) TypeDescription() string { return r.typeDescription }

// Name returns the name the reflector logs under.
func (r *Reflector) Name() string { return r.name }

// LastSyncResourceVersion returns the resourceVersion last observed (list,
// event or bookmark). It is safe for concurrent use.
func (r *Reflector) LastSyncResourceVersion() string { return r.engine.LastSyncResourceVersion() }

// RunWithContext lists and watches until ctx is done, then returns after
// every goroutine it started ended. A Reflector runs once; later calls
// return at once. The ListerWatcher must honour ctx for it to return
// promptly.
func (r *Reflector) RunWithContext(ctx context.Context) {
	if !r.running.CompareAndSwap(false, true) {
		return
	}
	ctx = r.withLogger(ctx)
	r.reportIgnoredOptions(klog.FromContext(ctx))
	r.engine.Run(ctx, r.runSettings())
}

// withLogger is ctx with ReflectorOptions.Logger, when set.
func (r *Reflector) withLogger(ctx context.Context) context.Context {
	if r.opts.Logger != nil {
		return klog.NewContext(ctx, *r.opts.Logger)
	}
	return ctx
}

// runSettings is what the exported fields and the informer set since
// construction, for the engine's next Run or ListAndWatch.
func (r *Reflector) runSettings() reflector.Run {
	return reflector.Run{ShouldResync: r.ShouldResync, PageSize: r.WatchListPageSize, Relist: r.relist}
}
