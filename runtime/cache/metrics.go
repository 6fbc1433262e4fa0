package cache

import "time"

// Metrics receives measurements of one informer. A nil Metrics (the
// default) costs one pointer comparison per call site and nothing else.
//
// Implementations must be safe for concurrent use and must not block: they
// are called on the informer's hot path.
type Metrics interface {
	// ListDone is called after each complete list (all pages), with the
	// number of items, the time it took and its error, if any.
	ListDone(items int, took time.Duration, err error)
	// WatchStarted is called each time a watch is opened.
	WatchStarted()
	// WatchEnded is called when a watch ends, with the number of events it
	// delivered and the error that ended it (nil for a clean close).
	WatchEnded(events int, err error)
	// ResourceVersion is called when the last synced resourceVersion moves.
	ResourceVersion(rv string)
	// QueueDepth reports the number of keys waiting between the reflector
	// and the store.
	QueueDepth(depth int)
	// EventsProcessed is called after n deltas have been applied to the
	// store and handed to the handlers.
	EventsProcessed(n int)
	// HandlerLag reports the number of object keys with notifications
	// pending for the named handler.
	HandlerLag(handler string, pending int)
	// HandlerPanicked is called when the named handler panicked on a
	// notification, which was then dropped (when utilruntime.ReallyCrash
	// is false; otherwise the panic goes on after this call).
	HandlerPanicked(handler string)
}
