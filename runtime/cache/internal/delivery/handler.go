package delivery

// Handler receives a listener's notifications. It has the method set of
// runtime/cache's ResourceEventHandler, so any of those is a Handler
// without conversion.
type Handler interface {
	OnAdd(obj any, isInInitialList bool)
	OnUpdate(oldObj, newObj any)
	OnDelete(obj any)
}

// resyncHandler is a Handler that tells resyncs apart from updates (the
// method set of runtime/cache's ResyncHandler).
type resyncHandler interface {
	OnResync(obj any)
}

// stopHandler is a Handler that wants to know when deliveries to it end
// (the method set of runtime/cache's StopHandler).
type stopHandler interface {
	OnStop()
}

// Metrics receives a listener's measurements; runtime/cache's Metrics
// has these methods among others. Implementations must be safe for
// concurrent use and must not block.
type Metrics interface {
	// HandlerLag reports the notifications pending for the named handler.
	HandlerLag(handler string, pending int)
	// HandlerPanicked is called when the named handler panicked on a
	// notification.
	HandlerPanicked(handler string)
}
