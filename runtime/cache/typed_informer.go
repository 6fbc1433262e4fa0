package cache

import "fmt"

// TypedSharedIndexInformer is a SharedIndexInformer with typed handlers and
// a typed indexer on top: callers write no type assertions and no tombstone
// unwrapping. It shares everything (cache, goroutines, handlers) with the
// informer it wraps; all methods are safe for concurrent use.
type TypedSharedIndexInformer[T Object] interface {
	SharedIndexInformer

	// AddTypedEventHandler registers a typed handler with at most one
	// HandlerOptions; see SharedInformer.AddEventHandlerWithOptions. The
	// returned registration removes it through RemoveEventHandler.
	AddTypedEventHandler(handler TypedResourceEventHandler[T], options ...HandlerOptions) (ResourceEventHandlerRegistration, error)
	// AddTypedIndexers is AddIndexers with typed index functions.
	AddTypedIndexers(indexers TypedIndexers[T]) error
	// GetTypedIndexer returns the informer's cache with typed reads.
	GetTypedIndexer() TypedIndexer[T]
}

// NewTypedSharedIndexInformer wraps informer, whose objects must all be of
// type T.
func NewTypedSharedIndexInformer[T Object](informer SharedIndexInformer) TypedSharedIndexInformer[T] {
	return &typedSharedIndexInformer[T]{SharedIndexInformer: informer}
}

type typedSharedIndexInformer[T Object] struct {
	SharedIndexInformer
}

func (s typedSharedIndexInformer[T]) AddTypedEventHandler(handler TypedResourceEventHandler[T], options ...HandlerOptions) (ResourceEventHandlerRegistration, error) {
	var opts HandlerOptions
	switch len(options) {
	case 0:
	case 1:
		opts = options[0]
	default:
		return nil, fmt.Errorf("cache: at most one HandlerOptions may be passed, got %d", len(options))
	}
	return s.AddEventHandlerWithOptions(typedHandler[T]{handler}, opts)
}

func (s typedSharedIndexInformer[T]) AddTypedIndexers(indexers TypedIndexers[T]) error {
	return s.AddIndexers(TypedIndexersToIndexers(indexers))
}

func (s typedSharedIndexInformer[T]) GetTypedIndexer() TypedIndexer[T] {
	return typedIndexer[T]{s.GetIndexer()}
}
