package queue

import "runtime"

// Batch is what PopBatch hands its process function: one batch of keys,
// and whether it is a relist. It is valid only during the call.
type Batch struct {
	// Items are the keys popped, oldest first.
	Items []Popped
	// ReplacedAll is set when Items are one relist unit (a Replace after
	// the first, with the tombstones it queued), handed out whole and
	// alone: the informer stores it whole before any handler hears of it
	// (client-go's word for a whole relist queued as one, RealFIFO's
	// ReplacedAll delta).
	ReplacedAll bool
}

// Popped is one key handed out by PopBatch.
type Popped struct {
	Key    string
	Deltas Deltas
	// InitialDeltas is the number of leading Deltas that belong to the
	// initial population: the changes queued by the first Replace (and
	// before it). Later changes of the key, queued behind them before the
	// key was popped (a watch deleting and re-creating a listed object),
	// are not part of the initial list. HasSynced waits for every key
	// with InitialDeltas > 0.
	InitialDeltas int
	// IsInInitialList is InitialDeltas > 0: the key counts toward the
	// initial population (only its first InitialDeltas changes are part
	// of the initial list).
	IsInInitialList bool
}

// idleSpins is how many times a consumer yields before sleeping on an
// empty queue.
const idleSpins = 2

// PopBatch waits until a key is queued or the queue is closed, then takes
// up to max keys (all queued keys when max <= 0), oldest first, and calls
// process once with them, without holding the queue's lock. The batch and
// its Deltas are valid only during the call. Replace and Resync wait for
// process to return, so process must not call them. A relist unit is
// popped whole and alone, whatever max says unless it is 1 (client-go's
// Pop): Batch.ReplacedAll. It returns the number of keys processed, or
// ErrClosed once Close was called.
func (f *FIFO) PopBatch(max int, process func(b Batch)) (int, error) {
	f.popMu.Lock()
	defer f.popMu.Unlock()
	f.mu.Lock()
	defer f.mu.Unlock()
	for spin := 0; f.keys.Len() == 0 && !f.closed; spin++ {
		if spin < idleSpins {
			// Let the producer queue more before sleeping: waking a
			// sleeping consumer per key costs more than the key.
			f.mu.Unlock()
			runtime.Gosched()
			f.mu.Lock()
			continue
		}
		f.cond.Wait()
	}
	if f.closed {
		return 0, ErrClosed
	}
	return f.processOneBatchLocked(max, process), nil
}

// processOneBatchLocked pops up to max keys, or the relist unit at the
// head of the queue, and processes them with the lock released; it is
// called and returns with f.mu held.
func (f *FIFO) processOneBatchLocked(max int, process func(b Batch)) int {
	n := f.keys.Len()
	if max > 0 && n > max {
		n = max
	}
	// A relist unit leaves the queue as one batch, nothing more, whatever
	// max says (unless max is 1, Pop's client-go contract): the informer
	// applies it to its cache whole before notifying handlers, so none
	// sees half of it.
	relist := f.relistLast != nil && max != 1
	if relist {
		n = f.keys.Position(f.relistLast)
	}
	// A popped entry stays known to f.keys until its batch is processed
	// (releaseBatchLocked): the compaction hint of a key of the batch is
	// its newest delta there.
	initial := 0
	for _, e := range f.keys.Pop(n) {
		if e.Value.initialDeltas > 0 {
			initial++
		}
		f.batch = append(f.batch, Popped{Key: e.Key(), Deltas: e.Value.deltas, InitialDeltas: e.Value.initialDeltas,
			IsInInitialList: e.Value.initialDeltas > 0})
		if e == f.relistLast {
			f.relistLast = nil
		}
	}
	f.processing = true
	f.mu.Unlock()
	func() {
		// Re-lock even if process panics, for the callers' unlock.
		defer f.mu.Lock()
		process(Batch{Items: f.batch, ReplacedAll: relist})
	}()
	f.processing = false
	f.idle.Broadcast()
	f.initialPopulationCount -= initial
	f.processedTotal += uint64(n)
	f.noteSyncedLocked()
	f.releaseBatchLocked()
	f.runBarriersLocked()
	if f.cfg.Depth != nil {
		f.cfg.Depth(f.keys.Len())
	}
	return n
}

// releaseBatchLocked empties the processed batch and releases its
// entries (Keys.Release: recycled, the queue shrunk once drained).
func (f *FIFO) releaseBatchLocked() {
	clear(f.batch)
	f.batch = f.batch[:0]
	f.keys.Release()
}
