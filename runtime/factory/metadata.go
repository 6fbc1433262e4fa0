package factory

import (
	"context"

	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/informer-gen/informer-gen/runtime/cache"
	"github.com/informer-gen/informer-gen/runtime/metadata"
)

// MetadataInformerFor returns the metadata-only informer of resource,
// which caches *metav1.PartialObjectMetadata listed and watched through
// client, making it on first request; Start runs it with the factory's
// other informers, WaitForCacheSync reports it under the result's
// SyncedMetadata, Shutdown stops it. It is a different informer from the
// typed informer of the same resource, and each costs its own list and
// watch.
//
// A namespaced resource's informer watches the factory's namespaces
// (WithNamespace, WithNamespaces); a cluster-scoped one
// (namespaced false) watches all. The factory's list-options tweak,
// default resync period, WithoutWatchList and WithShard apply, and managedFields are
// stripped unless WithManagedFields() keeps them for every type. Per-type
// options
// (WithByObject, WithCustomResyncConfig, WithManagedFields(obj)) and
// WithTransform do not: they are written for typed objects.
//
// Safe for concurrent use. Later calls for the same resource return the
// first informer, whatever client they pass.
func (s *Shared) MetadataInformerFor(client metadata.Client, resource schema.GroupVersionResource, namespaced bool) cache.SharedIndexInformer {
	var namespaces []string
	if namespaced {
		namespaces = s.config.namespaces
	}
	var transform cache.TransformFunc
	if !s.config.keepManagedFields {
		transform = StripManagedFields
	}
	return s.makeOnce(informerKey{resource: resource}, func(config InformerConfig) cache.SharedIndexInformer {
		return metadata.NewInformerWithOptions(client, resource, config.Namespace, config.TweakListOptions, cache.SharedIndexInformerOptions{
			ResyncPeriod: config.ResyncPeriod,
			Indexers:     cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc},
			UseWatchList: config.UseWatchList,
			Compact:      config.Compact,
		})
	}, namespaces, informerSettings{resync: s.config.defaultResync, tweak: s.config.tweak, transform: transform, watchList: !s.config.noWatchList, shard: s.config.shard, compact: !s.config.noCompaction})
}

// RemoveMetadataInformer is RemoveInformer for the metadata-only informer
// of resource.
func (s *Shared) RemoveMetadataInformer(ctx context.Context, resource schema.GroupVersionResource) (bool, error) {
	return s.remove(ctx, informerKey{resource: resource})
}
