package workqueue

import "time"

// Metrics receives measurements of one queue. A nil Metrics (the default)
// costs one pointer comparison per call site: the queue then neither reads
// the clock for latency nor keeps per-item timestamps.
//
// The queue calls these methods while holding its internal lock, so
// implementations must be safe for concurrent use (several queues may share
// one), must not block, and must not call back into the queue. An
// implementation that wants the queue's name should capture Config.Name when
// it is built.
type Metrics interface {
	// Depth reports the number of items waiting to be handed out by Get,
	// after every change to that number.
	Depth(n int)
	// Added is called each time an item becomes dirty: an Add that is not
	// absorbed by an identical pending item.
	Added()
	// Latency reports how long an item waited between becoming dirty and
	// being handed out by Get.
	Latency(d time.Duration)
	// WorkDuration reports how long an item was processed, from Get to Done.
	WorkDuration(d time.Duration)
	// Retried is called for each AddAfter and AddRateLimited accepted while
	// the queue is running.
	Retried()
}
