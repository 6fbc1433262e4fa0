package controllerruntime

import (
	toolscache "k8s.io/client-go/tools/cache"

	"github.com/informer-gen/informer-gen/runtime/cache"
)

// indexer is runtime/cache's Indexer (the informer's cache) as client-go's
// Indexer: every method is the runtime's, with the Indexers converted.
type indexer struct {
	cache.Indexer
}

var _ toolscache.Indexer = indexer{}

// GetIndexers returns the installed index functions.
func (i indexer) GetIndexers() toolscache.Indexers {
	return clientGoIndexers(i.Indexer.GetIndexers())
}

// AddIndexers installs more index functions.
func (i indexer) AddIndexers(newIndexers toolscache.Indexers) error {
	return i.Indexer.AddIndexers(ourIndexers(newIndexers))
}
