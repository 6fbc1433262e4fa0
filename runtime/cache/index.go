package cache

import (
	"fmt"

	"k8s.io/apimachinery/pkg/api/meta"

	"github.com/informer-gen/informer-gen/runtime/cache/internal/store"
)

// NamespaceIndex is the name of the index that files objects by namespace,
// computed by MetaNamespaceIndexFunc. Generated informers always install it.
const NamespaceIndex = "namespace"

// IndexFunc computes the index values of obj. It must be deterministic and
// must not retain obj. It is the engine store's type (package
// internal/store), as client-go's is its store's.
type IndexFunc = store.IndexFunc

// Indexers maps index names to their IndexFunc.
type Indexers = store.Indexers

// MetaNamespaceIndexFunc indexes an object by its namespace.
func MetaNamespaceIndexFunc(obj any) ([]string, error) {
	m, err := meta.Accessor(obj)
	if err != nil {
		return []string{""}, fmt.Errorf("object has no meta: %v", err)
	}
	return []string{m.GetNamespace()}, nil
}

// Indexer is a Store that also maintains named indexes over its objects.
// Every method is safe for concurrent use, and index reads are consistent
// with the store content at the moment of the call.
type Indexer interface {
	Store
	// Index returns the stored objects that share at least one value of
	// index indexName with obj.
	Index(indexName string, obj any) ([]any, error)
	// IndexKeys returns the keys of the stored objects whose indexName
	// index contains indexedValue.
	IndexKeys(indexName, indexedValue string) ([]string, error)
	// ListIndexFuncValues returns every value currently present in index
	// indexName.
	ListIndexFuncValues(indexName string) []string
	// ByIndex returns the stored objects whose indexName index contains
	// indexedValue.
	ByIndex(indexName, indexedValue string) ([]any, error)
	// GetIndexers returns a copy of the installed indexers.
	GetIndexers() Indexers
	// AddIndexers installs more indexes. It may be called while the store
	// holds data (existing objects are indexed at once); adding an index
	// name that already exists is an error.
	AddIndexers(newIndexers Indexers) error
}
