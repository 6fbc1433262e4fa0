package cache

import (
	"time"

	"k8s.io/klog/v2"
)

// ResourceEventHandler receives the notifications of a SharedInformer.
//
// The informer calls the methods of one handler from a single goroutine, in
// order per object key, never concurrently with each other; different
// handlers run on different goroutines. A handler must not mutate the objects
// it receives. A handler that blocks delays only itself (see the package
// documentation for the delivery guarantee of lagging handlers: unlike
// client-go's, a lagging handler receives coalesced notifications, not
// every intermediate state).
type ResourceEventHandler interface {
	// OnAdd is called for an object the handler has not seen yet.
	// isInInitialList is true while the handler receives the content the
	// informer had when the handler was registered, or the first list.
	OnAdd(obj any, isInInitialList bool)
	// OnUpdate is called when an object the handler has seen changed.
	OnUpdate(oldObj, newObj any)
	// OnDelete is called when an object the handler has seen is gone. obj
	// is either the last state of the object or a DeletedFinalStateUnknown
	// tombstone when the deletion itself was not observed.
	OnDelete(obj any)
}

// ResyncHandler is implemented by handlers that want periodic resync
// notifications told apart from real updates. A handler that does not
// implement it receives a resync as OnUpdate(obj, obj), as client-go does.
type ResyncHandler interface {
	// OnResync is called, for every object in the store, once per resync
	// period of the handler.
	OnResync(obj any)
}

// StopHandler is implemented by handlers that want to know when
// deliveries to them end for good: their informer stopped (its Run
// returned, for instance because a factory removed the informer or shut
// down) or the handler was removed (RemoveEventHandler). OnStop is called
// once, from the handler's delivery goroutine, after its last
// notification; notifications still pending then are dropped. A handler
// whose informer never ran, or whose registration failed, gets no OnStop.
// The handler wrappers of this package (filtering, typed) pass it on.
type StopHandler interface {
	OnStop()
}

// ResourceEventHandlerFuncs adapts plain functions to ResourceEventHandler
// and ResyncHandler. Nil functions are skipped. When ResyncFunc is nil, a
// resync is delivered to UpdateFunc with the same object twice, as
// client-go does. Use ResourceEventHandlerDetailedFuncs to learn
// isInInitialList.
type ResourceEventHandlerFuncs struct {
	AddFunc    func(obj any)
	UpdateFunc func(oldObj, newObj any)
	DeleteFunc func(obj any)
	// ResyncFunc, when set, receives resyncs instead of UpdateFunc.
	ResyncFunc func(obj any)
}

// OnAdd calls AddFunc if it is set.
func (f ResourceEventHandlerFuncs) OnAdd(obj any, _ bool) {
	if f.AddFunc != nil {
		f.AddFunc(obj)
	}
}

// OnUpdate calls UpdateFunc if it is set.
func (f ResourceEventHandlerFuncs) OnUpdate(oldObj, newObj any) {
	if f.UpdateFunc != nil {
		f.UpdateFunc(oldObj, newObj)
	}
}

// OnDelete calls DeleteFunc if it is set.
func (f ResourceEventHandlerFuncs) OnDelete(obj any) {
	if f.DeleteFunc != nil {
		f.DeleteFunc(obj)
	}
}

// OnResync calls ResyncFunc, or UpdateFunc(obj, obj) when ResyncFunc is nil.
func (f ResourceEventHandlerFuncs) OnResync(obj any) {
	resyncOrUpdate(f.ResyncFunc, f.UpdateFunc, obj)
}

// ResourceEventHandlerDetailedFuncs is ResourceEventHandlerFuncs whose
// AddFunc also receives isInInitialList.
type ResourceEventHandlerDetailedFuncs struct {
	AddFunc    func(obj any, isInInitialList bool)
	UpdateFunc func(oldObj, newObj any)
	DeleteFunc func(obj any)
	// ResyncFunc, when set, receives resyncs instead of UpdateFunc.
	ResyncFunc func(obj any)
}

// OnAdd calls AddFunc if it is set.
func (f ResourceEventHandlerDetailedFuncs) OnAdd(obj any, isInInitialList bool) {
	if f.AddFunc != nil {
		f.AddFunc(obj, isInInitialList)
	}
}

// OnUpdate calls UpdateFunc if it is set.
func (f ResourceEventHandlerDetailedFuncs) OnUpdate(oldObj, newObj any) {
	if f.UpdateFunc != nil {
		f.UpdateFunc(oldObj, newObj)
	}
}

// OnDelete calls DeleteFunc if it is set.
func (f ResourceEventHandlerDetailedFuncs) OnDelete(obj any) {
	if f.DeleteFunc != nil {
		f.DeleteFunc(obj)
	}
}

// OnResync calls ResyncFunc, or UpdateFunc(obj, obj) when ResyncFunc is nil.
func (f ResourceEventHandlerDetailedFuncs) OnResync(obj any) {
	resyncOrUpdate(f.ResyncFunc, f.UpdateFunc, obj)
}

// FilteringResourceEventHandler passes to Handler only the objects
// FilterFunc accepts, translating updates across the filter's boundary: an
// update into the accepted set is an OnAdd, one out of it an OnDelete.
// FilterFunc must be a pure function of the object; it also receives the
// DeletedFinalStateUnknown tombstones of deletes, as in client-go. Under
// HandlerOptions.LatestOnly an update may come without its old state; it is
// then passed on as OnUpdate(nil, new) when new is accepted and as OnDelete
// of new otherwise.
type FilteringResourceEventHandler struct {
	FilterFunc func(obj any) bool
	Handler    ResourceEventHandler
}

// OnAdd calls Handler.OnAdd if obj is accepted.
func (f FilteringResourceEventHandler) OnAdd(obj any, isInInitialList bool) {
	if f.FilterFunc(obj) {
		f.Handler.OnAdd(obj, isInInitialList)
	}
}

// OnUpdate calls Handler.OnUpdate, OnAdd or OnDelete, depending on which of
// the two states are accepted.
func (f FilteringResourceEventHandler) OnUpdate(oldObj, newObj any) {
	newer := f.FilterFunc(newObj)
	if oldObj == nil {
		if newer {
			f.Handler.OnUpdate(oldObj, newObj)
		} else {
			f.Handler.OnDelete(newObj)
		}
		return
	}
	older := f.FilterFunc(oldObj)
	switch {
	case newer && older:
		f.Handler.OnUpdate(oldObj, newObj)
	case newer:
		f.Handler.OnAdd(newObj, false)
	case older:
		f.Handler.OnDelete(oldObj)
	}
}

// OnDelete calls Handler.OnDelete if obj is accepted.
func (f FilteringResourceEventHandler) OnDelete(obj any) {
	if f.FilterFunc(obj) {
		f.Handler.OnDelete(obj)
	}
}

// OnResync passes an accepted object's resync on to Handler (its OnResync
// when it implements ResyncHandler, else OnUpdate(obj, obj)).
func (f FilteringResourceEventHandler) OnResync(obj any) {
	if !f.FilterFunc(obj) {
		return
	}
	if r, ok := f.Handler.(ResyncHandler); ok {
		r.OnResync(obj)
		return
	}
	f.Handler.OnUpdate(obj, obj)
}

// OnStop passes the end of deliveries on to Handler when it implements
// StopHandler.
func (f FilteringResourceEventHandler) OnStop() {
	if s, ok := f.Handler.(StopHandler); ok {
		s.OnStop()
	}
}

// HandlerOptions tunes one handler registration.
type HandlerOptions struct {
	// Logger, when set, is used for the handler's log messages instead of
	// the informer's.
	Logger *klog.Logger
	// Name identifies the handler in logs and metrics. Optional.
	Name string
	// ResyncPeriod, when set, asks for resync notifications at this period
	// (raised to the informer's minimum, and never more often than the
	// informer checks). Nil uses the informer's default resync period.
	ResyncPeriod *time.Duration
	// LatestOnly trades the old object of updates for memory while the
	// handler lags: an update that reaches the handler after being merged
	// with others of its key (beyond the in-order buffer) arrives as
	// OnUpdate(nil, new), so the informer need not keep the states the
	// handler was last given alive. Use it for handlers that act only on
	// the latest state, such as ones that enqueue keys; see the package
	// documentation's delivery guarantee.
	LatestOnly bool
}

// ResourceEventHandlerRegistration is the handle returned when a handler is
// added; pass it to RemoveEventHandler to remove the handler.
type ResourceEventHandlerRegistration interface {
	// HasSynced is true once this handler has been delivered every object
	// of the informer's initial list (or, for a handler added after the
	// informer synced, of the content the informer had when it was added).
	// It never becomes false again.
	HasSynced() bool
	// HasSyncedChecker returns a DoneChecker whose channel is closed once
	// HasSynced is true.
	HasSyncedChecker() DoneChecker
}
