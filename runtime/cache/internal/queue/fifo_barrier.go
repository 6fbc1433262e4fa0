package queue

// This file holds AfterApplied, for a queue whose writes reach the cache
// later, on another goroutine: the reflector calls it to learn when what
// it queued is in the cache and handed to the handlers (a shard's
// Applied).

// fifoBarrier is a function waiting for the entries queued before it.
type fifoBarrier struct {
	queued uint64 // FIFO.queuedTotal when it was set
	fn     func()
}

// AfterApplied calls fn once every key queued before the call has been
// popped and its batch processed: at once, on the caller's goroutine,
// when there is none; otherwise on the popping goroutine, after the batch
// that completes them, without the queue's lock. fn must not call the
// queue's Replace or Resync. Barriers of a queue that is closed before
// they are reached never run.
func (f *FIFO) AfterApplied(fn func()) {
	f.mu.Lock()
	if f.processedTotal >= f.queuedTotal {
		f.mu.Unlock()
		fn()
		return
	}
	f.barriers = append(f.barriers, fifoBarrier{queued: f.queuedTotal, fn: fn})
	f.mu.Unlock()
}

// runBarriersLocked runs, with the lock released, the barriers whose
// entries are all processed. Called with f.mu held, by PopBatch.
func (f *FIFO) runBarriersLocked() {
	n := 0
	for n < len(f.barriers) && f.barriers[n].queued <= f.processedTotal {
		n++
	}
	if n == 0 {
		return
	}
	due := f.barriers[:n:n]
	f.barriers = append([]fifoBarrier(nil), f.barriers[n:]...)
	f.mu.Unlock()
	defer f.mu.Lock()
	for _, b := range due {
		b.fn()
	}
}
