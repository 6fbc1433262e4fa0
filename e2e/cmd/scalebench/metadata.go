package main

import (
	"context"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/watch"
	clientmetadata "k8s.io/client-go/metadata"

	"github.com/informer-gen/informer-gen/runtime/cache"
	"github.com/informer-gen/informer-gen/runtime/factory"
)

// metadataLister is a local copy of the coming runtime/metadata.Client
// interface (being added on main): the list and watch of
// PartialObjectMetadata that a metadata-only informer needs.
//
// TODO(merge): replace by metadata.Client from
// github.com/informer-gen/informer-gen/runtime/metadata once it lands.
type metadataLister interface {
	List(ctx context.Context, resource schema.GroupVersionResource, namespace string, opts metav1.ListOptions) (*metav1.PartialObjectMetadataList, error)
	Watch(ctx context.Context, resource schema.GroupVersionResource, namespace string, opts metav1.ListOptions) (watch.Interface, error)
}

// metadataClient adapts client-go's metadata client to metadataLister.
type metadataClient struct{ c clientmetadata.Interface }

func (m metadataClient) List(ctx context.Context, gvr schema.GroupVersionResource, namespace string, opts metav1.ListOptions) (*metav1.PartialObjectMetadataList, error) {
	return m.c.Resource(gvr).Namespace(namespace).List(ctx, opts)
}

func (m metadataClient) Watch(ctx context.Context, gvr schema.GroupVersionResource, namespace string, opts metav1.ListOptions) (watch.Interface, error) {
	return m.c.Resource(gvr).Namespace(namespace).Watch(ctx, opts)
}

// metadataInformerFor stands in for the coming
// (*factory.Shared).MetadataInformerFor(client, resource, namespaced): a
// shared informer of *metav1.PartialObjectMetadata for resource, made by
// the factory (so its defaults, managedFields stripped included, apply),
// with the namespace index.
//
// TODO(merge): replace by f.MetadataInformerFor(client, gvr, namespaced)
// once runtime/metadata and the factory method land on main; the numbers
// of the ours-metadata variant then come from the real implementation.
func metadataInformerFor(f *factory.Shared, client metadataLister, gvr schema.GroupVersionResource, namespaced bool) cache.SharedIndexInformer {
	newInformer := func(c factory.InformerConfig) cache.SharedIndexInformer {
		return cache.NewSharedIndexInformer(&cache.ListWatch{
			ListWithContextFunc: func(ctx context.Context, opts metav1.ListOptions) (runtime.Object, error) {
				if c.TweakListOptions != nil {
					c.TweakListOptions(&opts)
				}
				return client.List(ctx, gvr, c.Namespace, opts)
			},
			WatchFuncWithContext: func(ctx context.Context, opts metav1.ListOptions) (watch.Interface, error) {
				if c.TweakListOptions != nil {
					c.TweakListOptions(&opts)
				}
				return client.Watch(ctx, gvr, c.Namespace, opts)
			},
		}, &metav1.PartialObjectMetadata{}, c.ResyncPeriod, cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc})
	}
	if namespaced {
		return f.InformerFor(&metav1.PartialObjectMetadata{}, newInformer)
	}
	return f.ClusterInformerFor(&metav1.PartialObjectMetadata{}, newInformer)
}
