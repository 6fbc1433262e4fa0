package ring

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/informer-gen/informer-gen/runtime/cache/cachetest"
)

// simSize is the most replicas of the scenario: 30 in the test command,
// 100 in the scale job (SCALE=1).
func simSize() int { return cachetest.Scale(30, 100) }

// simDefaults are the Replica defaults, a watch that delivers in 100ms
// and informers that take a second to apply a new shard.
var simDefaults = simParams{leaseDuration: 15 * time.Second, renewDeadline: 10 * time.Second, renewPeriod: 2 * time.Second,
	watchDelay: 100 * time.Millisecond, writeTime: 50 * time.Millisecond, applyTime: time.Second, dt: 50 * time.Millisecond,
	vnodes: DefaultVirtualNodes}

// simScenario grows a ring to simSize() replicas one join at a time,
// then shrinks it to half that with leaves and crashes in a seeded random
// order.
func simScenario(p simParams) []change {
	s := newSim(p)
	var out []change
	for i := range simSize() {
		out = append(out, s.apply("join", fmt.Sprintf("replica-%03d", i), time.Minute))
	}
	rng := rand.New(rand.NewPCG(22, 6))
	for range simSize() / 2 {
		live := s.live()
		kind := []string{"leave", "crash"}[rng.IntN(2)]
		out = append(out, s.apply(kind, live[rng.IntN(len(live))], time.Minute))
	}
	return out
}

func TestSimulationMovesAboutOneNthPerChangeWithoutOverlap(t *testing.T) {
	p := simDefaults
	changes := simScenario(p)
	// One handover: the old owner narrows and records the release, the
	// new one sees it, claims and widens.
	handover := p.applyTime + p.writeTime + p.watchDelay + p.renewPeriod/2 + p.writeTime + p.applyTime + 2*p.dt
	for _, c := range changes {
		if testing.Verbose() {
			t.Log(c)
		}
		if c.converge >= time.Minute {
			t.Errorf("%v: did not converge", c)
		}
		if c.overlap > 0 {
			t.Errorf("%v: two live replicas held a point at once", c)
		}
		if c.before >= 2 && (c.moved < c.ideal/3 || c.moved > 3*c.ideal) {
			t.Errorf("%v: moved far from 1/N", c)
		}
		lo, hi := time.Duration(0), handover
		if c.kind == "crash" {
			// The crashed replica renewed up to a RenewPeriod before it
			// crashed; the others wait the LeaseDuration from then.
			lo, hi = p.leaseDuration-p.renewPeriod, p.leaseDuration+p.applyTime+p.renewPeriod/2+p.watchDelay+2*p.dt
		}
		if c.before >= 2 && (c.uncovered < lo || c.uncovered > hi) {
			t.Errorf("%v: points uncovered for other than %v to %v", c, lo, hi)
		}
	}
	t.Log("\n" + simTable(p, changes))
}

// Several changes at once (two joins, a leave and a crash within one
// watch delay) are where replicas' views of the ring differ; the
// simulation measures how much of the space two live replicas then hold
// at once, and how long the ring takes to settle.
func TestSimulationOfConcurrentChangesMeasuresDoubleOwnership(t *testing.T) {
	for _, jitter := range []time.Duration{0, 2 * time.Second} {
		p := simDefaults
		p.watchJitter = jitter
		overlap, worst := simConcurrentChanges(t, p)
		t.Logf("%d replicas, watch delays %v to %v, 10 rounds of 2 joins + 1 leave + 1 crash at once: doubly held %.4f fraction-seconds in all, slowest round converged in %v",
			simSize()/2, p.watchDelay, p.watchDelay+jitter, overlap, worst)
	}
}

func simConcurrentChanges(t *testing.T, p simParams) (overlap float64, worst time.Duration) {
	s := newSim(p)
	n := simSize() / 2
	for i := range n {
		s.apply("join", fmt.Sprintf("replica-%03d", i), time.Minute)
	}
	rng := rand.New(rand.NewPCG(22, 7))
	for round := range 10 {
		live := s.live()
		s.replicas[live[rng.IntN(len(live))]].crashed = true
		live = s.live()
		s.replicas[live[rng.IntN(len(live))]].stopping = true
		s.join(fmt.Sprintf("joiner-%02d-a", round))
		c := s.apply("join", fmt.Sprintf("joiner-%02d-b", round), time.Minute)
		if c.converge >= time.Minute {
			t.Fatalf("round %d: did not converge: %v", round, c)
		}
		overlap += c.overlap
		worst = max(worst, c.converge)
	}
	return overlap, worst
}

// A replica cut off from the API server keeps running: it narrows to
// nothing RenewDeadline after its last renewal, and the others take its
// ranges LeaseDuration after they saw that renewal. When the narrowing
// takes longer than the difference, the two overlap: the window this
// measures.
func TestSimulationOfACutOffReplicaMeasuresTheOverlapWindow(t *testing.T) {
	margin := simDefaults.leaseDuration - simDefaults.renewDeadline
	for _, apply := range []time.Duration{time.Second, margin - time.Second, margin + 3*time.Second} {
		p := simDefaults
		p.applyTime = apply
		s := newSim(p)
		for i := range 10 {
			s.apply("join", fmt.Sprintf("replica-%03d", i), time.Minute)
		}
		c := s.apply("cutOff", "replica-004", 2*time.Minute)
		t.Logf("informer change takes %v (LeaseDuration - RenewDeadline = %v): doubly held for %v (%.4f fraction-seconds), uncovered %v",
			apply, margin, c.doubly, c.overlap, c.uncovered)
		if apply < margin && c.doubly > 0 {
			t.Errorf("apply %v < margin %v: doubly held for %v", apply, margin, c.doubly)
		}
		if apply > margin+time.Second && c.doubly == 0 {
			t.Errorf("apply %v > margin %v: no overlap measured, want the window", apply, margin)
		}
	}
}

// After a crash the space is whole again about LeaseDuration later,
// whatever the timings: the simulation of 20 replicas and 5 crashes for
// three settings.
func TestSimulationCoverageAfterACrashFollowsTheLeaseDuration(t *testing.T) {
	settings := []struct{ lease, deadline, renew time.Duration }{
		{5 * time.Second, 3 * time.Second, time.Second},
		{15 * time.Second, 10 * time.Second, 2 * time.Second},
		{30 * time.Second, 20 * time.Second, 5 * time.Second},
	}
	for _, set := range settings {
		p := simDefaults
		p.leaseDuration, p.renewDeadline, p.renewPeriod = set.lease, set.deadline, set.renew
		s := newSim(p)
		for i := range 20 {
			s.apply("join", fmt.Sprintf("replica-%03d", i), time.Minute)
		}
		rng := rand.New(rand.NewPCG(5, 5))
		var sum, worst time.Duration
		for range 5 {
			live := s.live()
			c := s.apply("crash", live[rng.IntN(len(live))], 2*time.Minute)
			sum, worst = sum+c.uncovered, max(worst, c.uncovered)
			lo, hi := p.leaseDuration-p.renewPeriod, p.leaseDuration+p.renewPeriod/2+2*p.watchDelay+p.applyTime+2*p.writeTime+4*p.dt
			if c.uncovered < lo || c.uncovered > hi || c.overlap > 0 {
				t.Errorf("%v: uncovered outside %v to %v, or doubly held", c, lo, hi)
			}
		}
		t.Logf("LeaseDuration %v, RenewDeadline %v, RenewPeriod %v: a crashed replica's ranges uncovered for %v on average, %v at most",
			p.leaseDuration, p.renewDeadline, p.renewPeriod, sum/5, worst)
	}
}
