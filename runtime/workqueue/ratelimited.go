package workqueue

// AddRateLimited adds item after the delay its RateLimiter (Config.RateLimiter)
// gives, recording one more failure of item. Use it to retry an item whose
// processing failed; call Forget once it succeeds or is given up on.
func (q *Queue[T]) AddRateLimited(item T) {
	q.AddAfter(item, q.limiter.When(item))
}

// Forget tells the rate limiter to stop tracking item's failures, so its next
// AddRateLimited starts from the shortest delay. It does not remove item from
// the queue and does not replace Done.
func (q *Queue[T]) Forget(item T) {
	q.limiter.Forget(item)
}

// NumRequeues returns how many failures of item the rate limiter is tracking.
func (q *Queue[T]) NumRequeues(item T) int {
	return q.limiter.NumRequeues(item)
}
