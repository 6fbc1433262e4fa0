package lister

import (
	"fmt"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"

	"github.com/informer-gen/informer-gen/runtime/cache"
)

// ResourceIndexer lists and gets objects of type T from an Indexer, either
// across all namespaces or, when made by NewNamespaced, in one namespace.
// It is a small value, safe to copy and to use concurrently.
type ResourceIndexer[T runtime.Object] struct {
	indexer   cache.Indexer
	resource  schema.GroupResource
	namespace string // "" reads every namespace (and cluster-scoped objects)
}

// New returns a ResourceIndexer over every object of indexer. resource names
// the objects in NotFound errors; it must be the plural resource name.
func New[T runtime.Object](indexer cache.Indexer, resource schema.GroupResource) ResourceIndexer[T] {
	return ResourceIndexer[T]{indexer: indexer, resource: resource}
}

// NewNamespaced returns a ResourceIndexer that reads parent's objects in
// namespace only.
func NewNamespaced[T runtime.Object](parent ResourceIndexer[T], namespace string) ResourceIndexer[T] {
	parent.namespace = namespace
	return parent
}

// List returns the objects whose labels match selector. In a namespaced
// ResourceIndexer it reads the namespace index when the indexer has one,
// and filters every object by namespace otherwise.
func (r ResourceIndexer[T]) List(selector labels.Selector) ([]T, error) {
	objs, filterNamespace := r.candidates()
	everything := selector == nil || selector.Empty()
	ret := make([]T, 0, len(objs))
	for _, o := range objs {
		typed, ok := o.(T)
		if !ok {
			utilruntime.HandleError(fmt.Errorf("lister: %s cache holds %T", r.resource, o))
			continue
		}
		if !everything || filterNamespace {
			m, err := meta.Accessor(o)
			if err != nil {
				return nil, err
			}
			if filterNamespace && m.GetNamespace() != r.namespace {
				continue
			}
			if !everything && !selector.Matches(labels.Set(m.GetLabels())) {
				continue
			}
		}
		ret = append(ret, typed)
	}
	return ret, nil
}

// candidates returns the objects List filters: the namespace's objects when
// the namespace index exists, every object otherwise, in which case
// filterNamespace says List must check each object's namespace.
func (r ResourceIndexer[T]) candidates() (objs []any, filterNamespace bool) {
	if r.namespace == "" {
		return r.indexer.List(), false
	}
	if objs, err := r.indexer.ByIndex(cache.NamespaceIndex, r.namespace); err == nil {
		return objs, false
	}
	// The indexer has no namespace index.
	return r.indexer.List(), true
}

// Get returns the object named name (in the ResourceIndexer's namespace, if
// any). When it is absent the error satisfies apierrors.IsNotFound and names
// the resource.
func (r ResourceIndexer[T]) Get(name string) (T, error) {
	var zero T
	key := cache.ObjectName{Namespace: r.namespace, Name: name}.String()
	obj, exists, err := r.indexer.GetByKey(key)
	if err != nil {
		return zero, err
	}
	if !exists {
		return zero, apierrors.NewNotFound(r.resource, name)
	}
	typed, ok := obj.(T)
	if !ok {
		return zero, fmt.Errorf("lister: %s %q is cached as %T, not %T", r.resource, key, obj, zero)
	}
	return typed, nil
}
