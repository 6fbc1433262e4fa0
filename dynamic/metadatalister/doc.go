// Package metadatalister is k8s.io/client-go/metadata/metadatalister on
// informer-gen's runtime: listers of *metav1.PartialObjectMetadata objects
// read from a runtime/cache Indexer, such as the cache of a
// metadatainformer informer. Code written against client-go's package
// ports by rewriting its import path to this one.
//
// Results and errors are client-go's (List's nil for no match, NotFound
// naming the resource's GroupResource, a namespace lister's Get reading
// "namespace/name"), with the runtime's deliberate differences: a nil
// selector lists everything, and an object of another type in the cache
// is reported and skipped by List and an error from Get, where
// client-go's panic.
package metadatalister
