package dynamicinformer

import (
	"context"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/dynamic"

	"github.com/informer-gen/informer-gen/dynamic/dynamiclister"
	"github.com/informer-gen/informer-gen/runtime/cache"
)

// NewFilteredDynamicInformer constructs a new informer for a dynamic type:
// a new, not yet running informer of resource gvr in namespace
// (metav1.NamespaceAll for every namespace and for cluster-scoped
// resources) through client, with the given resync period, indexers and
// list-options tweak (may be nil). It streams its initial list as the
// factory's informers do, and keeps managedFields.
//
// Prefer a factory's informer, shared by every controller of the process,
// over one made here.
func NewFilteredDynamicInformer(client dynamic.Interface, gvr schema.GroupVersionResource, namespace string, resyncPeriod time.Duration, indexers cache.Indexers, tweakListOptions TweakListOptionsFunc) GenericInformer {
	inf := newInformer(client, gvr, namespace, tweakListOptions, cache.SharedIndexInformerOptions{
		ResyncPeriod: resyncPeriod,
		Indexers:     indexers,
		UseWatchList: true,
	})
	return dynamicInformer{informer: inf, gvr: gvr}
}

// newInformer returns the informer of gvr in namespace through client,
// named after gvr as client-go's.
func newInformer(client dynamic.Interface, gvr schema.GroupVersionResource, namespace string, tweak func(*metav1.ListOptions), opts cache.SharedIndexInformerOptions) cache.SharedIndexInformer {
	opts.ObjectDescription = gvr.String()
	// The resource names the informer's sync errors.
	opts.Identifier = (*cache.InformerName)(nil).WithResource(gvr)
	resource := func() dynamic.ResourceInterface { return client.Resource(gvr).Namespace(namespace) }
	lw := &cache.ListWatch{
		ListWithContextFunc: func(ctx context.Context, options metav1.ListOptions) (runtime.Object, error) {
			if tweak != nil {
				tweak(&options)
			}
			return resource().List(ctx, options)
		},
		WatchFuncWithContext: func(ctx context.Context, options metav1.ListOptions) (watch.Interface, error) {
			if tweak != nil {
				tweak(&options)
			}
			return resource().Watch(ctx, options)
		},
	}
	return cache.NewSharedIndexInformerWithOptions(cache.ToListWatcherWithWatchListSemantics(lw, client), &unstructured.Unstructured{}, opts)
}

// dynamicInformer is the GenericInformer of one resource's informer. A
// comparable value: two for the same informer are equal.
type dynamicInformer struct {
	informer cache.SharedIndexInformer
	gvr      schema.GroupVersionResource
}

func (d dynamicInformer) Informer() cache.SharedIndexInformer {
	return d.informer
}

// Lister returns a cache.GenericLister of the informer's cache, as
// client-go's: dynamiclister.NewRuntimeObjectShim(dynamiclister.New(...)).
func (d dynamicInformer) Lister() cache.GenericLister {
	return dynamiclister.NewRuntimeObjectShim(dynamiclister.New(d.informer.GetIndexer(), d.gvr))
}
