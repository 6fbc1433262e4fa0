// Package metadata provides metadata-only informers: informers whose cache
// holds *metav1.PartialObjectMetadata (name, namespace, labels,
// annotations, owner references, resourceVersion, ...) instead of whole
// objects, for controllers that only need to know which objects exist and
// how they relate. Such a cache costs a fraction of a full one: a Pod's
// spec and status are usually most of its size.
//
// Data flows like this: a Client (the user's, typically client-go's
// metadata client adapted in a few lines, which generated factories do)
// lists and watches one resource with the Accept header
// "application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1", so the
// server sends only metadata; NewInformer wraps it in a cache.ListWatch and
// a cache.SharedIndexInformer, which caches the objects and notifies
// handlers as any informer does; NewLister reads the cache.
//
// Generated factories make metadata-only informers through
// factory.Shared.MetadataInformerFor, which shares one informer per
// resource and applies the factory's namespaces, list options and resync.
//
// The package does not depend on client-go: Client is the one method pair
// it needs.
package metadata
