package cache

import "time"

// This file holds the RealFIFO's consumer side: Pop and PopBatch.

// waitLocked waits until a Delta is queued; false when the FIFO is closed
// and empty.
func (f *RealFIFO) waitLocked() bool {
	for len(f.items) == 0 {
		if f.closed {
			return false
		}
		f.cond.Wait()
	}
	return true
}

// doneLocked accounts for n processed Deltas of the first batch.
func (f *RealFIFO) doneLocked(n int) {
	if f.initialPopulationCount > 0 {
		f.initialPopulationCount -= n
		f.checkSyncedLocked()
	}
}

// Pop waits for a queued Delta, removes it and calls process with it as a
// one-element Deltas, returning that Deltas and process's error, or
// ErrFIFOClosed once the FIFO is closed and empty. process runs with the
// FIFO locked unless UnlockWhileProcessing. Meant for a single consumer.
func (f *RealFIFO) Pop(process PopProcessFunc) (any, error) {
	f.lock.Lock()
	defer f.lock.Unlock()
	if !f.waitLocked() {
		return nil, ErrFIFOClosed
	}
	isInInitialList := !f.syncedClosed
	item := f.items[0]
	f.items[0] = Delta{} // let the object be collected once processed
	f.items = f.items[1:]
	defer f.doneLocked(1) // after processing, so HasSynced waits for it
	f.metrics.setQueued(len(f.items))
	err := f.whileProcessingLocked(func() error {
		return process(Deltas{item}, isInInitialList)
	})
	return Deltas{item}, err
}

// PopBatch waits for queued Deltas and removes the longest run, up to
// 1000, of batchable Deltas (Added, Updated, Deleted, Replaced, Sync) of
// distinct keys that does not reach past the first Replace's Deltas. It
// calls processBatch with the run, or processSingle with a one-element
// Deltas when the run is one Delta (or the first Delta is not batchable).
// It returns ErrFIFOClosed once the FIFO is closed and empty.
func (f *RealFIFO) PopBatch(processBatch ProcessBatchFunc, processSingle PopProcessFunc) error {
	f.lock.Lock()
	defer f.lock.Unlock()
	if !f.waitLocked() {
		return ErrFIFOClosed
	}
	isInInitialList := !f.syncedClosed
	deltas := f.takeBatchLocked()
	defer f.doneLocked(len(deltas))
	f.metrics.setQueued(len(f.items))
	if len(deltas) == 1 {
		return f.whileProcessingLocked(func() error {
			return processSingle(Deltas{deltas[0]}, isInInitialList)
		})
	}
	return f.whileProcessingLocked(func() error {
		return processBatch(deltas, isInInitialList)
	})
}

// batchable are the Delta types PopBatch hands out in batches.
func batchable(t DeltaType) bool {
	switch t {
	case Sync, Replaced, Added, Updated, Deleted:
		return true
	}
	return false
}

// takeBatchLocked removes and returns the Deltas PopBatch processes next.
// A Delta without a key is taken, and closes the batch.
func (f *RealFIFO) takeBatchLocked() []Delta {
	deltas := make([]Delta, 0, min(len(f.items), f.batchSize))
	unique := make(map[string]struct{})
	take := func(i int) {
		deltas = append(deltas, f.items[i])
		f.items[i] = Delta{}
	}
	for i := 0; i < f.batchSize && i < len(f.items); i++ {
		if f.initialPopulationCount > 0 && i >= f.initialPopulationCount {
			break
		}
		item := f.items[i]
		if !batchable(item.Type) {
			if len(deltas) == 0 {
				take(i)
			}
			break
		}
		id, err := f.keyOf(item)
		if err != nil {
			take(i)
			break
		}
		if _, dup := unique[id]; dup {
			break
		}
		unique[id] = struct{}{}
		take(i)
	}
	f.items = f.items[len(deltas):]
	return deltas
}

// whileProcessingLocked calls process, with the lock released when
// UnlockWhileProcessing and fewer than two batches are queued, and
// observes its latency.
func (f *RealFIFO) whileProcessingLocked(process func() error) error {
	if f.unlockWhileProcessing && len(f.items) < f.batchSize*2 {
		f.lock.Unlock()
		defer f.lock.Lock()
	}
	start := time.Now()
	err := process()
	f.metrics.observeSince(start)
	return err
}
