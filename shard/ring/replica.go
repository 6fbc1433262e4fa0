package ring

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	coordinationv1 "k8s.io/api/coordination/v1"
	coordinationv1client "k8s.io/client-go/kubernetes/typed/coordination/v1"
	"k8s.io/klog/v2"
	"k8s.io/utils/clock"
)

// Target is where a replica's ranges go: the shard its informers hold.
type Target interface {
	// Set makes rs the shard of every informer of the replica and returns
	// once each has applied it: its cache holds exactly the objects of rs
	// and its handlers were handed the adds and deletes. An error (ctx
	// done) leaves the informers holding the old shard or rs.
	Set(ctx context.Context, rs Ranges) error
}

// Config configures a Replica.
type Config struct {
	// Client reads and writes the ring's Leases.
	Client coordinationv1client.LeasesGetter
	// Namespace holds the ring's Leases.
	Namespace string
	// Ring names the ring: the value of RingLabel on its Leases, and the
	// prefix of their names.
	Ring string
	// Identity names this replica in the ring (its Lease's holder); it
	// must be unique among the ring's replicas, such as the Pod name.
	Identity string
	// Target receives the replica's ranges.
	Target Target
	// LeaseDuration is how long the others wait after they saw a renewal
	// before they take the replica's ranges; 15s by default.
	LeaseDuration time.Duration
	// RenewDeadline is how long the replica keeps its ranges without a
	// successful renewal; it must be below LeaseDuration, which leaves
	// the difference to narrow the informers to nothing. 10s by default.
	RenewDeadline time.Duration
	// RenewPeriod is how often the Lease is renewed; 2s by default. The
	// replica also looks at the ring every RenewPeriod/2 and whenever a
	// Lease of the ring changes.
	RenewPeriod time.Duration
	// VirtualNodes is the number of points of each member on the ring;
	// DefaultVirtualNodes by default. Every replica of a ring must use
	// the same.
	VirtualNodes int
	// Clock is the real clock by default.
	Clock clock.WithTicker
}

// withDefaults fills the zero fields of c and checks it.
func (c Config) withDefaults() (Config, error) {
	if c.LeaseDuration == 0 {
		c.LeaseDuration = 15 * time.Second
	}
	if c.RenewDeadline == 0 {
		c.RenewDeadline = 10 * time.Second
	}
	if c.RenewPeriod == 0 {
		c.RenewPeriod = 2 * time.Second
	}
	if c.VirtualNodes == 0 {
		c.VirtualNodes = DefaultVirtualNodes
	}
	if c.Clock == nil {
		c.Clock = clock.RealClock{}
	}
	switch {
	case c.Client == nil || c.Target == nil:
		return c, errors.New("ring.Config: Client and Target are required")
	case c.Namespace == "" || c.Ring == "" || c.Identity == "":
		return c, errors.New("ring.Config: Namespace, Ring and Identity are required")
	case c.LeaseDuration < time.Second || c.LeaseDuration%time.Second != 0:
		return c, fmt.Errorf("ring.Config: LeaseDuration %v: want whole seconds, at least one", c.LeaseDuration)
	case c.RenewDeadline >= c.LeaseDuration || c.RenewPeriod >= c.RenewDeadline:
		return c, fmt.Errorf("ring.Config: want RenewPeriod (%v) < RenewDeadline (%v) < LeaseDuration (%v)", c.RenewPeriod, c.RenewDeadline, c.LeaseDuration)
	}
	return c, nil
}

// Replica is one member of a ring: it holds a Lease, renews it, watches
// the others' and drives its Target to its part of the hash space,
// taking points only from members that released them or whose Lease
// expired. See state.go for the protocol.
type Replica struct {
	cfg    Config
	timing timing

	// st, lv and lease belong to the goroutine calling reconcile (Run's).
	st    state
	lv    liveness
	lease *coordinationv1.Lease // as last written or read
	// assigned is the assignment over the members assignedTo.
	assigned   map[string]Ranges
	assignedTo []string

	// mu guards held, what Held reports.
	mu   sync.Mutex
	held Ranges
}

// New returns a Replica of cfg that is not running.
func New(cfg Config) (*Replica, error) {
	cfg, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	return &Replica{cfg: cfg, timing: timing{renewPeriod: cfg.RenewPeriod, renewDeadline: cfg.RenewDeadline}}, nil
}

// Held is what the replica's informers may hold: the set it last applied
// to its Target (with, after a failed Set, the set it tried).
func (r *Replica) Held() Ranges {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.held
}

// Run joins the ring and keeps the replica's part of it until ctx is
// done; it then narrows the Target to nothing, deletes the Lease (so the
// others take over at once, not after LeaseDuration) and returns.
func (r *Replica) Run(ctx context.Context) error {
	f, inf := newLeaseFactory(r.cfg.Client, r.cfg.Namespace, r.cfg.Ring, r.cfg.RenewPeriod)
	changed := make(chan struct{}, 1)
	poke := func() {
		select {
		case changed <- struct{}{}:
		default:
		}
	}
	if _, err := inf.AddEventHandler(pokeHandler(poke)); err != nil {
		return err
	}
	f.Start(ctx)
	defer f.Shutdown()
	if err := f.WaitForCacheSync(ctx).AsError(); err != nil {
		return fmt.Errorf("ring %s: leases in %s: %w", r.cfg.Ring, r.cfg.Namespace, err)
	}
	ticker := r.cfg.Clock.NewTicker(r.cfg.RenewPeriod / 2)
	defer ticker.Stop()
	for {
		r.reconcile(ctx, leasesOf(inf), false)
		select {
		case <-ctx.Done():
			leaveCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), r.cfg.LeaseDuration)
			defer cancel()
			r.reconcile(leaveCtx, leasesOf(inf), true)
			return nil
		case <-ticker.C():
		case <-changed:
		}
	}
}

// reconcile looks at the ring through leases and carries out the
// actions the step function asks for until it asks for none.
func (r *Replica) reconcile(ctx context.Context, leases []*coordinationv1.Lease, stopping bool) {
	now := r.cfg.Clock.Now()
	e := event{kind: evTick, at: now, view: r.view(now, leases, stopping)}
	for {
		st, act := r.st.next(e, r.timing)
		if joined(r.st.phase, st.phase) {
			r.lv.forget()
		}
		if st.phase != r.st.phase {
			klog.FromContext(ctx).V(4).Info("ring member", "ring", r.cfg.Ring, "identity", r.cfg.Identity, "from", r.st.phase, "to", st.phase, "event", e.kind, "action", act.kind)
		}
		r.st = st
		r.mu.Lock()
		r.held = st.held
		r.mu.Unlock()
		if act.kind == actNone || ctx.Err() != nil {
			return
		}
		e = r.do(ctx, act)
	}
}

// do carries out act and says how it ended.
func (r *Replica) do(ctx context.Context, act action) event {
	start := r.cfg.Clock.Now()
	var err error
	var ok, failed eventKind
	switch act.kind {
	case actRecord:
		recordCtx, cancel := r.until(ctx, r.recordDeadline(start))
		err, ok, failed = r.record(recordCtx, act.ranges, start), evRecorded, evRecordFailed
		if err != nil && errors.Is(context.Cause(recordCtx), context.DeadlineExceeded) {
			err = fmt.Errorf("no answer by the renew deadline: %w", err)
		}
		cancel()
	case actApply:
		// Bounded, so that a slow relist does not hold up the renewals:
		// the Lease was renewed (by a claim) or is about to be given up.
		applyCtx, cancel := context.WithTimeout(ctx, r.cfg.RenewDeadline-r.cfg.RenewPeriod)
		err, ok, failed = r.cfg.Target.Set(applyCtx, act.ranges), evApplied, evApplyFailed
		cancel()
	case actDelete:
		err, ok, failed = r.deleteLease(ctx), evDeleted, evDeleteFailed
	}
	if err != nil {
		klog.FromContext(ctx).Error(err, "ring member", "ring", r.cfg.Ring, "identity", r.cfg.Identity, "action", act.kind)
		return event{kind: failed, at: start}
	}
	return event{kind: ok, at: start}
}

// recordDeadline is when, on the replica's clock, a Lease write started at
// start is given up: at
// the renew deadline of what the replica holds (the last renewal plus
// RenewDeadline), so that a write the server does not answer (one
// starting up; a connection held open without an answer) cannot keep the
// replica from seeing that it lost its Lease and letting its ranges go
// before the others take them; RenewDeadline after start when it holds
// nothing.
func (r *Replica) recordDeadline(start time.Time) time.Time {
	if r.st.held.Empty() || r.st.renewedAt.IsZero() {
		return start.Add(r.cfg.RenewDeadline)
	}
	return r.st.renewedAt.Add(r.cfg.RenewDeadline)
}

// until returns a context that ends with ctx or at deadline on the
// replica's clock (a fake one in tests), and its cancel function, which
// the caller must call.
func (r *Replica) until(ctx context.Context, deadline time.Time) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancelCause(ctx)
	t := r.cfg.Clock.NewTimer(deadline.Sub(r.cfg.Clock.Now()))
	go func() {
		defer t.Stop()
		select {
		case <-t.C():
			cancel(context.DeadlineExceeded)
		case <-ctx.Done():
		}
	}()
	return ctx, func() { cancel(context.Canceled) }
}

// view is what the replica sees of the ring at now through leases.
func (r *Replica) view(now time.Time, leases []*coordinationv1.Lease, stopping bool) view {
	var others []member
	var own Ranges
	for _, l := range leases {
		m, err := parseLease(l)
		if err != nil {
			klog.Background().Error(err, "ignoring a Lease of the ring", "ring", r.cfg.Ring)
			continue
		}
		if m.identity != r.cfg.Identity {
			others = append(others, m)
		} else {
			own = m.recorded
		}
	}
	v := viewOf(r.cfg.Identity, r.lv.live(now, others), r.assign, stopping)
	v.own = own
	return v
}

// assign is Assign over ids, computed again only when they change.
func (r *Replica) assign(ids []string) map[string]Ranges {
	ids = slices.Sorted(slices.Values(ids))
	if !slices.Equal(ids, r.assignedTo) {
		r.assignedTo, r.assigned = ids, Assign(ids, r.cfg.VirtualNodes)
	}
	return r.assigned
}

// viewOf is the view of self given the other live members and the
// assignment function.
func viewOf(self string, live []member, assign func(ids []string) map[string]Ranges, stopping bool) view {
	ids := []string{self}
	for _, m := range live {
		ids = append(ids, m.identity)
	}
	desired := assign(ids)[self]
	free := desired
	for _, m := range live {
		if !free.Empty() {
			free = free.Subtract(m.recorded)
		}
	}
	return view{desired: desired, free: free, stopping: stopping}
}
