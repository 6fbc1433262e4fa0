package dynamiclister

import (
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/informer-gen/informer-gen/dynamic/internal/resourcelister"
	"github.com/informer-gen/informer-gen/runtime/cache"
)

// Lister lists and gets the objects of one resource. Returned objects are
// the cache's own: treat them as read-only. Safe for concurrent use.
type Lister interface {
	// List lists all resources in the indexer.
	List(selector labels.Selector) (ret []*unstructured.Unstructured, err error)
	// Get retrieves a resource from the indexer with the given name
	Get(name string) (*unstructured.Unstructured, error)
	// Namespace returns an object that can list and get resources in a given namespace.
	Namespace(namespace string) NamespaceLister
}

// NamespaceLister lists and gets the objects of one resource in one
// namespace. Returned objects are the cache's own: treat them as
// read-only. Safe for concurrent use.
type NamespaceLister interface {
	// List lists all resources in the indexer for a given namespace.
	List(selector labels.Selector) (ret []*unstructured.Unstructured, err error)
	// Get retrieves a resource from the indexer for a given namespace and name.
	Get(name string) (*unstructured.Unstructured, error)
}

// New returns the Lister of indexer, a cache of resource gvr, whose
// GroupResource names absent objects in NotFound errors.
func New(indexer cache.Indexer, gvr schema.GroupVersionResource) Lister {
	return dynamicLister{resourcelister.New[*unstructured.Unstructured](indexer, gvr)}
}

type dynamicLister struct {
	resourcelister.Lister[*unstructured.Unstructured]
}

func (l dynamicLister) Namespace(namespace string) NamespaceLister {
	return l.Lister.Namespace(namespace)
}

// NewRuntimeObjectShim returns lister as a cache.GenericLister, as
// client-go's: List returns an empty, non-nil slice when nothing matches.
func NewRuntimeObjectShim(lister Lister) cache.GenericLister {
	return resourcelister.GenericLister[*unstructured.Unstructured]{
		ListFunc: lister.List,
		GetFunc:  lister.Get,
		NamespaceFunc: func(namespace string) resourcelister.GenericNamespaceLister[*unstructured.Unstructured] {
			ns := lister.Namespace(namespace)
			return resourcelister.GenericNamespaceLister[*unstructured.Unstructured]{ListFunc: ns.List, GetFunc: ns.Get}
		},
	}
}
