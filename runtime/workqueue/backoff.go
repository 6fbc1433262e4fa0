package workqueue

import (
	"math"
	"sync"
	"time"
)

// ExponentialBackoff is a RateLimiter that makes an item wait
// base * 2^(failures so far), capped at a limit. Giving up after some number of
// failures is left to the caller (see NumRequeues). It is safe for
// concurrent use.
type ExponentialBackoff[T comparable] struct {
	base, limit time.Duration

	mu       sync.Mutex // guards failures
	failures map[T]int
}

// NewExponentialBackoff returns an ExponentialBackoff starting at base and
// capped at limit.
func NewExponentialBackoff[T comparable](base, limit time.Duration) *ExponentialBackoff[T] {
	return &ExponentialBackoff[T]{base: base, limit: limit, failures: map[T]int{}}
}

// When records a failure of item and returns base * 2^(earlier failures),
// at most limit.
func (b *ExponentialBackoff[T]) When(item T) time.Duration {
	b.mu.Lock()
	exp := b.failures[item]
	b.failures[item] = exp + 1
	b.mu.Unlock()

	if b.base <= 0 {
		return 0
	}
	if exp >= 63 || b.base > time.Duration(math.MaxInt64>>exp) {
		return b.limit // base << exp would overflow
	}
	if d := b.base << exp; d < b.limit {
		return d
	}
	return b.limit
}

// Forget clears the failures recorded for item.
func (b *ExponentialBackoff[T]) Forget(item T) {
	b.mu.Lock()
	delete(b.failures, item)
	b.mu.Unlock()
}

// NumRequeues returns the number of failures recorded for item.
func (b *ExponentialBackoff[T]) NumRequeues(item T) int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.failures[item]
}
