package cache

import "github.com/informer-gen/informer-gen/runtime/cache/internal/queue"

// PopProcessFunc processes one popped item: for a DeltaFIFO, obj is the
// Deltas of one key and isInInitialList tells whether the key was part of
// the first list.
type PopProcessFunc func(obj any, isInInitialList bool) error

// Pop waits for a key, removes it and calls process with its Deltas, and
// returns the Deltas and process's error. It returns ErrFIFOClosed once
// the queue is closed and empty. process runs without the queue locked
// (see internal/queue's FIFO.PopBatch); Pop is PopBatch of one key, which
// informers avoid for speed.
func (f *DeltaFIFO) Pop(process PopProcessFunc) (any, error) {
	var item Deltas
	var perr error
	_, err := f.popBatch(1, func(pb queue.Batch) {
		batch := pb.Items
		// The batch's Deltas are recycled after the call: copy them.
		item = append(Deltas(nil), batch[0].Deltas...)
		perr = process(item, batch[0].IsInInitialList)
	})
	if err != nil {
		return nil, err
	}
	return item, perr
}

// Name returns the queue's name.
func (f *DeltaFIFO) Name() string {
	if f.name == "" {
		return "DeltaFIFO"
	}
	return f.name
}

// Transformer returns the transformer objects go through on entry.
func (f *DeltaFIFO) Transformer() TransformFunc { return f.transform }

// Done returns a channel closed by Close.
func (f *DeltaFIFO) Done() <-chan struct{} { return f.q.Done() }

// IsClosed reports whether Close was called.
func (f *DeltaFIFO) IsClosed() bool { return f.q.IsClosed() }

// HasSyncedChecker returns a DoneChecker for HasSynced.
func (f *DeltaFIFO) HasSyncedChecker() DoneChecker {
	return closedChecker{name: f.Name(), ch: f.q.Synced()}
}
