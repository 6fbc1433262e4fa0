package controllerruntime

import (
	toolscache "k8s.io/client-go/tools/cache"

	"github.com/informer-gen/informer-gen/runtime/cache"
)

// handler hands runtime/cache's notifications to a client-go handler,
// with runtime/cache's tombstone as client-go's
// DeletedFinalStateUnknown (controller-runtime's event handler unwraps
// that type).
type handler struct {
	toolscache.ResourceEventHandler
}

var _ cache.ResourceEventHandler = handler{}

// OnDelete tells the handler of a deletion.
func (h handler) OnDelete(obj any) {
	if t, ok := obj.(cache.DeletedFinalStateUnknown); ok {
		obj = toolscache.DeletedFinalStateUnknown{Key: t.Key, Obj: t.Obj}
	}
	h.ResourceEventHandler.OnDelete(obj)
}

// registration is runtime/cache's handler registration as client-go's.
type registration struct {
	inner cache.ResourceEventHandlerRegistration
}

var _ toolscache.ResourceEventHandlerRegistration = registration{}

// HasSynced is true once the handler was handed the initial list.
func (r registration) HasSynced() bool { return r.inner.HasSynced() }

// HasSyncedChecker is done once HasSynced is true.
func (r registration) HasSyncedChecker() toolscache.DoneChecker {
	return r.inner.HasSyncedChecker()
}

// ShutdownChan is closed once the handler's goroutine ended after the
// handler was removed (client-go's ShutDownEventHandler waits for it).
func (r registration) ShutdownChan() <-chan struct{} {
	if s, ok := r.inner.(interface{ ShutdownChan() <-chan struct{} }); ok {
		return s.ShutdownChan()
	}
	// runtime/cache's registrations all have one; a closed channel keeps
	// a caller from waiting forever should one not.
	closed := make(chan struct{})
	close(closed)
	return closed
}
