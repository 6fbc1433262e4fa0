// Package mutation is the cache mutation detector: it keeps a deep copy
// of every object an informer caches and reports any cached object that no
// longer equals its copy, naming the first field that differs
// (firstDifference, path.go). Handlers and lister readers share the
// cache's objects and must not modify them; with compaction, parts of
// an object are shared with other objects too.
//
// # Data flow
//
//	informer's processing goroutine (internal/controller, as its Observer)
//	  Before(obj)            deep copy, before the cache publishes obj
//	  Stored(key, obj, copy) Detector.mu: current[key], the old one retired
//	  Removed(key)           Detector.mu: current[key] retired
//	listener goroutine, after a handler call
//	  CheckHandler(key, handler, registered)  that key's object against its copy, now
//	Run's goroutine (every Period) and the informer after it stopped
//	  Check                  every current and retired object; retired ones dropped
//	  -> Fail(report)        panics by default
//
// # Goroutines and locks
//
// The package starts no goroutine: Run runs on the caller's until its
// context ends. Detector.mu guards the tracked copies and is never held
// while a comparison runs or Fail is called. runtime/cache decides when
// an informer runs a detector (KUBE_CACHE_MUTATION_DETECTOR, its options,
// its test checks) and builds its client-go MutationDetector over one.
package mutation
