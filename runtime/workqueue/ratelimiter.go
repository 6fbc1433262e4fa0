package workqueue

import (
	"time"

	"k8s.io/utils/clock"
)

// RateLimiter decides how long an item must wait before it is retried.
// Implementations must be safe for concurrent use.
type RateLimiter[T comparable] interface {
	// When records a failure of item and returns how long it should wait
	// before being added again.
	When(item T) time.Duration
	// Forget stops tracking item, whether it finally succeeded or was
	// given up on.
	Forget(item T)
	// NumRequeues returns how many failures of item are being tracked.
	NumRequeues(item T) int
}

// Default rate limiting parameters, the same as client-go's
// DefaultTypedControllerRateLimiter.
const (
	// DefaultBaseDelay is the per-item backoff after the first failure.
	DefaultBaseDelay = 5 * time.Millisecond
	// DefaultMaxDelay caps the per-item backoff.
	DefaultMaxDelay = 1000 * time.Second
	// DefaultQPS is the sustained overall retry rate.
	DefaultQPS = 10
	// DefaultBurst is the number of retries allowed at once before the
	// overall rate applies.
	DefaultBurst = 100
)

// DefaultRateLimiter returns the usual controller rate limiter: the larger
// of a per-item exponential backoff (DefaultBaseDelay doubling up to
// DefaultMaxDelay) and an overall token bucket (DefaultQPS, DefaultBurst)
// that runs on clk. A nil clk means the real clock.
func DefaultRateLimiter[T comparable](clk clock.PassiveClock) RateLimiter[T] {
	return MaxOf[T](
		NewExponentialBackoff[T](DefaultBaseDelay, DefaultMaxDelay),
		NewTokenBucket[T](clk, DefaultQPS, DefaultBurst),
	)
}

// MaxOf returns a RateLimiter that asks every one of limiters and waits for
// the longest of their answers. Forget is passed to all of them and
// NumRequeues is the largest of theirs. It is safe for concurrent use if the
// limiters are.
func MaxOf[T comparable](limiters ...RateLimiter[T]) RateLimiter[T] {
	return maxOf[T](limiters)
}

type maxOf[T comparable] []RateLimiter[T]

func (m maxOf[T]) When(item T) time.Duration {
	var longest time.Duration
	for _, l := range m {
		if d := l.When(item); d > longest {
			longest = d
		}
	}
	return longest
}

func (m maxOf[T]) Forget(item T) {
	for _, l := range m {
		l.Forget(item)
	}
}

func (m maxOf[T]) NumRequeues(item T) int {
	most := 0
	for _, l := range m {
		if n := l.NumRequeues(item); n > most {
			most = n
		}
	}
	return most
}
