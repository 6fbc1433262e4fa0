// Package clientgoctl is a controller written against client-go v0.37 the
// way kube-controller-manager's controllers are: a typed shared informer
// built from a ListWatch, typed event handlers with DeletedObject, typed
// indexers, cache.ObjectName work items and WaitForNamedCacheSyncWithContext.
// Its tests fill the informer's indexer directly (GetIndexer().Add), as
// controller unit tests do, and also run it against a fake clientset.
//
// It is kept compiling and passing against client-go. The apicompat tests
// copy it with the import path k8s.io/client-go/tools/cache rewritten to
// github.com/informer-gen/informer-gen/runtime/cache, and nothing else
// changed, and run its tests again: the proof that such code ports by an
// import rewrite alone.
//
// The controller mirrors ConfigMaps: a ConfigMap annotated
// example.com/mirror-to=<namespace> is copied into that namespace (the
// copy is annotated example.com/mirror-of=<source key>); copies of a
// source that is gone or no longer asks for them are deleted.
package clientgoctl
