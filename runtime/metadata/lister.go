package metadata

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/informer-gen/informer-gen/runtime/cache"
	"github.com/informer-gen/informer-gen/runtime/lister"
)

// Lister lists and gets the objects of a metadata-only informer's cache.
// Its methods have the signatures of client-go's metadatalister.Lister.
// Returned objects are the cache's own: treat them as read-only. Safe for
// concurrent use.
type Lister interface {
	// List returns the objects whose labels match selector, in every
	// namespace.
	List(selector labels.Selector) ([]*metav1.PartialObjectMetadata, error)
	// Get returns the cluster-scoped object called name, or a NotFound
	// error naming the resource.
	Get(name string) (*metav1.PartialObjectMetadata, error)
	// Namespace returns a lister of the objects in namespace.
	Namespace(namespace string) NamespaceLister
}

// NamespaceLister lists and gets the objects of one namespace of a
// metadata-only informer's cache. Returned objects are the cache's own:
// treat them as read-only. Safe for concurrent use.
type NamespaceLister interface {
	// List returns the namespace's objects whose labels match selector.
	List(selector labels.Selector) ([]*metav1.PartialObjectMetadata, error)
	// Get returns the namespace's object called name, or a NotFound error
	// naming the resource.
	Get(name string) (*metav1.PartialObjectMetadata, error)
}

// NewLister returns a Lister over indexer, the cache of a metadata-only
// informer of resource. It reads the namespace index
// (cache.NamespaceIndex) when the indexer has one.
func NewLister(indexer cache.Indexer, resource schema.GroupVersionResource) Lister {
	return resourceLister{lister.New[*metav1.PartialObjectMetadata](indexer, resource.GroupResource())}
}

type resourceLister struct {
	lister.ResourceIndexer[*metav1.PartialObjectMetadata]
}

func (l resourceLister) Namespace(namespace string) NamespaceLister {
	return lister.NewNamespaced(l.ResourceIndexer, namespace)
}
