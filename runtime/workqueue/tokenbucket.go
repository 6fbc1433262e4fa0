package workqueue

import (
	"math"
	"sync"
	"time"

	"k8s.io/utils/clock"
)

// TokenBucket is a RateLimiter that limits all items together: it holds up
// to burst tokens, refilled at qps per second, and each When takes one. When
// no token is left, When still takes one (the balance goes negative) and
// returns how long until it will have been refilled, so concurrent callers
// are spaced 1/qps apart. It ignores the item, so Forget does nothing and
// NumRequeues is always 0. It is safe for concurrent use.
type TokenBucket[T comparable] struct {
	clock clock.PassiveClock
	qps   float64
	burst float64

	mu     sync.Mutex // guards tokens and last
	tokens float64    // may be negative: tokens reserved ahead of time
	last   time.Time  // when tokens was last brought up to date
}

// NewTokenBucket returns a full TokenBucket of burst tokens refilled at qps
// per second on clk (nil means the real clock). qps must be positive and
// burst at least 1.
func NewTokenBucket[T comparable](clk clock.PassiveClock, qps float64, burst int) *TokenBucket[T] {
	if clk == nil {
		clk = clock.RealClock{}
	}
	if qps <= 0 {
		panic("workqueue: NewTokenBucket needs qps > 0")
	}
	if burst < 1 {
		panic("workqueue: NewTokenBucket needs burst >= 1")
	}
	return &TokenBucket[T]{
		clock:  clk,
		qps:    qps,
		burst:  float64(burst),
		tokens: float64(burst),
		last:   clk.Now(),
	}
}

// When takes one token and returns how long the caller must wait for it:
// zero while tokens are left, and never more than the longest
// time.Duration.
func (b *TokenBucket[T]) When(T) time.Duration {
	b.mu.Lock()
	defer b.mu.Unlock()
	now := b.clock.Now()
	if elapsed := now.Sub(b.last); elapsed > 0 {
		b.tokens += elapsed.Seconds() * b.qps
		if b.tokens > b.burst {
			b.tokens = b.burst
		}
	}
	b.last = now
	b.tokens--
	if b.tokens >= 0 {
		return 0
	}
	return secondsToDuration(-b.tokens / b.qps)
}

// secondsToDuration converts a non-negative number of seconds to a
// Duration, clamped to the longest Duration (about 292 years) where the
// conversion would overflow (to a negative, immediate, delay).
func secondsToDuration(s float64) time.Duration {
	if ns := s * float64(time.Second); ns < float64(math.MaxInt64) {
		return time.Duration(ns)
	}
	return time.Duration(math.MaxInt64)
}

// Forget does nothing: the bucket does not track items.
func (b *TokenBucket[T]) Forget(T) {}

// NumRequeues always returns 0: the bucket does not track items.
func (b *TokenBucket[T]) NumRequeues(T) int { return 0 }
