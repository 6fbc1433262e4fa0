package metadata

import (
	"context"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/watch"
)

// Client lists and watches the objects of one resource as
// PartialObjectMetadata. client-go's metadata.Interface provides both
// through Resource(resource).Namespace(namespace); generated factories
// adapt it (see WithMetadataClient in a generated factory package).
//
// namespace is metav1.NamespaceAll for every namespace and for
// cluster-scoped resources. Watch events carry *metav1.PartialObjectMetadata.
// Implementations must be safe for concurrent use.
type Client interface {
	// List lists the objects of resource in namespace.
	List(ctx context.Context, resource schema.GroupVersionResource, namespace string, opts metav1.ListOptions) (*metav1.PartialObjectMetadataList, error)
	// Watch watches the objects of resource in namespace.
	Watch(ctx context.Context, resource schema.GroupVersionResource, namespace string, opts metav1.ListOptions) (watch.Interface, error)
}
