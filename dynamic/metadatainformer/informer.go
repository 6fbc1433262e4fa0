package metadatainformer

import (
	"context"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/metadata"

	"github.com/informer-gen/informer-gen/dynamic/metadatalister"
	"github.com/informer-gen/informer-gen/runtime/cache"
	rtmetadata "github.com/informer-gen/informer-gen/runtime/metadata"
)

// NewFilteredMetadataInformer constructs a new informer for a metadata
// type: a new, not yet running informer of resource gvr in namespace
// (metav1.NamespaceAll for every namespace and for cluster-scoped
// resources) through client, with the given resync period, indexers and
// list-options tweak (may be nil). It streams its initial list as the
// factory's informers do, and keeps managedFields.
//
// Prefer a factory's informer, shared by every controller of the process,
// over one made here.
func NewFilteredMetadataInformer(client metadata.Interface, gvr schema.GroupVersionResource, namespace string, resyncPeriod time.Duration, indexers cache.Indexers, tweakListOptions TweakListOptionsFunc) GenericInformer {
	inf := rtmetadata.NewInformerWithOptions(clientAdapter{client}, gvr, namespace, tweakListOptions, cache.SharedIndexInformerOptions{
		ResyncPeriod: resyncPeriod,
		Indexers:     indexers,
		UseWatchList: true,
	})
	return metadataInformer{informer: inf, gvr: gvr}
}

// metadataInformer is the GenericInformer of one resource's informer. A
// comparable value: two for the same informer are equal.
type metadataInformer struct {
	informer cache.SharedIndexInformer
	gvr      schema.GroupVersionResource
}

func (d metadataInformer) Informer() cache.SharedIndexInformer {
	return d.informer
}

// Lister returns a cache.GenericLister of the informer's cache, as
// client-go's: metadatalister.NewRuntimeObjectShim(metadatalister.New(...)).
func (d metadataInformer) Lister() cache.GenericLister {
	return metadatalister.NewRuntimeObjectShim(metadatalister.New(d.informer.GetIndexer(), d.gvr))
}

// clientAdapter adapts client-go's metadata client to runtime/metadata's
// Client.
type clientAdapter struct {
	client metadata.Interface
}

func (a clientAdapter) List(ctx context.Context, resource schema.GroupVersionResource, namespace string, opts metav1.ListOptions) (*metav1.PartialObjectMetadataList, error) {
	return a.client.Resource(resource).Namespace(namespace).List(ctx, opts)
}

func (a clientAdapter) Watch(ctx context.Context, resource schema.GroupVersionResource, namespace string, opts metav1.ListOptions) (watch.Interface, error) {
	return a.client.Resource(resource).Namespace(namespace).Watch(ctx, opts)
}

// IsWatchListSemanticsUnSupported reports whether the adapted client
// cannot stream lists (client-go's fake metadata client), so that
// informers list instead.
func (a clientAdapter) IsWatchListSemanticsUnSupported() bool {
	return cache.ClientCannotStreamLists(a.client)
}
