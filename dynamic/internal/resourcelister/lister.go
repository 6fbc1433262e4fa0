package resourcelister

import (
	"fmt"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"

	"github.com/informer-gen/informer-gen/runtime/cache"
)

// Lister lists and gets the objects of type T of one resource from an
// Indexer, in every namespace or, when made by Namespace, in one. It is a
// small value, safe to copy and to use concurrently.
type Lister[T runtime.Object] struct {
	indexer cache.Indexer
	gvr     schema.GroupVersionResource
	// namespace is the namespace read when namespaced.
	namespace  string
	namespaced bool
}

// New returns the Lister of every object of indexer, a cache of resource
// gvr.
func New[T runtime.Object](indexer cache.Indexer, gvr schema.GroupVersionResource) Lister[T] {
	return Lister[T]{indexer: indexer, gvr: gvr}
}

// Namespace returns the Lister of l's objects in namespace.
func (l Lister[T]) Namespace(namespace string) Lister[T] {
	l.namespace, l.namespaced = namespace, true
	return l
}

// List returns the objects whose labels match selector, nil when none
// does, as client-go's: cache.ListAll, or cache.ListAllByNamespace for a
// namespace (metav1.NamespaceAll reads every namespace). A nil selector
// selects everything (client-go's panics), and an object of another type
// than T is reported (utilruntime.HandleError) and skipped (client-go's
// panics).
func (l Lister[T]) List(selector labels.Selector) ([]T, error) {
	if selector == nil {
		selector = labels.Everything()
	}
	var ret []T
	appendFn := func(obj any) {
		typed, ok := obj.(T)
		if !ok {
			utilruntime.HandleError(fmt.Errorf("lister: the cache of %s holds a %T", l.gvr, obj))
			return
		}
		ret = append(ret, typed)
	}
	var err error
	if l.namespaced {
		err = cache.ListAllByNamespace(l.indexer, l.namespace, selector, appendFn)
	} else {
		err = cache.ListAll(l.indexer, selector, appendFn)
	}
	return ret, err
}

// Get returns the object called name, reading the key client-go's listers
// read: name, or namespace/name in a namespace (so a lister of
// metav1.NamespaceAll finds nothing, as client-go's). An absent object is
// apierrors.NewNotFound of the resource's GroupResource and name; an
// object of another type than T is an error (client-go's panics).
func (l Lister[T]) Get(name string) (T, error) {
	var zero T
	key := name
	if l.namespaced {
		key = l.namespace + "/" + name
	}
	obj, exists, err := l.indexer.GetByKey(key)
	if err != nil {
		return zero, err
	}
	if !exists {
		return zero, apierrors.NewNotFound(l.gvr.GroupResource(), name)
	}
	typed, ok := obj.(T)
	if !ok {
		return zero, fmt.Errorf("lister: %s %q is cached as %T, not %T", l.gvr, key, obj, zero)
	}
	return typed, nil
}

// GenericLister is the cache.GenericLister of list, get and namespace
// functions: client-go's NewRuntimeObjectShim. Lists return a non-nil
// empty slice when nothing matches, as client-go's shims do.
type GenericLister[T runtime.Object] struct {
	ListFunc      func(labels.Selector) ([]T, error)
	GetFunc       func(string) (T, error)
	NamespaceFunc func(string) GenericNamespaceLister[T]
}

// GenericNamespaceLister is the cache.GenericNamespaceLister of list and
// get functions.
type GenericNamespaceLister[T runtime.Object] struct {
	ListFunc func(labels.Selector) ([]T, error)
	GetFunc  func(string) (T, error)
}

var (
	_ cache.GenericLister          = GenericLister[runtime.Object]{}
	_ cache.GenericNamespaceLister = GenericNamespaceLister[runtime.Object]{}
)

// List returns the objects ListFunc returns as runtime.Objects.
func (s GenericLister[T]) List(selector labels.Selector) ([]runtime.Object, error) {
	return objects(s.ListFunc(selector))
}

// Get returns the object GetFunc returns.
func (s GenericLister[T]) Get(name string) (runtime.Object, error) {
	return s.GetFunc(name)
}

// ByNamespace returns NamespaceFunc(namespace).
func (s GenericLister[T]) ByNamespace(namespace string) cache.GenericNamespaceLister {
	return s.NamespaceFunc(namespace)
}

// List returns the objects ListFunc returns as runtime.Objects.
func (s GenericNamespaceLister[T]) List(selector labels.Selector) ([]runtime.Object, error) {
	return objects(s.ListFunc(selector))
}

// Get returns the object GetFunc returns.
func (s GenericNamespaceLister[T]) Get(name string) (runtime.Object, error) {
	return s.GetFunc(name)
}

// objects converts a list's result as client-go's shims do: nil on error,
// otherwise a slice of the same length, empty but not nil for no objects.
func objects[T runtime.Object](objs []T, err error) ([]runtime.Object, error) {
	if err != nil {
		return nil, err
	}
	ret := make([]runtime.Object, len(objs))
	for i, obj := range objs {
		ret[i] = obj
	}
	return ret, nil
}
