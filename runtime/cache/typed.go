package cache

import (
	"fmt"

	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
)

// TypedResourceEventHandler receives the notifications of an informer whose
// objects are of type T: ResourceEventHandler without type assertions and
// without tombstone unwrapping. Same concurrency contract as
// ResourceEventHandler. A handler that also implements TypedResyncHandler
// receives resyncs on OnResync; others receive them as OnUpdate(obj, obj).
type TypedResourceEventHandler[T Object] interface {
	// OnAdd is called for an object the handler has not seen yet;
	// isInInitialList as in ResourceEventHandler.OnAdd.
	OnAdd(obj T, isInInitialList bool)
	// OnUpdate is called when an object the handler has seen changed.
	// oldObj is the zero T (nil) only for handlers registered with
	// HandlerOptions.LatestOnly.
	OnUpdate(oldObj, newObj T)
	// OnDelete is called when an object the handler has seen is gone;
	// see DeletedObject for what is known about it.
	OnDelete(obj DeletedObject[T])
}

// TypedResyncHandler is the typed ResyncHandler: implemented by typed
// handlers that want periodic resyncs told apart from updates.
type TypedResyncHandler[T Object] interface {
	// OnResync is called, for every cached object, once per resync
	// period of the handler.
	OnResync(obj T)
}

// TypedResourceEventHandlerFuncs adapts plain functions to
// TypedResourceEventHandler. Nil functions are skipped. When ResyncFunc is
// nil a resync is delivered to UpdateFunc(obj, obj), as client-go does.
// Use TypedResourceEventHandlerDetailedFuncs to learn isInInitialList.
type TypedResourceEventHandlerFuncs[T Object] struct {
	AddFunc    func(obj T)
	UpdateFunc func(oldObj, newObj T)
	DeleteFunc func(obj DeletedObject[T])
	// ResyncFunc, when set, receives resyncs instead of UpdateFunc.
	ResyncFunc func(obj T)
}

// OnAdd calls AddFunc if it is set.
func (f TypedResourceEventHandlerFuncs[T]) OnAdd(obj T, _ bool) {
	if f.AddFunc != nil {
		f.AddFunc(obj)
	}
}

// OnUpdate calls UpdateFunc if it is set.
func (f TypedResourceEventHandlerFuncs[T]) OnUpdate(oldObj, newObj T) {
	if f.UpdateFunc != nil {
		f.UpdateFunc(oldObj, newObj)
	}
}

// OnDelete calls DeleteFunc if it is set.
func (f TypedResourceEventHandlerFuncs[T]) OnDelete(obj DeletedObject[T]) {
	if f.DeleteFunc != nil {
		f.DeleteFunc(obj)
	}
}

// OnResync calls ResyncFunc, or UpdateFunc(obj, obj) when ResyncFunc is nil.
func (f TypedResourceEventHandlerFuncs[T]) OnResync(obj T) {
	resyncOrUpdate(f.ResyncFunc, f.UpdateFunc, obj)
}

// TypedResourceEventHandlerDetailedFuncs is TypedResourceEventHandlerFuncs
// whose AddFunc also receives isInInitialList.
type TypedResourceEventHandlerDetailedFuncs[T Object] struct {
	AddFunc    func(obj T, isInInitialList bool)
	UpdateFunc func(oldObj, newObj T)
	DeleteFunc func(obj DeletedObject[T])
	// ResyncFunc, when set, receives resyncs instead of UpdateFunc.
	ResyncFunc func(obj T)
}

// OnAdd calls AddFunc if it is set.
func (f TypedResourceEventHandlerDetailedFuncs[T]) OnAdd(obj T, isInInitialList bool) {
	if f.AddFunc != nil {
		f.AddFunc(obj, isInInitialList)
	}
}

// OnUpdate calls UpdateFunc if it is set.
func (f TypedResourceEventHandlerDetailedFuncs[T]) OnUpdate(oldObj, newObj T) {
	if f.UpdateFunc != nil {
		f.UpdateFunc(oldObj, newObj)
	}
}

// OnDelete calls DeleteFunc if it is set.
func (f TypedResourceEventHandlerDetailedFuncs[T]) OnDelete(obj DeletedObject[T]) {
	if f.DeleteFunc != nil {
		f.DeleteFunc(obj)
	}
}

// OnResync calls ResyncFunc, or UpdateFunc(obj, obj) when ResyncFunc is nil.
func (f TypedResourceEventHandlerDetailedFuncs[T]) OnResync(obj T) {
	resyncOrUpdate(f.ResyncFunc, f.UpdateFunc, obj)
}

func resyncOrUpdate[T any](resync func(T), update func(T, T), obj T) {
	switch {
	case resync != nil:
		resync(obj)
	case update != nil:
		update(obj, obj)
	}
}

// TypedFilteringResourceEventHandler passes to Handler only the objects
// FilterFunc accepts, translating updates across the filter's boundary: an
// update into the accepted set is an OnAdd, one out of it an OnDelete.
// FilterFunc must be a pure function of the object. Under
// HandlerOptions.LatestOnly an update may come without its old state; it is
// then passed on as OnUpdate(nil, new) when new is accepted and as OnDelete
// of new otherwise.
type TypedFilteringResourceEventHandler[T Object] struct {
	FilterFunc func(obj T) bool
	Handler    TypedResourceEventHandler[T]
}

// OnAdd calls Handler.OnAdd if obj is accepted.
func (f TypedFilteringResourceEventHandler[T]) OnAdd(obj T, isInInitialList bool) {
	if f.FilterFunc(obj) {
		f.Handler.OnAdd(obj, isInInitialList)
	}
}

// OnUpdate calls Handler.OnUpdate, OnAdd or OnDelete, depending on which of
// the two states are accepted.
func (f TypedFilteringResourceEventHandler[T]) OnUpdate(oldObj, newObj T) {
	var zero T
	newer := f.FilterFunc(newObj)
	if oldObj == zero {
		if newer {
			f.Handler.OnUpdate(oldObj, newObj)
		} else {
			f.Handler.OnDelete(DeletedObject[T]{OptionalObj: newObj})
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
		f.Handler.OnDelete(DeletedObject[T]{OptionalObj: oldObj})
	}
}

// OnDelete calls Handler.OnDelete if the deleted object is accepted.
func (f TypedFilteringResourceEventHandler[T]) OnDelete(obj DeletedObject[T]) {
	if f.FilterFunc(obj.OptionalObj) {
		f.Handler.OnDelete(obj)
	}
}

// OnResync passes an accepted object's resync on to Handler (its OnResync
// when it implements TypedResyncHandler, else OnUpdate(obj, obj)).
func (f TypedFilteringResourceEventHandler[T]) OnResync(obj T) {
	if !f.FilterFunc(obj) {
		return
	}
	if r, ok := f.Handler.(TypedResyncHandler[T]); ok {
		r.OnResync(obj)
		return
	}
	f.Handler.OnUpdate(obj, obj)
}

// OnStop passes the end of deliveries on to Handler when it implements
// StopHandler.
func (f TypedFilteringResourceEventHandler[T]) OnStop() {
	if s, ok := f.Handler.(StopHandler); ok {
		s.OnStop()
	}
}

// typedHandler adapts a TypedResourceEventHandler to ResourceEventHandler
// and ResyncHandler: it converts objects to T, reporting (never silently
// dropping, never panicking on) objects of another type, and turns
// tombstones into DeletedObject.
type typedHandler[T Object] struct {
	h TypedResourceEventHandler[T]
}

func (a typedHandler[T]) OnAdd(obj any, isInInitialList bool) {
	if typed, ok := cast[T](obj); ok {
		a.h.OnAdd(typed, isInInitialList)
	}
}

// OnUpdate passes a nil old object (HandlerOptions.LatestOnly) on as T's
// zero value.
func (a typedHandler[T]) OnUpdate(oldObj, newObj any) {
	var oldTyped T
	ok1 := oldObj == nil
	if !ok1 {
		oldTyped, ok1 = cast[T](oldObj)
	}
	newTyped, ok2 := cast[T](newObj)
	if ok1 && ok2 {
		a.h.OnUpdate(oldTyped, newTyped)
	}
}

func (a typedHandler[T]) OnStop() {
	if s, ok := a.h.(StopHandler); ok {
		s.OnStop()
	}
}

func (a typedHandler[T]) OnResync(obj any) {
	typed, ok := cast[T](obj)
	if !ok {
		return
	}
	if r, ok := a.h.(TypedResyncHandler[T]); ok {
		r.OnResync(typed)
		return
	}
	a.h.OnUpdate(typed, typed)
}

func (a typedHandler[T]) OnDelete(obj any) {
	if tombstone, ok := obj.(DeletedFinalStateUnknown); ok {
		d := DeletedObject[T]{FinalStateUnknown: &tombstone}
		if tombstone.Obj != nil {
			typed, ok := cast[T](tombstone.Obj)
			if !ok {
				return
			}
			d.OptionalObj = typed
		}
		a.h.OnDelete(d)
		return
	}
	if typed, ok := cast[T](obj); ok {
		a.h.OnDelete(DeletedObject[T]{OptionalObj: typed})
	}
}

// cast converts obj to T. A mismatch means the informer was built for
// another type; it is reported, never silently dropped.
func cast[T any](obj any) (T, bool) {
	typed, ok := obj.(T)
	if !ok {
		utilruntime.HandleError(fmt.Errorf("cache: typed handler for %T received %T", typed, obj))
	}
	return typed, ok
}

// castAll converts objs to []T, skipping (and reporting) objects of another
// type, which only a misconfigured informer can hold.
func castAll[T any](objs []any) []T {
	out := make([]T, 0, len(objs))
	for _, o := range objs {
		if typed, ok := o.(T); ok {
			out = append(out, typed)
			continue
		}
		var zero T
		utilruntime.HandleError(fmt.Errorf("cache: cached object is %T, not %T", o, zero))
	}
	return out
}
