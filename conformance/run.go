package conformance

import (
	"context"
	"fmt"
	"sync"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/watch"
	clientgocache "k8s.io/client-go/tools/cache"

	ourcache "github.com/informer-gen/informer-gen/runtime/cache"
)

// Observed is what one informer produced in a run.
type Observed struct {
	// Name is the informer's name: "client-go" or "runtime/cache".
	Name string
	// Trace is what its reflector received.
	Trace Trace
	// Notes are its handler's calls, in order.
	Notes []Note
	// Store is its cache's content at the end.
	Store map[string]State
	// Lists and Watches count the List and Watch calls it made.
	Lists, Watches int
}

// Result is everything a run of one scenario produced.
type Result struct {
	Scenario Scenario
	// Final is the server's final state.
	Final map[string]State
	// ClientGo and Ours are the two informers' observations.
	ClientGo, Ours Observed
}

// SentinelKey is the key of the object Run adds after the last step of
// every scenario; scenarios must not use it.
const SentinelKey = "zz-sentinel/end"

// pollInterval is how often Run re-checks a condition it waits for.
const pollInterval = 2 * time.Millisecond

// Run plays sc against a fresh Server watched by client-go's
// SharedIndexInformer and runtime/cache's, each through its own Client,
// with resync off. It waits for both to sync before the first step, and
// after every disrupting step until both watch again, so that both
// informers observe the same sequence of server states. After the last
// step it adds the object SentinelKey and waits until both caches and both
// handlers' views equal the server's final state, then stops both
// informers and returns once every goroutine they and the server started
// has ended.
//
// With sc.HoldHandlers, both handlers are blocked from the first step to
// the last, so notifications pile up (and runtime/cache's coalesce).
//
// ctx bounds the run; on a timeout Run returns what it observed so far
// with an error saying what it was waiting for.
func Run(ctx context.Context, sc Scenario) (*Result, error) {
	srv := NewServer()
	for i := range sc.Backlog {
		if err := srv.Apply(Change{Kind: ChangeAdd, Key: BacklogKey(i)}); err != nil {
			return nil, err
		}
	}
	for _, k := range sc.Initial {
		if err := srv.Apply(Change{Kind: ChangeAdd, Key: k}); err != nil {
			return nil, err
		}
	}
	cgClient := srv.NewClient("client-go")
	ourClient := srv.NewClient("runtime/cache")

	cgInformer := clientgocache.NewSharedIndexInformerWithOptions(ClientGoListerWatcher{Client: cgClient},
		&corev1.ConfigMap{}, clientgocache.SharedIndexInformerOptions{})
	cgRecorder := &Recorder{Unwrap: func(obj any) (string, any, bool) {
		t, ok := obj.(clientgocache.DeletedFinalStateUnknown)
		return t.Key, t.Obj, ok
	}}
	if _, err := cgInformer.AddEventHandler(cgRecorder); err != nil {
		return nil, err
	}
	// With early changes, an index function holds runtime/cache's informer
	// in its first applied batch until they are queued.
	applyGate := make(chan struct{})
	var gateOnce sync.Once
	openGate := func() { gateOnce.Do(func() { close(applyGate) }) }
	var indexers ourcache.Indexers
	if len(sc.Early) > 0 {
		indexers = ourcache.Indexers{"conformance-apply-gate": func(any) ([]string, error) {
			<-applyGate
			return nil, nil
		}}
	} else {
		openGate()
	}
	ourInformer := ourcache.NewSharedIndexInformerWithOptions(ClientGoListerWatcher{Client: ourClient},
		&corev1.ConfigMap{}, ourcache.SharedIndexInformerOptions{Indexers: indexers})
	ourRecorder := &Recorder{Unwrap: func(obj any) (string, any, bool) {
		t, ok := obj.(ourcache.DeletedFinalStateUnknown)
		return t.Key, t.Obj, ok
	}}
	if _, err := ourInformer.AddEventHandler(ourRecorder); err != nil {
		return nil, err
	}

	runCtx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	wg.Go(func() { cgInformer.RunWithContext(runCtx) })
	wg.Go(func() { ourInformer.RunWithContext(runCtx) })
	stopped := false
	stop := func() {
		openGate()
		cgRecorder.Release()
		ourRecorder.Release()
		if !stopped {
			stopped = true
			cancel()
			wg.Wait()
			srv.Wait()
		}
	}
	defer stop()

	observe := func() *Result {
		stop()
		r := &Result{Scenario: sc, Final: srv.State()}
		r.ClientGo = observed(cgClient, cgRecorder, storeStates(cgInformer.GetStore().List()))
		r.Ours = observed(ourClient, ourRecorder, storeStates(ourInformer.GetStore().List()))
		return r
	}
	settle := func(after string) error {
		err := poll(ctx, func() bool {
			return srv.Watching() && cgInformer.HasSynced() && ourInformer.HasSynced()
		})
		if err != nil {
			cgLists, cgWatches := cgClient.Calls()
			ourLists, ourWatches := ourClient.Calls()
			return fmt.Errorf("%s: informers not watching again (client-go %d lists %d watches, runtime/cache %d lists %d watches): %w",
				after, cgLists, cgWatches, ourLists, ourWatches, err)
		}
		return nil
	}

	if len(sc.Early) > 0 {
		if err := poll(ctx, srv.Watching); err != nil {
			return observe(), fmt.Errorf("early changes: informers not watching: %w", err)
		}
		for _, c := range sc.Early {
			if err := srv.Apply(c); err != nil {
				return observe(), fmt.Errorf("early change %v: %w", c, err)
			}
		}
		// The reflector takes the bookmark only after queueing the
		// changes before it.
		srv.Bookmark()
		if err := poll(ctx, func() bool { return bookmarks(ourClient.Trace()) > 0 }); err != nil {
			return observe(), fmt.Errorf("early changes: not delivered to runtime/cache: %w", err)
		}
		openGate()
	}
	if err := settle("start"); err != nil {
		return observe(), err
	}
	if sc.HoldHandlers {
		cgRecorder.Hold()
		ourRecorder.Hold()
	}
	for i, op := range sc.Ops {
		if err := op.Apply(srv); err != nil {
			return observe(), fmt.Errorf("op %d %v: %w", i, op, err)
		}
		if op.Disrupts() {
			if err := settle(fmt.Sprintf("op %d %v", i, op)); err != nil {
				return observe(), err
			}
		}
	}
	cgRecorder.Release()
	ourRecorder.Release()
	// Handlers see notifications in delivery order, and a relist's no-op
	// updates do not change a handler's view: wait for a last add to reach
	// both handlers, so that everything before it has too.
	if err := srv.Apply(Change{Kind: ChangeAdd, Key: SentinelKey}); err != nil {
		return observe(), err
	}
	final := srv.State()
	err := poll(ctx, func() bool {
		return statesEqual(storeStates(cgInformer.GetStore().List()), final) &&
			statesEqual(storeStates(ourInformer.GetStore().List()), final) &&
			cgRecorder.ViewEquals(final) && ourRecorder.ViewEquals(final)
	})
	r := observe()
	if err != nil {
		return r, fmt.Errorf("caches and handlers did not reach the server's final state: %w", err)
	}
	return r, nil
}

// bookmarks counts the bookmarks in t.
func bookmarks(t Trace) int {
	n := 0
	for _, e := range t {
		if e.Kind == TraceEvent && e.Type == watch.Bookmark {
			n++
		}
	}
	return n
}

func observed(c *Client, rec *Recorder, store map[string]State) Observed {
	lists, watches := c.Calls()
	return Observed{Name: c.Name(), Trace: c.Trace(), Notes: rec.Notes(), Store: store, Lists: lists, Watches: watches}
}

func storeStates(objs []any) map[string]State {
	out := make(map[string]State, len(objs))
	for _, o := range objs {
		out[keyOf(o)] = StateOf(o)
	}
	return out
}

// poll waits until cond is true or ctx is done.
func poll(ctx context.Context, cond func() bool) error {
	return pollEvery(ctx, pollInterval, cond)
}

// pollEvery waits until cond is true or ctx is done, checking every
// interval.
func pollEvery(ctx context.Context, interval time.Duration, cond func() bool) error {
	t := time.NewTicker(interval)
	defer t.Stop()
	for !cond() {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-t.C:
		}
	}
	return nil
}
