package conformance

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"os"
	"strings"
	"syscall"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
)

// OpKind is the kind of one scenario step.
type OpKind uint8

// The kinds of step.
const (
	// OpChange applies Op.Change.
	OpChange OpKind = iota + 1
	// OpBookmark sends a bookmark.
	OpBookmark
	// OpCloseWatches closes the open watches cleanly.
	OpCloseWatches
	// OpExpire compacts and expires the open watches around Op.Gap.
	OpExpire
	// OpFailWatches makes the next Op.Failures Watch calls of each client
	// fail with Op.Failure, then closes the open watches.
	OpFailWatches
	// OpStartOutage cuts every client off (Server.StartOutage): open
	// watches end, and every call fails with Op.Failure until
	// OpEndOutage.
	OpStartOutage
	// OpEndOutage ends the outage.
	OpEndOutage
)

// FailureKind is the error a failing Watch call returns.
type FailureKind uint8

// The Watch failures.
const (
	// FailPlain is an error without API status: both reflectors relist.
	FailPlain FailureKind = iota + 1
	// FailTooManyRequests is a 429: both reflectors retry the watch.
	FailTooManyRequests
	// FailInternal is a 500: runtime/cache retries the watch, client-go
	// relists.
	FailInternal
	// FailConnectionRefused is a refused TCP connection (the API server
	// is down or unreachable): both reflectors retry the watch.
	FailConnectionRefused
)

// Err returns the error of the failure kind.
func (k FailureKind) Err() error {
	switch k {
	case FailTooManyRequests:
		return apierrors.NewTooManyRequests("conformance: watch throttled", 1)
	case FailInternal:
		return apierrors.NewInternalError(errors.New("conformance: watch failed"))
	case FailConnectionRefused:
		return &net.OpError{Op: "dial", Net: "tcp", Err: os.NewSyscallError("connect", syscall.ECONNREFUSED)}
	}
	return errors.New("conformance: connection lost")
}

var failureNames = [...]string{FailPlain: "plain", FailTooManyRequests: "429", FailInternal: "500", FailConnectionRefused: "refused"}

// Op is one step of a scenario.
type Op struct {
	Kind     OpKind
	Change   Change      // OpChange
	Gap      []Change    // OpExpire
	Failures int         // OpFailWatches
	Failure  FailureKind // OpFailWatches
}

// Disrupts is true for steps that end the open watches; the driver waits
// after them until every informer watches again.
func (o Op) Disrupts() bool {
	return o.Kind == OpCloseWatches || o.Kind == OpExpire || o.Kind == OpFailWatches || o.Kind == OpStartOutage
}

// Apply performs the step on s.
func (o Op) Apply(s *Server) error {
	switch o.Kind {
	case OpChange:
		return s.Apply(o.Change)
	case OpBookmark:
		s.Bookmark()
	case OpCloseWatches:
		s.CloseWatches()
	case OpExpire:
		return s.ExpireWatches(o.Gap)
	case OpFailWatches:
		s.FailWatches(o.Failures, o.Failure.Err())
	case OpStartOutage:
		s.StartOutage(o.Failure.Err())
	case OpEndOutage:
		s.EndOutage()
	default:
		return fmt.Errorf("conformance: unknown op %d", o.Kind)
	}
	return nil
}

// String renders the step for failure messages.
func (o Op) String() string {
	switch o.Kind {
	case OpChange:
		return o.Change.String()
	case OpBookmark:
		return "bookmark"
	case OpCloseWatches:
		return "close-watches"
	case OpExpire:
		gap := make([]string, len(o.Gap))
		for i, c := range o.Gap {
			gap[i] = c.String()
		}
		return "expire[" + strings.Join(gap, " ") + "]"
	case OpFailWatches:
		return fmt.Sprintf("fail-watches(%d x %s)", o.Failures, failureNames[o.Failure])
	case OpStartOutage:
		return fmt.Sprintf("outage(%s)", failureNames[o.Failure])
	case OpEndOutage:
		return "outage-end"
	}
	return fmt.Sprintf("Op(%d)", o.Kind)
}

// Scenario is a seeded script: the objects present before the informers
// start, then the steps.
type Scenario struct {
	Seed    uint64
	Initial []string // keys
	Ops     []Op
	// HoldHandlers blocks both handlers while the steps run, as stalled
	// handlers: runtime/cache may then coalesce notifications per key.
	HoldHandlers bool
	// Backlog is the number of extra objects (BacklogKey(0) ...) present
	// before the informers start, listed ahead of the Initial keys. With
	// Early, it is more than one batch of runtime/cache's informer, so the
	// Initial keys are still queued when the Early changes arrive.
	Backlog int
	// Early are changes made after both informers listed and started
	// watching but while runtime/cache's informer is held from applying
	// its first batch: they queue up behind the not yet applied initial
	// list, in the same queue entries as the listed objects they change.
	Early []Change
}

// earlyBacklog is Scenario.Backlog for scenarios with Early changes:
// more keys than runtime/cache's informer applies in one batch (512).
const earlyBacklog = 600

// BacklogKey is the key of the i-th backlog object. Backlog keys sort
// before every generated key, so a list delivers them first.
func BacklogKey(i int) string { return fmt.Sprintf("ns0/bulk-%04d", i) }

// String renders the scenario for failure messages.
func (sc Scenario) String() string {
	ops := make([]string, len(sc.Ops))
	for i, o := range sc.Ops {
		ops[i] = o.String()
	}
	early := make([]string, len(sc.Early))
	for i, c := range sc.Early {
		early[i] = c.String()
	}
	return fmt.Sprintf("seed %d (hold handlers %t): initial %v + %d backlog; early [%s]; ops %s", sc.Seed, sc.HoldHandlers, sc.Initial, sc.Backlog, strings.Join(early, " "), strings.Join(ops, ", "))
}

// Generation bounds. Each disruption costs the reflectors a back-off of
// 0.8 s doubling per disruption, so scenarios get a small budget of them.
const (
	genNamespaces     = 2
	genNames          = 6
	genMinOps         = 8
	genMaxOps         = 40
	genMaxDisruptions = 3
	genMaxGap         = 6
)

// Generate returns the scenario of seed: a deterministic function of it.
// Every scenario has at least one expiry with a non-empty gap, and at most
// genMaxDisruptions disruption units (a failing watch counting once per
// failure).
func Generate(seed uint64) Scenario {
	w := &scenarioWriter{rng: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)), present: map[string]bool{}}
	for ns := range genNamespaces {
		for n := range genNames {
			w.keys = append(w.keys, fmt.Sprintf("ns%d/cm%d", ns, n))
		}
	}
	sc := Scenario{Seed: seed, HoldHandlers: w.rng.IntN(4) == 0}
	for _, k := range w.keys {
		if w.rng.IntN(2) == 0 {
			w.present[k] = true
			sc.Initial = append(sc.Initial, k)
		}
	}
	if sc.Early = generateEarly(seed, sc.Initial, w.keys, w.present); sc.Early != nil {
		sc.Backlog = earlyBacklog
		// A held handler would coalesce the backlog's notifications,
		// which the initial-list checks skip.
		sc.HoldHandlers = false
	}
	sc.Ops = w.ops()
	return sc
}

// scenarioWriter draws a scenario's steps from its seeded generator, in
// a fixed order (a seed's scenario never changes).
type scenarioWriter struct {
	rng     *rand.Rand
	keys    []string
	present map[string]bool
}

// ops draws the steps: at least one expiry with a non-empty gap, and at
// most genMaxDisruptions disruption units.
func (w *scenarioWriter) ops() []Op {
	var ops []Op
	n := genMinOps + w.rng.IntN(genMaxOps-genMinOps+1)
	budget := 1 + w.rng.IntN(genMaxDisruptions)
	expireAt := w.rng.IntN(n) // where the guaranteed expiry goes
	budget--
	for i := range n {
		r := w.rng.IntN(100)
		disrupt := r >= 8 && r < 18 && budget > 0
		if (i == expireAt || disrupt) && (len(ops) == 0 || ops[len(ops)-1].Disrupts()) {
			// A watch closed before delivering anything is "very short"
			// to client-go, which relists after it and so backs off once
			// more: make sure the current watch delivers something.
			ops = append(ops, Op{Kind: OpBookmark})
		}
		switch {
		case i == expireAt:
			ops = append(ops, w.expire())
		case r < 8:
			ops = append(ops, Op{Kind: OpBookmark})
		case disrupt:
			ops = append(ops, w.disruption(&budget))
		default:
			ops = append(ops, Op{Kind: OpChange, Change: w.change()})
		}
	}
	return ops
}

// disruption draws an expiry, a clean close or failing watches, taking
// their cost from budget.
func (w *scenarioWriter) disruption(budget *int) Op {
	switch d := w.rng.IntN(10); {
	case d < 5:
		*budget--
		return w.expire()
	case d < 7:
		*budget--
		return Op{Kind: OpCloseWatches}
	default:
		f := 1 + w.rng.IntN(min(*budget, 2))
		*budget -= f
		return Op{Kind: OpFailWatches, Failures: f, Failure: FailureKind(1 + w.rng.IntN(3))}
	}
}

// change draws a change to one of the keys.
func (w *scenarioWriter) change() Change {
	k := w.keys[w.rng.IntN(len(w.keys))]
	if !w.present[k] {
		w.present[k] = true
		return Change{Kind: ChangeAdd, Key: k}
	}
	switch r := w.rng.IntN(8); {
	case r < 4:
		return Change{Kind: ChangeUpdate, Key: k}
	case r < 6:
		delete(w.present, k)
		return Change{Kind: ChangeDelete, Key: k}
	default:
		return Change{Kind: ChangeRecreate, Key: k}
	}
}

// expire draws an expiry with a gap of changes.
func (w *scenarioWriter) expire() Op {
	gap := make([]Change, 1+w.rng.IntN(genMaxGap))
	for i := range gap {
		gap[i] = w.change()
	}
	return Op{Kind: OpExpire, Gap: gap}
}

// generateEarly gives about a third of the seeds an early phase: a backlog
// and changes that reach runtime/cache's queue while the initial list is
// still in it, starting with the re-creation of a listed object (whose
// new add is not part of the initial list). It draws from its own
// generator so the other seeds' scenarios are unchanged. It returns the
// early changes, updating present.
func generateEarly(seed uint64, initial []string, keys []string, present map[string]bool) []Change {
	rng := rand.New(rand.NewPCG(seed^0x6a09e667f3bcc909, seed))
	if rng.IntN(3) != 0 || len(initial) == 0 {
		return nil
	}
	early := []Change{{Kind: ChangeRecreate, Key: initial[rng.IntN(len(initial))]}}
	for range rng.IntN(4) {
		k := keys[rng.IntN(len(keys))]
		switch {
		case !present[k]:
			present[k] = true
			early = append(early, Change{Kind: ChangeAdd, Key: k})
		case rng.IntN(2) == 0:
			early = append(early, Change{Kind: ChangeUpdate, Key: k})
		default:
			delete(present, k)
			early = append(early, Change{Kind: ChangeDelete, Key: k})
		}
	}
	return early
}
