// Package lister reads typed objects out of an informer's cache.
//
// Generated listers (FooLister, FooNamespaceLister) embed a ResourceIndexer
// and add nothing but their method names, so every generated lister shares
// the code here. Data flows one way: the informer writes its cache.Indexer;
// a ResourceIndexer only reads it, by key for Get and through the namespace
// index for a namespaced List.
//
// Objects returned are the cached objects themselves, shared with the
// informer and every other reader: treat them as read-only and DeepCopy
// before mutating.
package lister
