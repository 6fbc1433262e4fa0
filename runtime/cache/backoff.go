package cache

import (
	"context"
	"math/rand/v2"
	"time"

	"k8s.io/utils/clock"
)

// Default back-off of a Reflector between failed lists and watches: 800 ms
// doubling to 30 s, forgotten after 2 minutes without failure. With the
// jitter this keeps a broken informer at roughly 0.03-0.07 requests per
// second once capped.
const (
	defaultBackoffInitial = 800 * time.Millisecond
	defaultBackoffMax     = 30 * time.Second
	defaultBackoffReset   = 2 * time.Minute
)

// backoff computes exponential, jittered delays on an injectable clock.
// The base delay doubles from initial up to max on every call to next; it
// falls back to initial when the previous call is at least reset ago, that
// is after a quiet period of healthy operation. Not safe for concurrent use.
type backoff struct {
	initial, max, reset time.Duration
	clock               clock.PassiveClock
	jitter              func() float64 // in [0, 1)

	base time.Duration // base of the next delay; 0 before the first call
	last time.Time     // time of the previous call
}

func newBackoff(c clock.PassiveClock) *backoff {
	return &backoff{
		initial: defaultBackoffInitial,
		max:     defaultBackoffMax,
		reset:   defaultBackoffReset,
		clock:   c,
		jitter:  rand.Float64,
	}
}

// next returns the delay to wait before the next attempt: a value in
// [base, 2*base) clamped to max.
func (b *backoff) next() time.Duration {
	now := b.clock.Now()
	if b.base == 0 || now.Sub(b.last) >= b.reset {
		b.base = b.initial
	}
	b.last = now
	d := b.base + time.Duration(b.jitter()*float64(b.base))
	b.base = min(2*b.base, b.max)
	return min(d, b.max)
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
