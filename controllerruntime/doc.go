// Package controllerruntime plugs informer-gen's informer into
// controller-runtime's cache: NewInformer has the type of
// sigs.k8s.io/controller-runtime/pkg/cache.Options.NewInformer, so that
//
//	ctrl.Options{Cache: cache.Options{NewInformer: controllerruntime.NewInformer}}
//
// is the whole change for a controller-runtime user. Every informer of
// controller-runtime's cache (per type, per namespace) is then
// informer-gen's runtime/cache informer, compacting and streaming its
// initial list, behind client-go's interfaces.
//
// # Data flow
//
//	controller-runtime's cache --client-go ListWatch, example object, resync, indexers--> NewInformer
//	    |                                                     (a client-go ListerWatcher is a runtime/cache one)
//	    v
//	informer (client-go's SharedIndexInformer) --calls--> runtime/cache SharedIndexInformer
//	    |  handler: runtime/cache's tombstones become client-go's DeletedFinalStateUnknown
//	    |  registration, controller: DoneCheckers as client-go's
//	    |  indexer: Indexers converted both ways (same functions)
//	    |  reflectors: a client-go *Reflector (never run) for client-go watch error handlers
//	    v
//	controller-runtime's CacheReader, sources and handlers
//
// Importing the package registers the compaction walks of every k8s.io/api
// type (package kubeapi); the user's API types get theirs from informer-gen
// --walks-only (docs/controller-runtime.md).
//
// It is its own module, which requires client-go (controller-runtime's
// interfaces are client-go's) and never controller-runtime; controllerruntime/crtest,
// a test module, runs controller-runtime's pkg/cache suite on NewInformer.
package controllerruntime
