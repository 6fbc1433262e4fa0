package reflector

import (
	"context"
	"reflect"
	"sync"
	"sync/atomic"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/klog/v2"
	"k8s.io/utils/clock"

	"github.com/informer-gen/informer-gen/runtime/cache/internal/protocol"
	"github.com/informer-gen/informer-gen/runtime/cache/internal/queue"
)

// ListerWatcher is what the engine lists and watches: runtime/cache's
// ListerWatcherWithContext has this method set.
type ListerWatcher interface {
	// ListWithContext lists the collection (one page when options.Limit
	// is set).
	ListWithContext(ctx context.Context, options metav1.ListOptions) (runtime.Object, error)
	// WatchWithContext watches the collection from options.ResourceVersion.
	WatchWithContext(ctx context.Context, options metav1.ListOptions) (watch.Interface, error)
}

// Metrics receives the engine's list and watch measurements;
// runtime/cache's Metrics has these methods among others. Called from the
// Run goroutine.
type Metrics interface {
	// ListDone is called after each list or watch list, with the number
	// of objects listed.
	ListDone(items int, took time.Duration, err error)
	// WatchStarted is called when a watch (or watch list) opened.
	WatchStarted()
	// WatchEnded is called when a watch ended, with the events it
	// delivered.
	WatchEnded(events int, err error)
	// ResourceVersion is called when LastSyncResourceVersion moves.
	ResourceVersion(rv string)
}

const (
	// DefaultPageSize is the page size of a paged list when
	// Config.PageSize is not set.
	DefaultPageSize = 500
	// VeryShortWatch is how quickly a watch must close to be re-opened
	// only after a back-off (so a server that closes every watch at once
	// is not re-watched in a hot loop); one that delivered nothing also
	// counts as a failure.
	VeryShortWatch = time.Second
)

// Config is an Engine's configuration, complete: the caller (runtime/cache's
// Reflector) applies the defaults. It is immutable once given to New.
type Config struct {
	// Name identifies the engine in logs and errors.
	Name string
	// ExpectedType, when not nil, is the Go type of the objects to
	// accept; objects of another type are logged and dropped.
	ExpectedType reflect.Type
	// ResyncPeriod is how often the sink's Resync is called (when
	// Run's ShouldResync is nil or returns true); 0 means never.
	ResyncPeriod time.Duration
	// ShouldResync, when set, is asked before each periodic resync.
	ShouldResync func() bool
	// PageSize, when positive, is the page size of lists (else
	// DefaultPageSize, or none where the client-go rule says so).
	PageSize int64
	// Unpaged disables paging: every list asks for the whole collection.
	Unpaged bool
	// UseWatchList streams the initial list with a watch
	// (sendInitialEvents) and falls back to a plain LIST when the server
	// does not support it.
	UseWatchList bool
	// WatchListTimeout bounds a streamed initial list; past it the engine
	// falls back to LIST.
	WatchListTimeout time.Duration
	// WatchListProgressTimeout bounds how long a streamed initial list
	// from a server may go without any event (at most IdleTimeout).
	WatchListProgressTimeout time.Duration
	// MinWatchTimeout is the minimum server-side watch timeout; each
	// watch asks for a random timeout in [MinWatchTimeout,
	// 2*MinWatchTimeout).
	MinWatchTimeout time.Duration
	// IdleTimeout closes and restarts a watch that delivered nothing for
	// this long.
	IdleTimeout time.Duration
	// OnError is called, from the Run goroutine, on every list or watch
	// failure; atOnce is true when the next step follows without a
	// back-off (a watch list falling back to a list). Nil: LogError.
	OnError func(ctx context.Context, err error, atOnce bool)
	// Metrics, when set, receives list and watch measurements.
	Metrics Metrics
	// Clock is the time source (required).
	Clock clock.WithTicker
	// Backoff is the delay between failed steps (NewBackoff's when zero).
	Backoff Backoff
	// Shard, when set, limits the engine to a shard of the collection
	// (shard.go).
	Shard ShardSubscription
}

// Run holds what runtime/cache's client-go-shaped Reflector lets its
// caller set after construction (its exported fields, the informer's
// relist channel): they apply to one Run or ListAndWatch call.
type Run struct {
	// ShouldResync, when set, replaces Config.ShouldResync.
	ShouldResync func() bool
	// PageSize, when positive, replaces Config.PageSize.
	PageSize int64
	// Relist, when set, requests a relist: a receive ends the watch and
	// the engine lists again.
	Relist <-chan struct{}
}

// Engine keeps a queue.Sink in sync with the server: it lists, then
// watches from the list's resourceVersion, relisting when the watch can no
// longer resume; it drives internal/protocol's State, one step at a time,
// on the goroutine that calls Run or ListAndWatch. Build one with New.
type Engine struct {
	lw   ListerWatcher
	sink queue.Sink
	cfg  Config

	// run is the settings of the current Run or ListAndWatch call,
	// written at its start. Owned by the Run goroutine (the resync
	// goroutine reads ShouldResync, started after it is written).
	run Run
	// paginatedResult is owned by the Run goroutine: the first list came
	// back paginated, so later ones page too.
	paginatedResult bool

	// shard is the shard of the last list or watch list (nil without
	// Config.Shard), shardChanged the channel Current gave with it;
	// shardIgnoredLogged is set once the engine logged that the server
	// ignored the selector, shardNoEcho once a list response did not
	// echo it. Owned by the Run goroutine.
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

	// rv is the resourceVersion of the position ("" before the first
	// list): written by the Run goroutine only, read by any
	// (LastSyncResourceVersion). The rest of the protocol state is the
	// Run goroutine's State value (internal/protocol).
	rv atomic.Pointer[string]
}

// New returns an Engine that lists and watches lw and writes what it
// gets to sink. cfg must be complete (see Config).
func New(lw ListerWatcher, sink queue.Sink, cfg Config) *Engine {
	if cfg.Backoff.jitter == nil {
		cfg.Backoff = NewBackoff()
	}
	if cfg.OnError == nil {
		name := cfg.Name
		cfg.OnError = func(ctx context.Context, err error, _ bool) { LogError(ctx, name, err) }
	}
	e := &Engine{lw: lw, sink: sink, cfg: cfg}
	e.setRun(Run{})
	empty := ""
	e.rv.Store(&empty)
	return e
}

// LastSyncResourceVersion returns the resourceVersion last observed (list,
// event or bookmark). It is safe for concurrent use.
func (r *Engine) LastSyncResourceVersion() string { return *r.rv.Load() }

func (r *Engine) setLastSyncResourceVersion(rv string) {
	if *r.rv.Load() == rv {
		return
	}
	r.rv.Store(&rv)
	if r.cfg.Metrics != nil {
		r.cfg.Metrics.ResourceVersion(rv)
	}
}

// Run lists and watches until ctx is done, retrying every failure after
// its back-off, then returns after every goroutine it started ended. The
// caller runs it once (runtime/cache's Reflector guards that).
func (r *Engine) Run(ctx context.Context, run Run) {
	r.setRun(run)
	logger := klog.FromContext(ctx)
	logger.V(3).Info("Starting reflector", "reflector", r.cfg.Name, "resyncPeriod", r.cfg.ResyncPeriod)
	defer logger.V(3).Info("Stopped reflector", "reflector", r.cfg.Name)

	var wg sync.WaitGroup
	defer wg.Wait()
	if r.cfg.ResyncPeriod > 0 {
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

// ListAndWatch lists (or stream-lists) into the sink, then watches until
// the watch can no longer resume or ctx is done, and returns the error
// that ended it (nil when ctx ended it). It does not retry: that is Run's
// job. It must not run concurrently with Run.
func (r *Engine) ListAndWatch(ctx context.Context, run Run) error {
	r.setRun(run)
	s := r.initialState()
	for {
		o := r.step(ctx, s)
		if o.End == protocol.EndStopped {
			return nil
		}
		from := s.Phase
		var e protocol.Effect
		s, e = s.Next(o)
		if s.Phase != protocol.PhaseWatch && from != protocol.PhaseWatchList {
			// A list failed, or the watch can no longer resume.
			return o.Err
		}
		if !r.between(ctx, s, e, o.Err) {
			return nil
		}
	}
}

// setRun takes the settings of a Run or ListAndWatch call, falling back
// to Config's.
func (r *Engine) setRun(run Run) {
	if run.ShouldResync == nil {
		run.ShouldResync = r.cfg.ShouldResync
	}
	if run.PageSize <= 0 {
		run.PageSize = r.cfg.PageSize
	}
	r.run = run
}

// initialState is the state before the first step: a relist.
func (r *Engine) initialState() protocol.State {
	s := protocol.State{WatchList: r.cfg.UseWatchList}
	s.Phase = s.Relist(r.cfg.Clock.Now())
	return s
}

// step carries out s's phase and says how it ended (see
// internal/protocol/state.go); protocol.EndStopped once ctx is done.
func (r *Engine) step(ctx context.Context, s protocol.State) protocol.Outcome {
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
	o.At = r.cfg.Clock.Now()
	return o
}

// between does what e says before the step of s, for the step that
// ended with err; false when ctx ended while it waited.
func (r *Engine) between(ctx context.Context, s protocol.State, e protocol.Effect, err error) bool {
	if e.Report && err != nil {
		r.cfg.OnError(ctx, err, !e.Backoff)
	}
	if e.WatchListsOff {
		klog.FromContext(ctx).Info("Watch lists stalled before their initial-events-end bookmark; listing instead until the retry time",
			"reflector", r.cfg.Name, "stalls", protocol.WatchListMaxStalls, "retryAt", s.WatchListOffUntil)
	}
	if e.Backoff && !r.backoffSleep(ctx, r.cfg.Backoff.Delay(s.Failures)) {
		return false
	}
	return true
}

// resyncLoop calls the sink's Resync every ResyncPeriod until ctx is done.
func (r *Engine) resyncLoop(ctx context.Context) {
	for {
		if !sleep(ctx, r.cfg.Clock, r.cfg.ResyncPeriod) {
			return
		}
		if r.run.ShouldResync != nil && !r.run.ShouldResync() {
			continue
		}
		if err := r.sink.Resync(); err != nil {
			klog.FromContext(ctx).Error(err, "Resync failed", "reflector", r.cfg.Name)
		}
	}
}
