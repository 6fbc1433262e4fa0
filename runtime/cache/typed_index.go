package cache

import "fmt"

// TypedIndexFunc is the typed IndexFunc: it computes the index values of an
// object of type T. Same contract as IndexFunc.
type TypedIndexFunc[T any] func(obj T) ([]string, error)

// TypedIndexers maps index names to their TypedIndexFunc.
type TypedIndexers[T any] map[string]TypedIndexFunc[T]

// TypedIndexersToIndexers converts indexers to untyped Indexers; see
// TypedIndexerFuncToIndexerFunc.
func TypedIndexersToIndexers[T any](indexers TypedIndexers[T]) Indexers {
	out := make(Indexers, len(indexers))
	for name, fn := range indexers {
		out[name] = TypedIndexerFuncToIndexerFunc(fn)
	}
	return out
}

// TypedIndexerFuncToIndexerFunc converts fn to an IndexFunc. Where
// client-go panics on an object that is not a T, the IndexFunc returns an
// error naming both types, which the store reports without storing the
// object.
func TypedIndexerFuncToIndexerFunc[T any](fn TypedIndexFunc[T]) IndexFunc {
	return func(obj any) ([]string, error) {
		typed, ok := obj.(T)
		if !ok {
			return nil, fmt.Errorf("cache: typed index function for %T received %T", typed, obj)
		}
		return fn(typed)
	}
}

// TypedIndexer is an Indexer with typed reads and typed index functions.
// Same concurrency contract as Indexer. Objects of another type than T
// (which only a misconfigured informer can hold) are reported and left out
// of typed results.
type TypedIndexer[T any] interface {
	Indexer
	// TypedIndex is Index with typed argument and results.
	TypedIndex(indexName string, obj T) ([]T, error)
	// ByTypedIndex is ByIndex with typed results.
	ByTypedIndex(indexName, indexedValue string) ([]T, error)
	// AddTypedIndexers is AddIndexers with typed index functions.
	AddTypedIndexers(newIndexers TypedIndexers[T]) error
}

type typedIndexer[T any] struct {
	Indexer
}

func (i typedIndexer[T]) TypedIndex(indexName string, obj T) ([]T, error) {
	objs, err := i.Index(indexName, obj)
	if err != nil {
		return nil, err
	}
	return castAll[T](objs), nil
}

func (i typedIndexer[T]) ByTypedIndex(indexName, indexedValue string) ([]T, error) {
	objs, err := i.ByIndex(indexName, indexedValue)
	if err != nil {
		return nil, err
	}
	return castAll[T](objs), nil
}

func (i typedIndexer[T]) AddTypedIndexers(newIndexers TypedIndexers[T]) error {
	return i.AddIndexers(TypedIndexersToIndexers(newIndexers))
}
