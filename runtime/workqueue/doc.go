// Package workqueue provides Queue, the typed work queue that controllers
// built on informer-gen's runtime use to decouple event handlers (which
// enqueue keys) from workers (which reconcile them). It follows the
// behaviour of client-go's util/workqueue in one smaller, generic type that
// is at once de-duplicating, delaying and rate-limited.
//
// # Item lifecycle
//
// An item moves through two sets:
//
//   - dirty: items that need processing. Add puts an item here; an item is
//     in dirty at most once, so adding a waiting item again does nothing.
//   - processing: items handed to a worker by Get and not yet Done.
//
// Add(x) marks x dirty and, unless x is being processed, appends it to the
// FIFO of ready items. Get() blocks for the oldest ready item, moves it from
// dirty to processing and returns it. Done(x) removes x from processing; if
// x was added again meanwhile (it is dirty), it is appended to the FIFO
// then. Hence:
//
//   - an item is queued at most once, however often it is added;
//   - no two workers ever hold the same item at the same time;
//   - an item added while being processed is processed again, after Done;
//   - otherwise items come out in the order they were first added.
//
// A typical worker:
//
//	for {
//		key, shutdown := q.Get()
//		if shutdown {
//			return
//		}
//		if err := reconcile(key); err != nil {
//			q.AddRateLimited(key) // retry later, with backoff
//		} else {
//			q.Forget(key) // reset the backoff
//		}
//		q.Done(key)
//	}
//
// Run wraps exactly this loop for a number of workers.
//
// # Delays and rate limiting
//
// AddAfter(x, d) keeps x in a heap of ready times and adds it when d has
// passed on the queue's clock (Config.Clock, injectable for tests); if x is
// already waiting, the earlier time wins. One goroutine per queue, started
// by the first delayed add, moves due items into the queue. AddRateLimited(x)
// is AddAfter with the delay chosen by the queue's RateLimiter, by default
// the larger of a per-item exponential backoff (5ms doubling up to 1000s) and
// an overall token bucket (10 qps, burst 100). Forget(x) resets x's backoff;
// NumRequeues(x) tells how many failures are being counted for it.
//
// # Shutting down
//
// ShutDown makes the queue ignore further adds, stops the delay goroutine
// (waiting for it to exit; delayed items not yet due are dropped) and wakes
// every blocked Get. Workers still receive the items already queued, then
// Get returns shutdown == true. ShutDownWithDrain does the same and also
// waits until every item handed out by Get has been passed to Done; a later
// ShutDown releases that wait. Run, once its ctx is done, stops each worker
// after the item it holds: queued items are left unprocessed unless
// ShutDownWithDrain was called first.
//
// # Concurrency
//
// Every method of Queue is safe for concurrent use by any number of
// producers and workers; one mutex guards the queue's state, and only Get
// (and ShutDownWithDrain) block. RateLimiter implementations must be safe
// for concurrent use; Metrics methods are called with the queue's lock held
// and must not block or call back into the queue.
package workqueue
