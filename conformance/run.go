package conformance

import (
	"context"
	"fmt"
	"sync"
	"time"

	"k8s.io/apimachinery/pkg/watch"

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
	for _, k := range scenarioKeys(sc) {
		if err := srv.Apply(Change{Kind: ChangeAdd, Key: k}); err != nil {
			return nil, err
		}
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
	p := startPair(ctx, srv, pairOptions{ourIndexers: indexers, beforeStop: openGate})
	r := &scenarioRun{ctx: ctx, srv: srv, p: p, sc: sc}
	err := r.play(openGate)
	p.stop()
	res := &Result{Scenario: sc, Final: srv.State(), ClientGo: p.cg.observed(), Ours: p.ours.observed()}
	return res, err
}

// scenarioKeys are the keys present before the informers start: the
// backlog, then the initial keys.
func scenarioKeys(sc Scenario) []string {
	keys := make([]string, 0, sc.Backlog+len(sc.Initial))
	for i := range sc.Backlog {
		keys = append(keys, BacklogKey(i))
	}
	return append(keys, sc.Initial...)
}

// scenarioRun is one run of a scenario against a pair of informers.
type scenarioRun struct {
	ctx context.Context
	srv *Server
	p   *informerPair
	sc  Scenario
}

// play plays the scenario: the early phase (opening the gate after it),
// the steps, then the sentinel and the wait for the final state.
func (r *scenarioRun) play(openGate func()) error {
	if len(r.sc.Early) > 0 {
		if err := r.early(); err != nil {
			return err
		}
		openGate()
	}
	if err := r.settle("start"); err != nil {
		return err
	}
	if r.sc.HoldHandlers {
		r.p.cg.recorder.Hold()
		r.p.ours.recorder.Hold()
	}
	for i, op := range r.sc.Ops {
		if err := op.Apply(r.srv); err != nil {
			return fmt.Errorf("op %d %v: %w", i, op, err)
		}
		if op.Disrupts() {
			if err := r.settle(fmt.Sprintf("op %d %v", i, op)); err != nil {
				return err
			}
		}
	}
	r.p.cg.recorder.Release()
	r.p.ours.recorder.Release()
	// Handlers see notifications in delivery order, and a relist's no-op
	// updates do not change a handler's view: wait for a last add to reach
	// both handlers, so that everything before it has too.
	if err := r.srv.Apply(Change{Kind: ChangeAdd, Key: SentinelKey}); err != nil {
		return err
	}
	final := r.srv.State()
	if err := poll(r.ctx, func() bool { return r.p.cg.reached(final) && r.p.ours.reached(final) }); err != nil {
		return fmt.Errorf("caches and handlers did not reach the server's final state: %w", err)
	}
	return nil
}

// early makes the early changes once both informers watch, while
// runtime/cache's is held in its first batch, and waits for them to be
// delivered to it.
func (r *scenarioRun) early() error {
	if err := poll(r.ctx, r.srv.Watching); err != nil {
		return fmt.Errorf("early changes: informers not watching: %w", err)
	}
	for _, c := range r.sc.Early {
		if err := r.srv.Apply(c); err != nil {
			return fmt.Errorf("early change %v: %w", c, err)
		}
	}
	// The reflector takes the bookmark only after queueing the changes
	// before it.
	r.srv.Bookmark()
	if err := poll(r.ctx, func() bool { return bookmarks(r.p.ours.client.Trace()) > 0 }); err != nil {
		return fmt.Errorf("early changes: not delivered to runtime/cache: %w", err)
	}
	return nil
}

// settle waits until both informers synced and watch again after a
// disruption.
func (r *scenarioRun) settle(after string) error {
	err := poll(r.ctx, func() bool {
		return r.srv.Watching() && r.p.cg.synced() && r.p.ours.synced()
	})
	if err != nil {
		cgLists, cgWatches := r.p.cg.client.Calls()
		ourLists, ourWatches := r.p.ours.client.Calls()
		return fmt.Errorf("%s: informers not watching again (client-go %d lists %d watches, runtime/cache %d lists %d watches): %w",
			after, cgLists, cgWatches, ourLists, ourWatches, err)
	}
	return nil
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
