package lister

import (
	"fmt"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
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

// New returns a ResourceIndexer over every object of indexer. resource
// names the objects in NotFound errors; generated listers pass the API
// group and the lowercase singular type name ("persistentvolumeclaim"), as
// lister-gen's do.
func New[T runtime.Object](indexer cache.Indexer, resource schema.GroupResource) ResourceIndexer[T] {
	return ResourceIndexer[T]{indexer: indexer, resource: resource}
}

// NewNamespaced returns a ResourceIndexer that reads parent's objects in
// namespace only.
func NewNamespaced[T runtime.Object](parent ResourceIndexer[T], namespace string) ResourceIndexer[T] {
	parent.namespace = namespace
	return parent
}

// List returns the objects whose labels match selector, nil when none
// does, as client-go's. In a namespaced ResourceIndexer it reads the
// namespace index when the indexer has one, and filters every object by
// namespace otherwise. Unlike client-go's, a nil selector selects
// everything, and an object of another type than T is reported
// (utilruntime.HandleError) and skipped instead of panicking.
func (r ResourceIndexer[T]) List(selector labels.Selector) ([]T, error) {
	if labels.MatchesNothing(selector) {
		return nil, nil
	}
	objs, filterNamespace := r.candidates()
	everything := selector == nil || selector.Empty()
	var ret []T
	if everything && !filterNamespace && len(objs) > 0 {
		ret = make([]T, 0, len(objs))
	}
	for _, o := range objs {
		typed, ok := o.(T)
		if !ok {
			utilruntime.HandleError(fmt.Errorf("lister: %s cache holds %T", r.resource, o))
			continue
		}
		if !everything || filterNamespace {
			keep, err := r.matches(o, selector, everything, filterNamespace)
			if err != nil {
				return nil, err
			}
			if !keep {
				continue
			}
		}
		ret = append(ret, typed)
	}
	if len(ret) == 0 {
		return nil, nil
	}
	return ret, nil
}

// matches reports whether List keeps o: in the namespace when
// filterNamespace, with labels matching selector unless everything.
func (r ResourceIndexer[T]) matches(o any, selector labels.Selector, everything, filterNamespace bool) (bool, error) {
	m, err := meta.Accessor(o)
	if err != nil {
		return false, err
	}
	if filterNamespace && m.GetNamespace() != r.namespace {
		return false, nil
	}
	return everything || selector.Matches(labels.Set(m.GetLabels())), nil
}

// candidates returns the objects List filters: the namespace's objects when
// the namespace index exists (read as client-go's ListAllByNamespace
// does), every object otherwise, in which case filterNamespace says List
// must check each object's namespace.
func (r ResourceIndexer[T]) candidates() (objs []any, filterNamespace bool) {
	if r.namespace == metav1.NamespaceAll {
		return r.indexer.List(), false
	}
	if objs, err := r.indexer.Index(cache.NamespaceIndex, &metav1.ObjectMeta{Namespace: r.namespace}); err == nil {
		return objs, false
	}
	// The indexer has no namespace index.
	return r.indexer.List(), true
}

// Get returns the object named name (in the ResourceIndexer's namespace, if
// any). When it is absent the error is client-go's: apierrors.NewNotFound
// of the ResourceIndexer's resource and name. An object of another type
// than T is an error instead of client-go's panic.
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
