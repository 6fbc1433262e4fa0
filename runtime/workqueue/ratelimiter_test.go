package workqueue

import (
	"math"
	"testing"
	"time"

	clocktesting "k8s.io/utils/clock/testing"
)

func TestExponentialBackoffGrowsCapsAndForgets(t *testing.T) {
	tests := []struct {
		name      string
		base, max time.Duration
		want      []time.Duration // successive When("a")
	}{
		{
			name: "default parameters double from 5ms",
			base: DefaultBaseDelay, max: DefaultMaxDelay,
			want: []time.Duration{5 * time.Millisecond, 10 * time.Millisecond, 20 * time.Millisecond, 40 * time.Millisecond, 80 * time.Millisecond},
		},
		{
			name: "capped at max",
			base: time.Millisecond, max: 5 * time.Millisecond,
			want: []time.Duration{time.Millisecond, 2 * time.Millisecond, 4 * time.Millisecond, 5 * time.Millisecond, 5 * time.Millisecond},
		},
		{
			name: "zero base never waits",
			base: 0, max: time.Second,
			want: []time.Duration{0, 0, 0},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := NewExponentialBackoff[string](tt.base, tt.max)
			for i, want := range tt.want {
				if got := b.When("a"); got != want {
					t.Fatalf("When #%d = %v, want %v", i+1, got, want)
				}
				if got := b.NumRequeues("a"); got != i+1 {
					t.Fatalf("NumRequeues after %d failures = %d", i+1, got)
				}
			}
			if got := b.NumRequeues("other"); got != 0 {
				t.Fatalf("NumRequeues(other) = %d, want 0 (items are independent)", got)
			}
			b.Forget("a")
			if got := b.NumRequeues("a"); got != 0 {
				t.Fatalf("NumRequeues after Forget = %d, want 0", got)
			}
			if got := b.When("a"); got != tt.want[0] {
				t.Fatalf("When after Forget = %v, want %v (back to base)", got, tt.want[0])
			}
		})
	}
}

func TestExponentialBackoffDoesNotOverflow(t *testing.T) {
	b := NewExponentialBackoff[string](DefaultBaseDelay, time.Duration(math.MaxInt64))
	var last time.Duration
	for i := range 200 {
		d := b.When("a")
		if d < last {
			t.Fatalf("When #%d = %v, less than the previous %v (overflow)", i+1, d, last)
		}
		last = d
	}
	if last != time.Duration(math.MaxInt64) {
		t.Fatalf("after 200 failures When = %v, want the max", last)
	}
}

func TestTokenBucketAllowsBurstThenSpacesAtQPS(t *testing.T) {
	clk := clocktesting.NewFakePassiveClock(time.Unix(0, 0))
	b := NewTokenBucket[string](clk, 10, 3)
	for i := range 3 {
		if d := b.When("x"); d != 0 {
			t.Fatalf("When #%d within burst = %v, want 0", i+1, d)
		}
	}
	// Out of tokens: each further call reserves the next token, 100ms apart.
	for i, want := range []time.Duration{100 * time.Millisecond, 200 * time.Millisecond, 300 * time.Millisecond} {
		if d := b.When("x"); d != want {
			t.Fatalf("When #%d past burst = %v, want %v", i+4, d, want)
		}
	}
	// 300ms later the three reserved tokens have been paid back; no credit.
	clk.SetTime(clk.Now().Add(300 * time.Millisecond))
	if d := b.When("x"); d != 100*time.Millisecond {
		t.Fatalf("When after repaying = %v, want 100ms", d)
	}
	// A long idle period refills at most burst tokens.
	clk.SetTime(clk.Now().Add(time.Hour))
	for i := range 3 {
		if d := b.When("x"); d != 0 {
			t.Fatalf("When #%d after refill = %v, want 0", i+1, d)
		}
	}
	if d := b.When("x"); d != 100*time.Millisecond {
		t.Fatalf("When past refilled burst = %v, want 100ms", d)
	}
	if n := b.NumRequeues("x"); n != 0 {
		t.Fatalf("NumRequeues = %d, want 0", n)
	}
}

func TestTokenBucketIgnoresClockGoingBack(t *testing.T) {
	clk := clocktesting.NewFakePassiveClock(time.Unix(100, 0))
	b := NewTokenBucket[string](clk, 1, 1)
	b.When("x")
	clk.SetTime(time.Unix(50, 0))
	if d := b.When("x"); d != time.Second {
		t.Fatalf("When after clock went back = %v, want 1s", d)
	}
}

func TestNewTokenBucketRejectsBadParameters(t *testing.T) {
	for _, tc := range []struct {
		name  string
		qps   float64
		burst int
	}{{"zero qps", 0, 1}, {"zero burst", 1, 0}} {
		t.Run(tc.name, func(t *testing.T) {
			defer func() {
				if recover() == nil {
					t.Fatal("no panic")
				}
			}()
			NewTokenBucket[string](nil, tc.qps, tc.burst)
		})
	}
}

func TestDefaultRateLimiterTakesLargerOfBackoffAndBucket(t *testing.T) {
	clk := clocktesting.NewFakePassiveClock(time.Unix(0, 0))
	r := DefaultRateLimiter[int](clk)
	// Within the burst of 100 the per-item backoff decides.
	if d := r.When(1); d != DefaultBaseDelay {
		t.Fatalf("first failure waits %v, want %v", d, DefaultBaseDelay)
	}
	if d := r.When(1); d != 2*DefaultBaseDelay {
		t.Fatalf("second failure waits %v, want %v", d, 2*DefaultBaseDelay)
	}
	for i := 2; i < DefaultBurst; i++ {
		r.When(1000 + i)
	}
	// The bucket is empty: a fresh item waits for the bucket, 100ms at 10 qps.
	if d := r.When(2); d != 100*time.Millisecond {
		t.Fatalf("fresh item after burst waits %v, want 100ms", d)
	}
	if n := r.NumRequeues(1); n != 2 {
		t.Fatalf("NumRequeues(1) = %d, want 2", n)
	}
	r.Forget(1)
	if n := r.NumRequeues(1); n != 0 {
		t.Fatalf("NumRequeues(1) after Forget = %d, want 0", n)
	}
}

func TestMaxOfWithNoLimitersNeverWaits(t *testing.T) {
	r := MaxOf[string]()
	if d := r.When("a"); d != 0 {
		t.Fatalf("When = %v, want 0", d)
	}
	if n := r.NumRequeues("a"); n != 0 {
		t.Fatalf("NumRequeues = %d, want 0", n)
	}
}

func TestAddRateLimitedBacksOffOnTheQueueClock(t *testing.T) {
	clk := clocktesting.NewFakeClock(time.Unix(0, 0))
	q := New(Config[string]{
		Clock:       clk,
		RateLimiter: NewExponentialBackoff[string](10*time.Millisecond, time.Second),
	})
	defer q.ShutDown()

	for i, delay := range []time.Duration{10 * time.Millisecond, 20 * time.Millisecond, 40 * time.Millisecond} {
		q.AddRateLimited("a")
		if n := q.NumRequeues("a"); n != i+1 {
			t.Fatalf("NumRequeues = %d, want %d", n, i+1)
		}
		clk.Step(delay - time.Millisecond)
		if n := q.Len(); n != 0 {
			t.Fatalf("retry %d: queued %v early", i+1, time.Millisecond)
		}
		clk.Step(time.Millisecond)
		getN(t, q, 1)
	}
	q.Forget("a")
	if n := q.NumRequeues("a"); n != 0 {
		t.Fatalf("NumRequeues after Forget = %d, want 0", n)
	}
	q.AddRateLimited("a")
	clk.Step(10 * time.Millisecond)
	getN(t, q, 1)
}

// TestTokenBucketWhenClampsHugeDelays pins that a delay too long for a
// time.Duration is clamped to the longest one rather than overflowing to a
// negative (immediate) delay.
func TestTokenBucketWhenClampsHugeDelays(t *testing.T) {
	tests := []struct {
		name string
		qps  float64
	}{
		{"one token per 30 years", 1.0 / (30 * 365 * 24 * 3600)},
		{"one token per 10^12 seconds", 1e-12},
		{"smallest positive qps", math.SmallestNonzeroFloat64},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			clk := clocktesting.NewFakeClock(time.Unix(0, 0))
			b := NewTokenBucket[string](clk, tc.qps, 1)
			if d := b.When("x"); d != 0 {
				t.Fatalf("first When = %v, want 0 (the burst)", d)
			}
			prev := time.Duration(0)
			for i := range 3 {
				d := b.When("x")
				if d <= 0 || d < prev {
					t.Fatalf("When #%d = %v after %v, want a positive, non-decreasing delay", i+2, d, prev)
				}
				prev = d
			}
		})
	}
}
