// Package dynamicinformer is k8s.io/client-go/dynamic/dynamicinformer on
// informer-gen's runtime: a shared informer factory of dynamic informers,
// which list and watch any resource through client-go's dynamic client and
// cache *unstructured.Unstructured objects, for controllers that watch
// resources chosen at run time (garbage collectors, quota, operators of
// arbitrary CRDs). Code written against client-go's package ports by
// rewriting its import path to this one (and dynamiclister's to
// github.com/informer-gen/informer-gen/dynamic/dynamiclister):
//
//	factory := dynamicinformer.NewDynamicSharedInformerFactory(dynamic.NewForConfigOrDie(config), 0)
//	widgets := factory.ForResource(schema.GroupVersionResource{Group: "example.com", Version: "v1", Resource: "widgets"})
//	widgets.Informer().AddEventHandler(handler)
//	factory.Start(ctx.Done())
//	factory.WaitForCacheSync(ctx.Done())
//	objs, err := widgets.Lister().ByNamespace("default").List(labels.Everything())
//
// The informers are runtime/cache SharedIndexInformers, run by a
// runtime/factory Shared factory; handlers receive runtime/cache types
// (cache.DeletedFinalStateUnknown tombstones). Behaviour is client-go's
// but for the runtime's deliberate differences (docs/differences.md), of which
// these concern the factory: informers drop metadata.managedFields unless
// factory.WithManagedFields() is among the options of
// NewDynamicSharedInformerFactoryWithOptions, they stream their initial
// lists (client-go's fake dynamic client lists at once), and Shutdown
// stops the informers itself where client-go's waits for Start's stop
// channel.
//
// The package is in its own module, with metadatainformer, because it
// needs client-go's dynamic client, which informer-gen's runtime never
// imports.
package dynamicinformer
