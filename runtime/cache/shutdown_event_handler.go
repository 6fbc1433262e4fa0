package cache

import "errors"

// errNoShutdownChan is ShutDownEventHandler's error for a registration
// that cannot say when its handler stopped; the message is client-go's.
var errNoShutdownChan = errors.New("handle does not support ShutdownChan()")

// ShutDownEventHandler removes the event handler and blocks until it has
// fully stopped processing events: once it returns, the handler is not
// running and will not be called again.
//
// Like RemoveEventHandler, it is idempotent and thread-safe. However, it
// MUST NOT be called from within the event handler's own callbacks, as
// that would deadlock. It fails with RemoveEventHandler's error, or when
// handle has no ShutdownChan method (a registration of another informer
// implementation).
func ShutDownEventHandler(informer SharedInformer, handle ResourceEventHandlerRegistration) error {
	if err := informer.RemoveEventHandler(handle); err != nil {
		return err
	}
	s, ok := handle.(shutdownNotifier)
	if !ok {
		return errNoShutdownChan
	}
	<-s.ShutdownChan()
	return nil
}

// shutdownNotifier is a registration that says when its handler stopped
// (this package's registration is one; other informers' may not be).
type shutdownNotifier interface {
	// ShutdownChan is closed once the handler's goroutine ended.
	ShutdownChan() <-chan struct{}
}

var _ shutdownNotifier = (*registration)(nil)

// ShutdownChan is closed once the handler's goroutine ended after the
// registration was removed (at once when it was removed before the
// informer ran), or after the informer stopped.
func (r *registration) ShutdownChan() <-chan struct{} { return r.listener.Finished() }
