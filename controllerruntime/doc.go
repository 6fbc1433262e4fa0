// Package controllerruntime plugs informer-gen's informer into
// controller-runtime's cache: NewInformer has the type of
// sigs.k8s.io/controller-runtime/pkg/cache.Options.NewInformer, so that
//
//	ctrl.Options{Cache: cache.Options{NewInformer: controllerruntime.NewInformer}}
//
// is the whole change for a controller-runtime user. Every informer of
// controller-runtime's cache (per type, per namespace) is then
// informer-gen's runtime/cache informer, with compaction, behind
// client-go's interfaces.
//
// It is its own module, which requires client-go (controller-runtime's
// interfaces are client-go's) and never controller-runtime.
package controllerruntime
