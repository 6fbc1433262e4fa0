package compact

import (
	"context"
	"sync"
	"time"
	"unsafe"

	"k8s.io/klog/v2"
	"k8s.io/utils/clock"
)

// Guard finds the canonical copies of a Table that were mutated after
// they were shared (cached objects must not be mutated; with compaction a
// mutation of a shared part changes every object holding it), and has
// them repaired. Each copy records its hash when it enters the table; the
// guard's sampler re-hashes the copies, a bounded number per round (see
// GuardOptions), and compares. For a mutated copy it:
//
//   - removes the copy from the table, so that no object entering a cache
//     shares it from then on;
//   - asks every Holder (the informers compacting into the table) where
//     its objects hold the copy, and to restore those objects from the
//     server (an informer relists);
//   - logs once per object type and field path, with an object's key,
//     and counts it (GuardMetrics, Stats).
//
// The sampler runs while the guard has holders: the first Hold starts its
// goroutine, the release of the last stops it. All methods are safe for
// concurrent use.
type Guard struct {
	table  *Table
	opts   GuardOptions
	logger klog.Logger

	// mu guards metrics, holders, logged, stats, cancel and done.
	mu      sync.Mutex
	metrics GuardMetrics
	holders map[*heldBy]struct{}
	// logged holds the "type path" pairs already logged.
	logged map[string]struct{}
	stats  GuardStats
	// cancel stops the running sampler, done is closed when it returned;
	// both nil while it does not run.
	cancel context.CancelFunc
	done   chan struct{}

	// roundMu serialises rounds; it guards cursor and buf.
	roundMu sync.Mutex
	cursor  guardCursor
	buf     []sampled
}

// GuardOptions configures a Guard. The CPU a guard takes is bounded per
// Period by PerRound and Budget: a round stops at whichever it reaches
// first, and a round that reaches Budget ends with the copy it is
// checking. A round also stops after looking at 4 × PerRound slots of
// the table, empty and collected ones included, so in a sparse part of
// the table it checks fewer copies. The defaults (100ms, 256 copies, 1ms)
// bound it to about 1% of one core and 2,560 copies a second: a table of
// 10,000 canonical copies is checked whole every 4 seconds when the
// rounds find their 256 copies.
type GuardOptions struct {
	// Period is the time between two rounds; default 100ms.
	Period time.Duration
	// PerRound is the most copies a round checks; default 256.
	PerRound int
	// Budget is the most time a round spends checking; default 1ms.
	Budget time.Duration
	// Clock drives rounds and measures Budget; default the real clock.
	Clock clock.WithTicker
	// Metrics receives the guard's counts; nil: none.
	Metrics GuardMetrics
	// Logger logs mutations; default klog.Background().
	Logger *klog.Logger
}

// GuardMetrics receives a Guard's measurements. Implementations must be
// safe for concurrent use and must not block.
type GuardMetrics interface {
	// ValuesChecked is called after each round with the number of
	// canonical copies it re-hashed.
	ValuesChecked(n int)
	// MutationFound is called once per mutated copy found, with the
	// number of cached objects holding it (over all holders).
	MutationFound(objects int)
}

// GuardStats are a Guard's counts since it was made.
type GuardStats struct {
	Rounds    int // rounds run
	Checked   int // canonical copies re-hashed
	Scanned   int // slots looked at, empty and collected ones included
	Mutations int // mutated copies found (and removed from the table)
	Objects   int // cached objects found holding a mutated copy
}

// Holder is a cache whose objects may share a Table's canonical copies:
// an informer compacting into the table holds it (Guard.Hold).
type Holder interface {
	// Corrupted is called when the copy m was found mutated (and was
	// removed from the table). It returns the objects of the cache that
	// hold it, with their paths (Mutation.PathsIn), and, when there are
	// any, restores them from the server: an informer relists and
	// replaces them, changed or not. It must not block on the guard.
	Corrupted(m Mutation) []Held
}

// Held is an object of a Holder's cache that holds a mutated copy.
type Held struct {
	Key   string   // the object's key in the cache
	Type  string   // the object's Go type
	Paths []string // where it holds the copy (Mutation.PathsIn)
}

// heldBy is one registration of a Holder (Hold).
type heldBy struct{ h Holder }

// Defaults of GuardOptions.
const (
	DefaultGuardPeriod   = 100 * time.Millisecond
	DefaultGuardPerRound = 256
	DefaultGuardBudget   = time.Millisecond
)

// NewGuard returns a Guard of the canonical copies of t.
func NewGuard(t *Table, opts GuardOptions) *Guard {
	if opts.Period <= 0 {
		opts.Period = DefaultGuardPeriod
	}
	if opts.PerRound <= 0 {
		opts.PerRound = DefaultGuardPerRound
	}
	if opts.Budget <= 0 {
		opts.Budget = DefaultGuardBudget
	}
	if opts.Clock == nil {
		opts.Clock = clock.RealClock{}
	}
	g := &Guard{table: t, opts: opts, metrics: opts.Metrics, holders: map[*heldBy]struct{}{}, logged: map[string]struct{}{}}
	g.logger = klog.Background().WithName("compaction-guard")
	if opts.Logger != nil {
		g.logger = *opts.Logger
	}
	return g
}

// defaultGuard is the guard of Default(), made at first use.
var defaultGuard = sync.OnceValue(func() *Guard { return NewGuard(Default(), GuardOptions{}) })

// DefaultGuard returns the Guard of the Default() table, which the
// compacting informers of runtime/cache hold unless told otherwise.
func DefaultGuard() *Guard { return defaultGuard() }

// Hold registers h, which caches objects sharing the guard's table, and
// starts the sampler if it does not run; release unregisters it and stops
// the sampler after the last holder's release (it waits for it to
// return). release may be called more than once.
func (g *Guard) Hold(h Holder) (release func()) {
	e := &heldBy{h}
	g.mu.Lock()
	g.holders[e] = struct{}{}
	if g.cancel == nil {
		ctx, cancel := context.WithCancel(context.Background())
		g.cancel, g.done = cancel, make(chan struct{})
		go g.run(ctx, g.done)
	}
	g.mu.Unlock()
	var once sync.Once
	return func() { once.Do(func() { g.release(e) }) }
}

// release unregisters e and stops the sampler when no holder is left.
func (g *Guard) release(e *heldBy) {
	g.mu.Lock()
	delete(g.holders, e)
	var done chan struct{}
	if len(g.holders) == 0 && g.cancel != nil {
		g.cancel()
		done = g.done
		g.cancel, g.done = nil, nil
	}
	g.mu.Unlock()
	if done != nil {
		<-done
	}
}

// run runs a round every Period until ctx is done, then closes done.
func (g *Guard) run(ctx context.Context, done chan struct{}) {
	defer close(done)
	tick := g.opts.Clock.NewTicker(g.opts.Period)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C():
			g.Round()
		}
	}
}

// SetMetrics makes m receive the guard's measurements from its next
// round on (nil: none); it is how a program gives DefaultGuard() its
// metrics.
func (g *Guard) SetMetrics(m GuardMetrics) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.metrics = m
}

// Stats returns the guard's counts.
func (g *Guard) Stats() GuardStats {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.stats
}

// holderList returns the registered holders.
func (g *Guard) holderList() []Holder {
	g.mu.Lock()
	defer g.mu.Unlock()
	hs := make([]Holder, 0, len(g.holders))
	for e := range g.holders {
		hs = append(hs, e.h)
	}
	return hs
}

// mutationOf is the Mutation of the sampled copy c.
func mutationOf(c sampled) Mutation {
	return Mutation{Type: typeName(c.typ), p: c.p, n: c.n}
}

// typeName names the Go type whose word typeWord returned.
func typeName(tw unsafe.Pointer) string {
	return typeOfWord(tw).String()
}
