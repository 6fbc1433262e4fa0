package ring

import (
	"context"
	"sync"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/util/wait"
)

// Replicas running their own loop, which watches the ring through a
// Lease informer of informer-gen's runtime, converge; one stopped leaves
// and the others take over its ranges.
func TestRunningReplicasConvergeAndHandOverWhenOneStops(t *testing.T) {
	h := newHarness(t)
	rs := startReplicas(h, 3)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	stops := map[string]context.CancelFunc{}
	var wg sync.WaitGroup
	for id, r := range rs {
		rctx, stop := context.WithCancel(ctx)
		stops[id] = stop
		wg.Go(func() {
			if err := r.Run(rctx); err != nil {
				t.Errorf("%s: Run: %v", id, err)
			}
		})
	}
	waitConverged := func(what string) {
		t.Helper()
		// The fake clock moves 100ms a poll: the replicas' tickers fire
		// (a replica that withdrew a contested claim tries again at a
		// tick) and their Leases are renewed well within their duration.
		err := wait.PollUntilContextTimeout(ctx, 10*time.Millisecond, time.Minute, true, func(context.Context) (bool, error) {
			h.clock.Step(100 * time.Millisecond)
			return h.converged(rs), nil
		})
		if err != nil {
			t.Fatalf("%s: not converged: %v", what, err)
		}
	}
	waitConverged("three replicas")
	stops["r0"]()
	h.mu.Lock()
	h.dead["r0"] = true
	h.mu.Unlock()
	waitConverged("after r0 stopped")
	if !h.held("r1").Union(h.held("r2")).Equal(Full()) {
		t.Errorf("r1 and r2 hold %v, want the whole space", h.held("r1").Union(h.held("r2")))
	}
	cancel()
	wg.Wait()
	for id := range rs {
		if !h.held(id).Empty() {
			t.Errorf("%s stopped holding %v", id, h.held(id))
		}
	}
}
