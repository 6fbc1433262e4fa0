package workqueue

import "k8s.io/utils/clock"

// Config holds the optional settings of a Queue. The zero value is valid and
// gives a queue on the real clock with DefaultRateLimiter and no metrics.
// A Config is read once by New; later changes to it have no effect.
type Config[T comparable] struct {
	// Name identifies the queue in log messages. It is optional.
	Name string

	// Clock drives AddAfter delays and the default rate limiter's token
	// bucket. Nil means the real clock. Tests inject
	// k8s.io/utils/clock/testing.FakeClock.
	Clock clock.WithTicker

	// RateLimiter decides the delay used by AddRateLimited. Nil means
	// DefaultRateLimiter[T](Clock).
	RateLimiter RateLimiter[T]

	// Metrics, if non-nil, receives depth, add, latency, work-duration and
	// retry measurements. Nil costs nothing.
	Metrics Metrics
}
