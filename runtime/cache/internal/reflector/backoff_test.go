package reflector

import (
	"context"
	"testing"
	"time"

	"github.com/informer-gen/informer-gen/runtime/cache/cachetest"
	"k8s.io/apimachinery/pkg/util/wait"
	testingclock "k8s.io/utils/clock/testing"
)

func TestBackoffDelayByFailuresSinceAHealthyPeriod(t *testing.T) {
	ms := time.Millisecond
	tests := []struct {
		name     string
		jitter   float64
		failures []int
		want     []time.Duration
	}{
		{
			name:     "a fault after a healthy period is retried within 200 ms, then 1.5x per failure",
			failures: []int{1, 2, 3, 4, 5, 6, 12, 13, 100},
			want:     []time.Duration{100 * ms, 400 * ms, 600 * ms, 900 * ms, 1350 * ms, 2025 * ms, 23066015625, 30 * time.Second, 30 * time.Second},
		},
		{
			name:     "jitter adds up to one base, at the cap too",
			jitter:   0.5,
			failures: []int{1, 2, 3, 20},
			want:     []time.Duration{150 * ms, 600 * ms, 900 * ms, 45 * time.Second},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := NewBackoff()
			b.jitter = func() float64 { return tc.jitter }
			for i, n := range tc.failures {
				if got := b.Delay(n); got != tc.want[i] {
					t.Errorf("Delay(%d) = %v, want %v", n, got, tc.want[i])
				}
			}
		})
	}
}

// After n failures the reflector has waited no longer than client-go's
// back-off (800 ms doubling to 30 s, jitter 1.0) with the same jitter
// draws: ours is client-go's schedule shifted by one step, after a first
// delay shorter than client-go's first.
func TestBackoffNeverWaitsLongerThanClientGo(t *testing.T) {
	for _, jitter := range []float64{0, 0.5, 0.999} {
		b := NewBackoff()
		b.jitter = func() float64 { return jitter }
		var ours, clientGo time.Duration
		base := 800 * time.Millisecond // client-go's defaultBackoffInit
		for n := 1; n <= 30; n++ {
			ours += b.Delay(n)
			clientGo += base + time.Duration(jitter*float64(base))
			base = min(2*base, DefaultBackoffMax)
			if ours > clientGo {
				t.Errorf("jitter %v: after %d failures we waited %v, client-go %v", jitter, n, ours, clientGo)
			}
		}
	}
}

// ReflectorOptions.Backoff replaces the default with client-go's meaning
// of wait.Backoff.
func TestBackoffFromOptions(t *testing.T) {
	ms := time.Millisecond
	tests := []struct {
		name   string
		w      wait.Backoff
		jitter float64
		want   []time.Duration // delays after 1, 2, 3, 4 failures
	}{
		{"doubling to a cap", wait.Backoff{Duration: 100 * ms, Factor: 2, Cap: 500 * ms}, 0, []time.Duration{100 * ms, 200 * ms, 400 * ms, 500 * ms}},
		{"constant without a factor", wait.Backoff{Duration: 50 * ms}, 0, []time.Duration{50 * ms, 50 * ms, 50 * ms, 50 * ms}},
		{"jitter is a fraction of the delay", wait.Backoff{Duration: 100 * ms, Factor: 2, Jitter: 0.1}, 1, []time.Duration{110 * ms, 220 * ms, 440 * ms, 880 * ms}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := BackoffFrom(tt.w)
			b.jitter = func() float64 { return tt.jitter }
			for i, want := range tt.want {
				if got := b.Delay(i + 1); got != want {
					t.Errorf("Delay(%d) = %v, want %v", i+1, got, want)
				}
			}
		})
	}
}

func TestSleepReturnsFalseWhenContextEnds(t *testing.T) {
	c := testingclock.NewFakeClock(time.Unix(0, 0))
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan bool)
	go func() { done <- sleep(ctx, c, time.Hour) }()
	cachetest.Eventually(t, "the sleep timer", c.HasWaiters)
	cancel()
	if <-done {
		t.Fatal("sleep reported a full wait after cancellation")
	}
	if c.HasWaiters() {
		t.Fatal("sleep left its timer armed")
	}
	go func() { done <- sleep(context.Background(), c, time.Second) }()
	cachetest.Eventually(t, "the sleep timer", c.HasWaiters)
	c.Step(time.Second)
	if !<-done {
		t.Fatal("sleep reported cancellation after a full wait")
	}
}
