package workqueue

import (
	"context"
	"sync"

	"k8s.io/klog/v2"
)

// Run processes items with the given number of workers until ctx is done.
// Each worker loops: Get an item, call process, then AddRateLimited the item
// if process returned an error (logging it) or Forget it otherwise, and
// finally Done. When ctx is done, Run shuts the queue down, lets the workers
// finish the items they hold, and returns once they have all exited: items
// still queued are not processed (with a cancelled ctx). To process them,
// call ShutDownWithDrain while ctx is live; the workers then take every
// queued item before they exit. process receives ctx and should return
// promptly once it is done. workers < 1 is treated as 1.
//
// Run owns the queue's shutdown: the queue cannot be used again after Run
// returns.
func (q *Queue[T]) Run(ctx context.Context, workers int, process func(ctx context.Context, item T) error) {
	if workers < 1 {
		workers = 1
	}
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for q.processNext(ctx, process) {
			}
		})
	}
	// Shut down when ctx is done; or someone else shuts the queue down and
	// the workers exit on their own. No goroutine waits for either: ctx
	// calls ShutDown, and Run returns once ShutDown, if called, returned.
	shutDown := make(chan struct{})
	stop := context.AfterFunc(ctx, func() {
		defer close(shutDown)
		q.ShutDown()
	})
	wg.Wait()
	if !stop() {
		<-shutDown
	}
}

// processNext handles one item and reports whether the worker should
// continue: not once ctx is done, when an item it got is dropped
// unprocessed.
func (q *Queue[T]) processNext(ctx context.Context, process func(context.Context, T) error) bool {
	item, shutdown := q.Get()
	if shutdown {
		return false
	}
	defer q.Done(item)
	if ctx.Err() != nil {
		return false
	}
	if err := process(ctx, item); err != nil {
		klog.FromContext(ctx).Error(err, "Processing work item failed; requeueing", "queue", q.name, "item", item, "requeues", q.NumRequeues(item))
		q.AddRateLimited(item)
		return true
	}
	q.Forget(item)
	return true
}
