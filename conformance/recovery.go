package conformance

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"time"
)

// FaultClass is the kind of fault a recovery script injects.
type FaultClass uint8

// The fault classes, in report order.
const (
	// FaultWatchClosed: the server closes the open watches cleanly, up to
	// three times in quick succession.
	FaultWatchClosed FaultClass = iota + 1
	// FaultConnectionRefused: an outage, during which every call is
	// refused, once or twice.
	FaultConnectionRefused
	// FaultGone: the open watches end with 410 Gone after a compaction
	// that hides changes, once or twice.
	FaultGone
	// FaultCompactedWhileDisconnected: an outage during which the server
	// changes and compacts, so the watch cannot resume when it ends.
	FaultCompactedWhileDisconnected
	// FaultSlowHandlerRelist: 410 Gone and a relist of a few hundred
	// objects while the handler takes a millisecond per call.
	FaultSlowHandlerRelist
)

// FaultClasses lists every fault class in report order.
var FaultClasses = []FaultClass{FaultWatchClosed, FaultConnectionRefused, FaultGone, FaultCompactedWhileDisconnected, FaultSlowHandlerRelist}

var faultNames = [...]string{
	FaultWatchClosed:                "watch closed",
	FaultConnectionRefused:          "connection refused",
	FaultGone:                       "410 Gone",
	FaultCompactedWhileDisconnected: "compaction while disconnected",
	FaultSlowHandlerRelist:          "slow handler during a relist",
}

// String returns the class's name as the report prints it.
func (c FaultClass) String() string {
	if int(c) < len(faultNames) && faultNames[c] != "" {
		return faultNames[c]
	}
	return fmt.Sprintf("FaultClass(%d)", uint8(c))
}

// Step is one timed step of a recovery script: wait After, then apply Op.
type Step struct {
	After time.Duration
	Op    Op
}

// RecoveryScript is a seeded script of faults played against both
// informers at once, without waiting for them between steps. Its last step
// is the end of the last fault (the fault itself, or the end of an
// outage): recovery is measured from there.
type RecoveryScript struct {
	Class FaultClass
	Seed  uint64
	// Initial is the number of objects present before the informers start.
	Initial int
	// HandlerDelay is how long each handler call takes.
	HandlerDelay time.Duration
	Steps        []Step
}

// String renders the script for failure messages.
func (sc RecoveryScript) String() string {
	steps := make([]string, len(sc.Steps))
	for i, s := range sc.Steps {
		steps[i] = fmt.Sprintf("+%v %v", s.After, s.Op)
	}
	return fmt.Sprintf("%s seed %d: %d objects, handler delay %v; %s", sc.Class, sc.Seed, sc.Initial, sc.HandlerDelay, strings.Join(steps, ", "))
}

// scriptWriter builds a recovery script's steps with a seeded generator.
type scriptWriter struct {
	rng     *rand.Rand
	keys    []string
	present map[string]bool
	steps   []Step
}

// between returns a duration in [lo, hi).
func (w *scriptWriter) between(lo, hi time.Duration) time.Duration {
	return lo + time.Duration(w.rng.Int64N(int64(hi-lo)))
}

func (w *scriptWriter) add(after time.Duration, op Op) {
	w.steps = append(w.steps, Step{After: after, Op: op})
}

// change returns a random change to the objects.
func (w *scriptWriter) change() Change {
	k := w.keys[w.rng.IntN(len(w.keys))]
	if !w.present[k] {
		w.present[k] = true
		return Change{Kind: ChangeAdd, Key: k}
	}
	switch r := w.rng.IntN(8); {
	case r < 5:
		return Change{Kind: ChangeUpdate, Key: k}
	case r < 7:
		delete(w.present, k)
		return Change{Kind: ChangeDelete, Key: k}
	default:
		return Change{Kind: ChangeRecreate, Key: k}
	}
}

// changes adds one to three changes, 10-60 ms apart.
func (w *scriptWriter) changes() {
	for range 1 + w.rng.IntN(3) {
		w.add(w.between(10*time.Millisecond, 60*time.Millisecond), Op{Kind: OpChange, Change: w.change()})
	}
}

// gap returns one to four changes made inside an expiry.
func (w *scriptWriter) gap() []Change {
	gap := make([]Change, 1+w.rng.IntN(4))
	for i := range gap {
		gap[i] = w.change()
	}
	return gap
}

// GenerateRecovery returns the script of class and seed: a deterministic
// function of both.
func GenerateRecovery(class FaultClass, seed uint64) RecoveryScript {
	sc := RecoveryScript{Class: class, Seed: seed, Initial: 20}
	if class == FaultSlowHandlerRelist {
		sc.Initial, sc.HandlerDelay = 300, time.Millisecond
	}
	w := &scriptWriter{rng: rand.New(rand.NewPCG(seed, uint64(class))), present: map[string]bool{}}
	for i := range sc.Initial + 5 {
		k := fmt.Sprintf("ns%d/cm%03d", i%2, i)
		w.keys = append(w.keys, k)
		w.present[k] = i < sc.Initial
	}
	switch class {
	case FaultWatchClosed:
		for range 1 + w.rng.IntN(3) {
			w.changes()
			w.add(w.between(10*time.Millisecond, 60*time.Millisecond), Op{Kind: OpCloseWatches})
		}
	case FaultConnectionRefused:
		for i := range 1 + w.rng.IntN(2) {
			if i > 0 {
				w.add(w.between(300*time.Millisecond, 1500*time.Millisecond), Op{Kind: OpBookmark})
			}
			w.changes()
			w.add(w.between(10*time.Millisecond, 60*time.Millisecond), Op{Kind: OpStartOutage, Failure: FailConnectionRefused})
			w.changes()
			w.add(w.between(200*time.Millisecond, 2*time.Second), Op{Kind: OpEndOutage})
		}
	case FaultGone, FaultSlowHandlerRelist:
		for range 1 + w.rng.IntN(2) {
			w.changes()
			w.add(w.between(10*time.Millisecond, 60*time.Millisecond), Op{Kind: OpExpire, Gap: w.gap()})
		}
	case FaultCompactedWhileDisconnected:
		w.changes()
		w.add(w.between(10*time.Millisecond, 60*time.Millisecond), Op{Kind: OpStartOutage, Failure: FailConnectionRefused})
		w.add(w.between(100*time.Millisecond, 500*time.Millisecond), Op{Kind: OpExpire, Gap: w.gap()})
		w.add(w.between(100*time.Millisecond, 1500*time.Millisecond), Op{Kind: OpEndOutage})
	}
	sc.Steps = w.steps
	return sc
}

// Recovery is what one run of a recovery script measured.
type Recovery struct {
	Script RecoveryScript
	// ClientGo and Ours are the times from the script's last step until
	// the informer's cache and handler reached the server's final state.
	ClientGo, Ours time.Duration
	// Calls are the List and Watch calls each informer made.
	ClientGoLists, ClientGoWatches, OurLists, OurWatches int
}

// recoveryPoll is how often RunRecovery checks whether an informer has
// recovered: the resolution of its measurements.
const recoveryPoll = time.Millisecond

// RunRecovery plays sc against client-go's informer and ours, both
// watching one Server through their own Client: both start, sync and
// receive the initial list, then the steps run on their own clock. After
// the last step the server gets one more object (SentinelKey), and
// RunRecovery measures, for each informer, the time from the last step
// until its cache and its handler's view equal the server's final state.
func RunRecovery(ctx context.Context, sc RecoveryScript) (Recovery, error) {
	srv := NewServer()
	for _, k := range initialKeys(sc) {
		if err := srv.Apply(Change{Kind: ChangeAdd, Key: k}); err != nil {
			return Recovery{}, err
		}
	}
	h := startPair(ctx, srv, pairOptions{handlerDelay: sc.HandlerDelay})
	defer h.stop()
	rec := Recovery{Script: sc}
	initial := srv.State()
	if err := poll(ctx, func() bool { return srv.Watching() && h.cg.reached(initial) && h.ours.reached(initial) }); err != nil {
		return rec, fmt.Errorf("informers did not sync before the faults: %w", err)
	}
	for i, s := range sc.Steps {
		if !wait(ctx, s.After) {
			return rec, fmt.Errorf("step %d: %w", i, ctx.Err())
		}
		if err := s.Op.Apply(srv); err != nil {
			return rec, fmt.Errorf("step %d %v: %w", i, s.Op, err)
		}
	}
	start := time.Now()
	if err := srv.Apply(Change{Kind: ChangeAdd, Key: SentinelKey}); err != nil {
		return rec, err
	}
	err := h.measure(ctx, srv.State(), start, &rec)
	h.stop()
	rec.ClientGoLists, rec.ClientGoWatches = h.cg.client.Calls()
	rec.OurLists, rec.OurWatches = h.ours.client.Calls()
	return rec, err
}

// measure waits until both informers reached final and records, in rec,
// the time each took since start.
func (h *informerPair) measure(ctx context.Context, final map[string]State, start time.Time, rec *Recovery) error {
	var cgDone, oursDone bool
	err := pollEvery(ctx, recoveryPoll, func() bool {
		if !cgDone && h.cg.reached(final) {
			cgDone, rec.ClientGo = true, time.Since(start)
		}
		if !oursDone && h.ours.reached(final) {
			oursDone, rec.Ours = true, time.Since(start)
		}
		return cgDone && oursDone
	})
	if err != nil {
		return fmt.Errorf("recovered: client-go %t, runtime/cache %t: %w", cgDone, oursDone, err)
	}
	return nil
}

// initialKeys are the keys of sc's initial objects.
func initialKeys(sc RecoveryScript) []string {
	keys := make([]string, sc.Initial)
	for i := range keys {
		keys[i] = fmt.Sprintf("ns%d/cm%03d", i%2, i)
	}
	return keys
}

// wait sleeps for d; it returns false, early, when ctx is done.
func wait(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}
