// Package metadatainformer is k8s.io/client-go/metadata/metadatainformer
// on informer-gen's runtime: a shared informer factory of metadata-only
// informers, which list and watch any resource through client-go's
// metadata client and cache *metav1.PartialObjectMetadata (names, labels,
// annotations, owner references) instead of whole objects, as the garbage
// collector and the quota monitor do. Code written against client-go's
// package ports by rewriting its import path to this one (and
// metadatalister's to
// github.com/informer-gen/informer-gen/dynamic/metadatalister).
//
// The informers are runtime/metadata's, runtime/cache
// SharedIndexInformers run by a runtime/factory Shared factory; handlers
// receive runtime/cache types (cache.DeletedFinalStateUnknown tombstones).
// Behaviour is client-go's but for the runtime's deliberate differences
// (docs/differences.md), of which these concern the factory: informers drop
// metadata.managedFields unless WithFactoryOptions(factory.WithManagedFields())
// keeps them, they stream their initial lists (client-go's fake metadata
// client lists at once), and Shutdown stops the informers itself where
// client-go's waits for Start's stop channel.
package metadatainformer
