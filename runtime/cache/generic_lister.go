package cache

import (
	"fmt"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// AppendFunc receives the objects ListAll and ListAllByNamespace select.
type AppendFunc func(obj any)

// ListAll calls appendFn with every object of store whose labels match
// selector. Objects are shared with the cache: treat them as read-only.
func ListAll(store Store, selector labels.Selector, appendFn AppendFunc) error {
	return appendMatching(store.List(), selector, appendFn)
}

// ListAllByNamespace is ListAll restricted to one namespace (all of them
// for metav1.NamespaceAll), read through the NamespaceIndex when the
// indexer has it and by scanning otherwise.
func ListAllByNamespace(indexer Indexer, namespace string, selector labels.Selector, appendFn AppendFunc) error {
	if namespace == metav1.NamespaceAll {
		return ListAll(indexer, selector, appendFn)
	}
	// As client-go: the namespace index function applied to an ObjectMeta
	// of the namespace gives the values to read.
	objs, err := indexer.Index(NamespaceIndex, &metav1.ObjectMeta{Namespace: namespace})
	if err == nil {
		return appendMatching(objs, selector, appendFn)
	}
	for _, o := range indexer.List() {
		m, err := meta.Accessor(o)
		if err != nil {
			return err
		}
		if m.GetNamespace() == namespace && selector.Matches(labels.Set(m.GetLabels())) {
			appendFn(o)
		}
	}
	return nil
}

func appendMatching(objs []any, selector labels.Selector, appendFn AppendFunc) error {
	if labels.MatchesNothing(selector) {
		return nil
	}
	all := selector.Empty()
	for _, o := range objs {
		if !all {
			m, err := meta.Accessor(o)
			if err != nil {
				return err
			}
			if !selector.Matches(labels.Set(m.GetLabels())) {
				continue
			}
		}
		appendFn(o)
	}
	return nil
}

// GenericLister lists and gets the objects of an informer's cache without
// knowing their Go type. Objects returned are shared with the cache: treat
// them as read-only. Safe for concurrent use.
type GenericLister interface {
	// List returns the objects, in every namespace, whose labels match
	// selector.
	List(selector labels.Selector) (ret []runtime.Object, err error)
	// Get returns the object whose cache key is name (namespace/name for
	// namespaced objects); a NotFound error of the lister's resource when
	// there is none.
	Get(name string) (runtime.Object, error)
	// ByNamespace returns a lister of one namespace.
	ByNamespace(namespace string) GenericNamespaceLister
}

// GenericNamespaceLister lists and gets the objects of one namespace.
type GenericNamespaceLister interface {
	// List returns the namespace's objects whose labels match selector.
	List(selector labels.Selector) (ret []runtime.Object, err error)
	// Get returns the namespace's object called name. As client-go's, it
	// reads the key namespace/name even for the namespace "": a
	// cluster-scoped object is not found through ByNamespace("").
	Get(name string) (runtime.Object, error)
}

// NewGenericLister returns a GenericLister reading indexer, whose objects
// are of resource.
func NewGenericLister(indexer Indexer, resource schema.GroupResource) GenericLister {
	return genericLister{indexer: indexer, resource: resource}
}

type genericLister struct {
	indexer   Indexer
	resource  schema.GroupResource
	namespace string
	// byNamespace is set by ByNamespace: Get then reads the key
	// namespace + "/" + name, as client-go's, even for the namespace ""
	// (where cluster-scoped objects are never found).
	byNamespace bool
}

func (l genericLister) List(selector labels.Selector) ([]runtime.Object, error) {
	var out []runtime.Object
	var bad error
	err := ListAllByNamespace(l.indexer, l.namespace, selector, func(o any) {
		if ro, ok := o.(runtime.Object); ok {
			out = append(out, ro)
		} else if bad == nil {
			bad = fmt.Errorf("cache: %s cache holds %T, not a runtime.Object", l.resource, o)
		}
	})
	if err == nil {
		err = bad
	}
	return out, err
}

func (l genericLister) ByNamespace(namespace string) GenericNamespaceLister {
	l.namespace, l.byNamespace = namespace, true
	return l
}

func (l genericLister) Get(name string) (runtime.Object, error) {
	key := name
	if l.byNamespace {
		key = l.namespace + "/" + name
	}
	obj, exists, err := l.indexer.GetByKey(key)
	if err != nil {
		return nil, err
	}
	if !exists {
		return nil, apierrors.NewNotFound(l.resource, name)
	}
	ro, ok := obj.(runtime.Object)
	if !ok {
		return nil, fmt.Errorf("cache: %s cache holds %T under %q, not a runtime.Object", l.resource, obj, key)
	}
	return ro, nil
}
