package cache

import (
	"time"

	"k8s.io/utils/clock"
)

// RetryWithDeadline decides whether to retry after errors: it allows
// retries for a maximum duration counted from the first of a run of
// retryable errors.
//
// The informer does not use it (the Reflector retries every watch failure
// with back-off); it is here for code written against client-go's
// tools/cache.
//
// Compatibility code, kept for code written against client-go: the informer
// does not use it.
type RetryWithDeadline interface {
	// After records err.
	After(error)
	// ShouldRetry reports whether to retry now.
	ShouldRetry() bool
}

// NewRetryWithDeadline returns a RetryWithDeadline that allows retries for
// maxRetryDuration after the first error isRetryable accepts; a retryable
// error at least minResetPeriod after the previous one starts a new run.
// With maxRetryDuration <= 0 it never retries. It is not safe for
// concurrent use.
func NewRetryWithDeadline(maxRetryDuration, minResetPeriod time.Duration, isRetryable func(error) bool, clock clock.Clock) RetryWithDeadline {
	return &retryWithDeadline{
		maxRetryDuration: maxRetryDuration,
		minResetPeriod:   minResetPeriod,
		isRetryable:      isRetryable,
		clock:            clock,
	}
}

// retryWithDeadline is NewRetryWithDeadline's RetryWithDeadline. Owned by
// one goroutine.
type retryWithDeadline struct {
	firstErrorTime   time.Time
	lastErrorTime    time.Time
	maxRetryDuration time.Duration
	minResetPeriod   time.Duration
	isRetryable      func(error) bool
	clock            clock.Clock
}

func (r *retryWithDeadline) reset() {
	r.firstErrorTime = time.Time{}
	r.lastErrorTime = time.Time{}
}

// After records err when it is retryable.
func (r *retryWithDeadline) After(err error) {
	if !r.isRetryable(err) {
		return
	}
	if r.clock.Now().Sub(r.lastErrorTime) >= r.minResetPeriod {
		r.reset()
	}
	if r.firstErrorTime.IsZero() {
		r.firstErrorTime = r.clock.Now()
	}
	r.lastErrorTime = r.clock.Now()
}

// ShouldRetry reports whether the first error of the run is at most
// maxRetryDuration ago; when it is not, the run is over.
func (r *retryWithDeadline) ShouldRetry() bool {
	if r.maxRetryDuration <= 0 {
		return false
	}
	if r.clock.Now().Sub(r.firstErrorTime) <= r.maxRetryDuration {
		return true
	}
	r.reset()
	return false
}
