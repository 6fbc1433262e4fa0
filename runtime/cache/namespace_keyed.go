package cache

import "time"

// NewNamespaceKeyedIndexerAndReflector creates an Indexer and a Reflector
// filling it from lw. The indexer keys objects with MetaNamespaceKeyFunc
// and indexes them by namespace (NamespaceIndex). The reflector writes
// into the indexer directly: there is no queue and no handler.
func NewNamespaceKeyedIndexerAndReflector(lw ListerWatcher, expectedType any, resyncPeriod time.Duration) (indexer Indexer, reflector *Reflector) {
	indexer = NewIndexer(MetaNamespaceKeyFunc, Indexers{NamespaceIndex: MetaNamespaceIndexFunc})
	reflector = NewReflector(lw, expectedType, indexer, resyncPeriod)
	return indexer, reflector
}
