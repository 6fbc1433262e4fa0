package reflector

import (
	"context"
	"math/rand/v2"
	"time"

	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/utils/clock"
)

// The engine's back-off between failed steps, by the number of
// failures since the last healthy period (state.failures):
//
//	failures  delay
//	1         [100 ms, 200 ms)   a fault right after a healthy period
//	2         [400 ms, 800 ms)
//	n         [b, 2b) with b = 400 ms * 1.5^(n-2), b at most 30 s
//
// client-go waits [b, 2b) with b = 800 ms * 2^(n-1) up to 30 s. With the
// same jitter draws, ours has after every failure waited no longer in all
// than client-go (TestBackoffNeverWaitsLongerThanClientGo), and its
// retries are denser while a fault lasts, so the wait between the end of
// an outage and the next attempt is shorter too: a blip costs a fraction
// of a second. The price is more attempts early in a long outage (13
// before the cap, about 100 s in, where client-go makes 7 in about 40 s);
// at the cap both wait [30 s, 60 s): 0.017-0.033 requests per second per
// informer. The count starts over only after a healthy period
// (protocol.State.Next), so a server that fails every request, or every watch
// after a good list, sees the delay grow to the cap.
// The default back-off: FirstBackoff after one failure, then
// DefaultBackoffInitial growing by 1.5 per failure up to DefaultBackoffMax.
const (
	FirstBackoff          = 100 * time.Millisecond
	DefaultBackoffInitial = 400 * time.Millisecond
	DefaultBackoffMax     = 30 * time.Second
)

// Backoff computes the jittered delay after a number of failures: first
// after one, then initial growing by factor per failure up to max, each
// plus up to spread times itself.
type Backoff struct {
	first, initial, max time.Duration
	factor, spread      float64
	jitter              func() float64 // in [0, 1)
}

// NewBackoff is the default back-off (the table above).
func NewBackoff() Backoff {
	return Backoff{first: FirstBackoff, initial: DefaultBackoffInitial, max: DefaultBackoffMax,
		factor: 1.5, spread: 1, jitter: rand.Float64}
}

// BackoffFrom is the back-off a caller configured with
// runtime/cache's ReflectorOptions.Backoff, with client-go's meaning: Duration growing by
// Factor per failure (at least 1) up to Cap (when set), each plus up to
// Jitter times itself; Steps is not used (the reflector retries for as
// long as it runs).
func BackoffFrom(w wait.Backoff) Backoff {
	b := Backoff{first: w.Duration, initial: w.Duration, max: w.Cap, factor: max(w.Factor, 1), spread: max(w.Jitter, 0), jitter: rand.Float64}
	if b.max <= 0 {
		b.max = DefaultBackoffMax
	}
	if b.initial > 0 {
		b.initial = time.Duration(float64(b.initial) * b.factor)
	}
	return b
}

// Delay returns the delay to wait after failures failed steps (at least
// 1): a value in [base, (1+spread)*base).
func (b Backoff) Delay(failures int) time.Duration {
	base := b.first
	if failures > 1 {
		base = b.initial
		for i := 2; i < failures && base < b.max; i++ {
			base = time.Duration(float64(base) * b.factor)
		}
		base = min(base, b.max)
	}
	return base + time.Duration(b.jitter()*b.spread*float64(base))
}

// sleep waits for d on c; it returns false, early, when ctx is done.
func sleep(ctx context.Context, c clock.WithTicker, d time.Duration) bool {
	t := c.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C():
		return true
	}
}
