// Package resourcelister is the lister behind dynamiclister and
// metadatalister: client-go's dynamic and metadata listers, generic over
// the cached object type, reading a runtime/cache Indexer.
package resourcelister
