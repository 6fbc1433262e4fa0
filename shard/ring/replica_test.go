package ring

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	coordinationv1 "k8s.io/api/coordination/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/kubernetes/fake"
	coordinationv1client "k8s.io/client-go/kubernetes/typed/coordination/v1"
	k8stesting "k8s.io/client-go/testing"
	testingclock "k8s.io/utils/clock/testing"
)

const (
	testNamespace = "ring-test"
	testRing      = "widgets"
)

// harness runs replicas of one ring over a fake clientset and a fake
// clock, one reconcile per replica per round of one second, and checks
// after every change of any replica's informers that no two live
// replicas hold a point of the hash space.
type harness struct {
	t      *testing.T
	client *fake.Clientset
	clock  *testingclock.FakeClock

	// mu guards the fields below.
	mu       sync.Mutex
	targets  map[string]*fakeTarget
	dead     map[string]bool // crashed: their informers are gone
	blocked  map[string]bool // their Lease writes fail
	hanging  map[string]bool // their Lease writes wait until the writer gives up
	overlaps int
}

// fakeTarget applies a set at once and has the harness check it.
type fakeTarget struct {
	h  *harness
	id string
	// held and setAt, guarded by h.mu: the set last applied, and when on
	// the harness's clock.
	held  Ranges
	setAt time.Time
}

func (ft *fakeTarget) Set(_ context.Context, rs Ranges) error {
	ft.h.mu.Lock()
	defer ft.h.mu.Unlock()
	ft.held, ft.setAt = rs, ft.h.clock.Now()
	ft.h.checkDisjointLocked()
	return nil
}

func newHarness(t *testing.T) *harness {
	h := &harness{t: t, client: fake.NewClientset(), clock: testingclock.NewFakeClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)),
		targets: map[string]*fakeTarget{}, dead: map[string]bool{}, blocked: map[string]bool{}, hanging: map[string]bool{}}
	failBlocked := func(a k8stesting.Action) (bool, runtime.Object, error) {
		name := ""
		switch a := a.(type) {
		case k8stesting.GetAction:
			name = a.GetName()
		case k8stesting.UpdateAction: // and CreateAction, the same interface
			name = a.GetObject().(*coordinationv1.Lease).Name
		}
		h.mu.Lock()
		defer h.mu.Unlock()
		if h.blocked[name] {
			return true, nil, errors.New("connection refused")
		}
		return false, nil, nil
	}
	for _, verb := range []string{"get", "update", "create"} {
		h.client.PrependReactor(verb, "leases", failBlocked)
	}
	h.client.PrependWatchReactor("leases", copyingWatch(h.client.Tracker()))
	return h
}

// hangingLeases is the harness's Leases client: the writes of a Lease
// marked hanging wait until their context ends, as against an API server
// that accepts the request and does not answer (one starting up, a
// connection a proxy holds open). The clock moves on meanwhile, 100ms at
// a time, up to a minute.
type hangingLeases struct {
	coordinationv1client.LeasesGetter
	h *harness
}

func (l hangingLeases) Leases(namespace string) coordinationv1client.LeaseInterface {
	return hangingLeaseClient{l.LeasesGetter.Leases(namespace), l.h}
}

type hangingLeaseClient struct {
	coordinationv1client.LeaseInterface
	h *harness
}

func (c hangingLeaseClient) Update(ctx context.Context, l *coordinationv1.Lease, opts metav1.UpdateOptions) (*coordinationv1.Lease, error) {
	if err := c.h.hang(ctx, l.Name); err != nil {
		return nil, err
	}
	return c.LeaseInterface.Update(ctx, l, opts)
}

// hang waits, moving the clock, while the Lease name is marked hanging:
// until ctx ends (its error), or a minute passed on the clock.
func (h *harness) hang(ctx context.Context, name string) error {
	h.mu.Lock()
	hanging := h.hanging[name]
	h.mu.Unlock()
	if !hanging {
		return nil
	}
	for range 600 {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Millisecond): // lets the writer's timer fire
		}
		h.clock.Step(100 * time.Millisecond)
	}
	return errors.New("no answer for a minute")
}

// copyingWatch serves watches from tracker with every event's object
// copied. client-go v0.37's tracker hands a new watch the objects stored
// since the given resource version as they are stored (fixture.go,
// tracker.Watch: fakewatcher.Add(obj.Object)), and the informer compacts
// what it receives in place: without the copy the race detector sees the
// informer write into the tracker's object while a Get copies it.
func copyingWatch(tracker k8stesting.ObjectTracker) k8stesting.WatchReactionFunc {
	return func(action k8stesting.Action) (bool, watch.Interface, error) {
		var opts metav1.ListOptions
		if w, ok := action.(k8stesting.WatchActionImpl); ok {
			opts = w.ListOptions
		}
		w, err := tracker.Watch(action.GetResource(), action.GetNamespace(), opts)
		if err != nil {
			return false, nil, err
		}
		return true, watch.Filter(w, func(e watch.Event) (watch.Event, bool) {
			if e.Object != nil {
				e.Object = e.Object.DeepCopyObject()
			}
			return e, true
		}), nil
	}
}

func (h *harness) checkDisjointLocked() {
	for a, ta := range h.targets {
		for b, tb := range h.targets {
			if a < b && !h.dead[a] && !h.dead[b] && !ta.held.Intersect(tb.held).Empty() {
				h.overlaps++
				h.t.Errorf("at %v live replicas %s and %s both hold %v", h.clock.Now(), a, b, ta.held.Intersect(tb.held))
			}
		}
	}
}

func (h *harness) newReplica(id string) *Replica {
	h.mu.Lock()
	ft := &fakeTarget{h: h, id: id}
	h.targets[id] = ft
	h.mu.Unlock()
	r, err := New(Config{Client: hangingLeases{h.client.CoordinationV1(), h}, Namespace: testNamespace, Ring: testRing, Identity: id,
		Target: ft, Clock: h.clock, LeaseDuration: 15 * time.Second, RenewDeadline: 10 * time.Second, RenewPeriod: 2 * time.Second})
	if err != nil {
		h.t.Fatal(err)
	}
	return r
}

func (h *harness) leases() []*coordinationv1.Lease {
	list, err := h.client.CoordinationV1().Leases(testNamespace).List(context.Background(), metav1.ListOptions{LabelSelector: RingLabel + "=" + testRing})
	if err != nil {
		h.t.Fatal(err)
	}
	out := make([]*coordinationv1.Lease, len(list.Items))
	for i := range list.Items {
		out[i] = &list.Items[i]
	}
	return out
}

// round reconciles each replica not dead, in order, then moves the clock
// one second.
func (h *harness) round(rs map[string]*Replica) {
	ids := slices.Sorted(func(yield func(string) bool) {
		for id := range rs {
			if !yield(id) {
				return
			}
		}
	})
	for _, id := range ids {
		h.mu.Lock()
		dead := h.dead[id]
		h.mu.Unlock()
		if !dead {
			rs[id].reconcile(context.Background(), h.leases(), false)
		}
	}
	h.clock.Step(time.Second)
}

// converged reports whether the replicas not dead hold exactly the
// assignment over them.
func (h *harness) converged(rs map[string]*Replica) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	var ids []string
	for id := range rs {
		if !h.dead[id] {
			ids = append(ids, id)
		}
	}
	want := Assign(ids, DefaultVirtualNodes)
	for _, id := range ids {
		if !h.targets[id].held.Equal(want[id]) {
			return false
		}
	}
	return true
}

func (h *harness) held(id string) Ranges {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.targets[id].held
}

// converge runs rounds until the replicas converge, at most limit.
func (h *harness) converge(rs map[string]*Replica, limit int) int {
	for n := 1; n <= limit; n++ {
		h.round(rs)
		if h.converged(rs) {
			return n
		}
	}
	h.t.Fatalf("not converged after %d rounds", limit)
	return 0
}

func startReplicas(h *harness, n int) map[string]*Replica {
	rs := map[string]*Replica{}
	for i := range n {
		id := fmt.Sprintf("r%d", i)
		rs[id] = h.newReplica(id)
	}
	return rs
}

func TestThreeReplicasConvergeToDisjointRangesCoveringTheSpace(t *testing.T) {
	h := newHarness(t)
	rs := startReplicas(h, 3)
	h.converge(rs, 10)
	var union Ranges
	for id := range rs {
		union = union.Union(h.held(id))
		if f := h.held(id).Fraction(); f < 0.8/3 || f > 1.2/3 {
			t.Errorf("%s holds %.3f of the space, want about 1/3", id, f)
		}
	}
	if !union.Equal(Full()) {
		t.Errorf("union %v, want the whole space", union)
	}
	// Steady state: more rounds change nothing and renew the Leases.
	for range 20 {
		h.round(rs)
		if !h.converged(rs) {
			t.Fatal("left the converged state with no membership change")
		}
	}
}

// A replica that stops renewing (crashed, or cut off from the API
// server while its informers run on) loses its ranges; the others take
// them only after its Lease expired in their eyes, and a replica cut off
// has dropped them by then.
func TestRangesOfAReplicaThatStopsRenewingMoveOnlyAfterExpiry(t *testing.T) {
	tests := []struct {
		name    string
		crashed bool
	}{
		{name: "cut off from the API server", crashed: false},
		{name: "crashed", crashed: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t)
			rs := startReplicas(h, 3)
			h.converge(rs, 10)
			for range 3 {
				h.round(rs)
			}
			lost := h.held("r2")
			lease, err := h.client.CoordinationV1().Leases(testNamespace).Get(context.Background(), leaseName(testRing, "r2"), metav1.GetOptions{})
			if err != nil {
				t.Fatal(err)
			}
			h.mu.Lock()
			h.blocked[lease.Name], h.dead["r2"] = true, tt.crashed
			h.mu.Unlock()
			expiry := lease.Spec.RenewTime.Add(15 * time.Second)
			for range 40 {
				h.round(rs)
				for _, id := range []string{"r0", "r1"} {
					if took := h.held(id).Intersect(lost); !took.Empty() && h.clock.Now().Before(expiry) {
						t.Fatalf("at %v %s holds %v of r2's ranges; r2's Lease expires at %v", h.clock.Now(), id, took, expiry)
					}
				}
				if h.held("r0").Union(h.held("r1")).Equal(Full()) {
					break
				}
			}
			if got := h.held("r0").Union(h.held("r1")); !got.Equal(Full()) {
				t.Fatalf("r0 and r1 hold %v after expiry, want the whole space", got)
			}
			if !tt.crashed && !h.held("r2").Empty() {
				t.Errorf("r2, cut off, still holds %v", h.held("r2"))
			}
		})
	}
}

// A replica whose Lease writes the server does not answer gives its
// write up at its renew deadline and lets its ranges go before its Lease
// expires in the others' eyes, though the write never returned.
func TestAReplicaWhoseLeaseWritesHangLetsGoBeforeItsLeaseExpires(t *testing.T) {
	h := newHarness(t)
	rs := startReplicas(h, 3)
	h.converge(rs, 10)
	for range 3 {
		h.round(rs)
	}
	name := leaseName(testRing, "r2")
	h.mu.Lock()
	h.hanging[name] = true
	h.mu.Unlock()
	for range 40 {
		h.round(rs)
		if h.held("r2").Empty() {
			break
		}
	}
	lease, err := h.client.CoordinationV1().Leases(testNamespace).Get(context.Background(), name, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	expiry := lease.Spec.RenewTime.Add(15 * time.Second)
	h.mu.Lock()
	defer h.mu.Unlock()
	switch r2 := h.targets["r2"]; {
	case !r2.held.Empty():
		t.Fatalf("r2 still holds %v at %v", r2.held, h.clock.Now())
	case r2.setAt.After(expiry):
		t.Errorf("r2 let its ranges go at %v, after its Lease (renewed at %v) expired at %v", r2.setAt, lease.Spec.RenewTime.Time, expiry)
	}
}

// A replica joining takes about 1/N of the space, and only ranges their
// owners released first.
func TestAJoiningReplicaTakesAboutOneNthAfterReleases(t *testing.T) {
	h := newHarness(t)
	rs := startReplicas(h, 3)
	h.converge(rs, 10)
	before := map[string]Ranges{}
	for id := range rs {
		before[id] = h.held(id)
	}
	rs["r3"] = h.newReplica("r3")
	h.converge(rs, 10)
	moved := 0.0
	for id, was := range before {
		moved += was.Subtract(h.held(id)).Fraction()
		if gained := h.held(id).Subtract(was); !gained.Empty() {
			t.Errorf("%s gained %v on a join", id, gained)
		}
	}
	if took := h.held("r3").Fraction(); took < 0.6/4 || took > 1.4/4 || moved-took > 1e-9 || took-moved > 1e-9 {
		t.Errorf("r3 took %.3f, %.3f moved; want about 1/4, all of it to r3", took, moved)
	}
}

// A replica leaving narrows to nothing and deletes its Lease: the others
// take over without waiting for its Lease to expire.
func TestALeavingReplicaHandsOverWithoutWaitingForExpiry(t *testing.T) {
	h := newHarness(t)
	rs := startReplicas(h, 3)
	h.converge(rs, 10)
	rs["r1"].reconcile(context.Background(), h.leases(), true)
	if !h.held("r1").Empty() {
		t.Fatalf("r1 left holding %v", h.held("r1"))
	}
	delete(rs, "r1")
	if n := h.converge(rs, 3); n > 3 {
		t.Errorf("took %d rounds", n)
	}
}
