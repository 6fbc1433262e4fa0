package controllerruntime

import (
	"time"

	"k8s.io/apimachinery/pkg/runtime"
	toolscache "k8s.io/client-go/tools/cache"

	"github.com/informer-gen/informer-gen/runtime/cache"
)

// NewInformer returns informer-gen's shared informer for the objects lw
// serves, of exampleObject's type, behind client-go's
// SharedIndexInformer. It has the type of controller-runtime's
// cache.Options.NewInformer (and client-go's NewSharedIndexInformer), so
//
//	cache.Options{NewInformer: controllerruntime.NewInformer}
//
// builds every informer of controller-runtime's cache on it.
//
// The informer:
//
//   - streams its initial list over a watch (sendInitialEvents) when the
//     server supports it, and lists instead when it does not, or when the
//     watch is an in-process one (a fake clientset) that sends nothing
//     before its initial-events-end bookmark (cache.SharedIndexInformerOptions.UseWatchList);
//   - compacts every cached object after controller-runtime's transform
//     (cache.SharedIndexInformerOptions.Compact), with the walk registered
//     for its type in package runtime/compact (informer-gen's generated
//     walks for k8s.io/api and for the user's API packages) or a
//     reflective one;
//   - keeps metadata.managedFields: only a transform drops them (controller-runtime's
//     cache.TransformStripManagedFields as DefaultTransform);
//   - runs the cache mutation detector in test binaries, as compacting
//     informer-gen informers do; KUBE_CACHE_MUTATION_DETECTOR=false turns
//     it off, =true turns it on everywhere;
//   - tells handlers of what client-go's informer tells them, with the
//     differences runtime/cache documents (no update for an unchanged
//     object of a relist, a bounded backlog for a slow handler); a
//     tombstone is client-go's DeletedFinalStateUnknown.
func NewInformer(lw toolscache.ListerWatcher, exampleObject runtime.Object, defaultResync time.Duration, indexers toolscache.Indexers) toolscache.SharedIndexInformer {
	inner := cache.NewSharedIndexInformerWithOptions(lw, exampleObject, cache.SharedIndexInformerOptions{
		ResyncPeriod: defaultResync,
		Indexers:     ourIndexers(indexers),
		UseWatchList: true,
		Compact:      true,
	})
	return &informer{inner: inner, reflectors: reflectors{lw: lw, exampleObject: exampleObject}}
}
