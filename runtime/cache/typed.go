package cache

import (
	"context"
	"fmt"

	"k8s.io/apimachinery/pkg/runtime"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
)

// TypedResourceEventHandler receives the notifications of an informer whose
// objects are of type T. Deletes carry the object itself: when the deletion
// was not observed directly, obj is the last known state and
// finalStateUnknown is true. Same concurrency contract as
// ResourceEventHandler.
type TypedResourceEventHandler[T runtime.Object] interface {
	OnAdd(obj T, isInInitialList bool)
	// OnUpdate's oldObj is the zero T (nil) only for handlers registered
	// with HandlerOptions.LatestOnly.
	OnUpdate(oldObj, newObj T)
	OnDelete(obj T, finalStateUnknown bool)
	// OnResync is called once per resync period for every cached object.
	OnResync(obj T)
}

// TypedResourceEventHandlerFuncs adapts plain functions to
// TypedResourceEventHandler. Nil functions are skipped; when ResyncFunc is
// nil a resync is delivered to UpdateFunc(obj, obj).
type TypedResourceEventHandlerFuncs[T runtime.Object] struct {
	AddFunc    func(obj T, isInInitialList bool)
	UpdateFunc func(oldObj, newObj T)
	DeleteFunc func(obj T, finalStateUnknown bool)
	ResyncFunc func(obj T)
}

// OnAdd calls AddFunc if it is set.
func (f TypedResourceEventHandlerFuncs[T]) OnAdd(obj T, isInInitialList bool) {
	if f.AddFunc != nil {
		f.AddFunc(obj, isInInitialList)
	}
}

// OnUpdate calls UpdateFunc if it is set.
func (f TypedResourceEventHandlerFuncs[T]) OnUpdate(oldObj, newObj T) {
	if f.UpdateFunc != nil {
		f.UpdateFunc(oldObj, newObj)
	}
}

// OnDelete calls DeleteFunc if it is set.
func (f TypedResourceEventHandlerFuncs[T]) OnDelete(obj T, finalStateUnknown bool) {
	if f.DeleteFunc != nil {
		f.DeleteFunc(obj, finalStateUnknown)
	}
}

// OnResync calls ResyncFunc, or UpdateFunc(obj, obj) when ResyncFunc is nil.
func (f TypedResourceEventHandlerFuncs[T]) OnResync(obj T) {
	switch {
	case f.ResyncFunc != nil:
		f.ResyncFunc(obj)
	case f.UpdateFunc != nil:
		f.UpdateFunc(obj, obj)
	}
}

// TypedSharedIndexInformer is a SharedIndexInformer seen through the Go type
// of its objects: handlers and reads are typed, so callers write no type
// assertions and no tombstone unwrapping. It shares everything (cache,
// goroutines, handlers) with the informer it wraps; all methods are safe for
// concurrent use.
type TypedSharedIndexInformer[T runtime.Object] interface {
	// Informer returns the untyped informer this one wraps.
	Informer() SharedIndexInformer
	// AddEventHandler registers a typed handler; see
	// SharedInformer.AddEventHandlerWithOptions.
	AddEventHandler(handler TypedResourceEventHandler[T], options ...HandlerOptions) (ResourceEventHandlerRegistration, error)
	// RemoveEventHandler removes a handler added with AddEventHandler.
	RemoveEventHandler(handle ResourceEventHandlerRegistration) error
	// Run runs the wrapped informer; see SharedInformer.Run.
	Run(ctx context.Context)
	// HasSynced reports whether the wrapped informer has synced.
	HasSynced() bool
	// List returns every cached object.
	List() []T
	// GetByKey returns the cached object stored under key.
	GetByKey(key string) (obj T, exists bool, err error)
	// ByIndex returns the cached objects whose indexName index contains
	// indexedValue.
	ByIndex(indexName, indexedValue string) ([]T, error)
}

// NewTypedSharedIndexInformer wraps informer, whose objects must all be of
// type T.
func NewTypedSharedIndexInformer[T runtime.Object](informer SharedIndexInformer) TypedSharedIndexInformer[T] {
	return typedInformer[T]{informer}
}

type typedInformer[T runtime.Object] struct {
	informer SharedIndexInformer
}

func (t typedInformer[T]) Informer() SharedIndexInformer { return t.informer }
func (t typedInformer[T]) Run(ctx context.Context)       { t.informer.Run(ctx) }
func (t typedInformer[T]) HasSynced() bool               { return t.informer.HasSynced() }

func (t typedInformer[T]) AddEventHandler(handler TypedResourceEventHandler[T], options ...HandlerOptions) (ResourceEventHandlerRegistration, error) {
	var opts HandlerOptions
	if len(options) > 0 {
		opts = options[len(options)-1]
	}
	return t.informer.AddEventHandlerWithOptions(typedHandler[T]{handler}, opts)
}

func (t typedInformer[T]) RemoveEventHandler(handle ResourceEventHandlerRegistration) error {
	return t.informer.RemoveEventHandler(handle)
}

func (t typedInformer[T]) List() []T {
	return castAll[T](t.informer.GetIndexer().List())
}

func (t typedInformer[T]) GetByKey(key string) (T, bool, error) {
	var zero T
	obj, exists, err := t.informer.GetIndexer().GetByKey(key)
	if err != nil || !exists {
		return zero, exists, err
	}
	typed, ok := obj.(T)
	if !ok {
		return zero, false, fmt.Errorf("cache: object under key %q is %T, not %T", key, obj, zero)
	}
	return typed, true, nil
}

func (t typedInformer[T]) ByIndex(indexName, indexedValue string) ([]T, error) {
	objs, err := t.informer.GetIndexer().ByIndex(indexName, indexedValue)
	if err != nil {
		return nil, err
	}
	return castAll[T](objs), nil
}

// castAll converts objs to []T, skipping (and reporting) objects of another
// type, which only a misconfigured informer can hold.
func castAll[T runtime.Object](objs []any) []T {
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

// typedHandler adapts a TypedResourceEventHandler to ResourceEventHandler
// and ResyncHandler, unwrapping tombstones.
type typedHandler[T runtime.Object] struct {
	h TypedResourceEventHandler[T]
}

func (a typedHandler[T]) OnAdd(obj any, isInInitialList bool) {
	if typed, ok := a.cast(obj); ok {
		a.h.OnAdd(typed, isInInitialList)
	}
}

// OnUpdate passes a nil old object (HandlerOptions.LatestOnly) on as T's
// zero value.
func (a typedHandler[T]) OnUpdate(oldObj, newObj any) {
	var oldTyped T
	ok1 := oldObj == nil
	if !ok1 {
		oldTyped, ok1 = a.cast(oldObj)
	}
	newTyped, ok2 := a.cast(newObj)
	if ok1 && ok2 {
		a.h.OnUpdate(oldTyped, newTyped)
	}
}

func (a typedHandler[T]) OnResync(obj any) {
	if typed, ok := a.cast(obj); ok {
		a.h.OnResync(typed)
	}
}

func (a typedHandler[T]) OnDelete(obj any) {
	finalStateUnknown := false
	if tombstone, ok := obj.(DeletedFinalStateUnknown); ok {
		obj, finalStateUnknown = tombstone.Obj, true
	}
	if typed, ok := a.cast(obj); ok {
		a.h.OnDelete(typed, finalStateUnknown)
	}
}

// cast converts obj to T. A mismatch means the informer was built for
// another type; it is reported, never silently dropped.
func (a typedHandler[T]) cast(obj any) (T, bool) {
	typed, ok := obj.(T)
	if !ok {
		utilruntime.HandleError(fmt.Errorf("cache: typed handler for %T received %T", typed, obj))
	}
	return typed, ok
}
