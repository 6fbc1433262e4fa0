package metadata

import (
	"context"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/watch"

	"github.com/informer-gen/informer-gen/runtime/cache"
)

// NewListWatch returns the cache.ListWatch of resource in namespace
// through client. tweak, when not nil, edits the options of every list and
// watch (selectors, typically).
func NewListWatch(client Client, resource schema.GroupVersionResource, namespace string, tweak func(*metav1.ListOptions)) *cache.ListWatch {
	return &cache.ListWatch{
		ListWithContextFunc: func(ctx context.Context, opts metav1.ListOptions) (runtime.Object, error) {
			if tweak != nil {
				tweak(&opts)
			}
			return client.List(ctx, resource, namespace, opts)
		},
		WatchFuncWithContext: func(ctx context.Context, opts metav1.ListOptions) (watch.Interface, error) {
			if tweak != nil {
				tweak(&opts)
			}
			return client.Watch(ctx, resource, namespace, opts)
		},
	}
}

// NewInformer returns a new, not yet running informer that caches the
// objects of resource in namespace (metav1.NamespaceAll for every
// namespace and for cluster-scoped resources) as
// *metav1.PartialObjectMetadata, with the given default resync period,
// indexers and list-options tweak (may be nil). It keeps managedFields;
// factory.Shared.MetadataInformerFor strips them by default.
//
// Prefer a factory's informer, shared by every controller of the process,
// over one made here.
func NewInformer(client Client, resource schema.GroupVersionResource, namespace string, resync time.Duration, indexers cache.Indexers, tweak func(*metav1.ListOptions)) cache.SharedIndexInformer {
	return NewInformerWithOptions(client, resource, namespace, tweak, cache.SharedIndexInformerOptions{ResyncPeriod: resync, Indexers: indexers})
}

// NewInformerWithOptions is NewInformer with every informer option; an
// empty ObjectDescription names the informer after resource. A client that
// cannot stream lists (cache.ClientCannotStreamLists) is never asked to,
// whatever opts.UseWatchList says.
func NewInformerWithOptions(client Client, resource schema.GroupVersionResource, namespace string, tweak func(*metav1.ListOptions), opts cache.SharedIndexInformerOptions) cache.SharedIndexInformer {
	if opts.ObjectDescription == "" {
		opts.ObjectDescription = resource.String() + " (metadata)"
	}
	if opts.Identifier.GroupVersionResource().Empty() {
		// The resource names the informer's sync errors.
		opts.Identifier = (*cache.InformerName)(nil).WithResource(resource)
	}
	lw := cache.ToListWatcherWithWatchListSemantics(NewListWatch(client, resource, namespace, tweak), client)
	return cache.NewSharedIndexInformerWithOptions(lw, &metav1.PartialObjectMetadata{}, opts)
}

// Informer is a metadata-only informer of one resource together with its
// lister, the metadata counterpart of a generated factory's
// GenericInformer. Safe for concurrent use.
type Informer interface {
	// Informer returns the shared informer.
	Informer() cache.SharedIndexInformer
	// Lister returns a lister of the informer's cache.
	Lister() Lister
}

// NewResourceInformer returns the Informer of informer, a metadata-only
// informer of resource.
func NewResourceInformer(informer cache.SharedIndexInformer, resource schema.GroupVersionResource) Informer {
	return resourceInformer{informer: informer, resource: resource}
}

type resourceInformer struct {
	informer cache.SharedIndexInformer
	resource schema.GroupVersionResource
}

func (r resourceInformer) Informer() cache.SharedIndexInformer { return r.informer }

func (r resourceInformer) Lister() Lister { return NewLister(r.informer.GetIndexer(), r.resource) }
