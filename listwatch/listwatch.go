package listwatch

import (
	"context"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
	restclient "k8s.io/client-go/rest"

	"github.com/informer-gen/informer-gen/runtime/cache"
)

// Getter is client-go's cache.Getter: something that starts GET requests,
// such as a clientset's RESTClient() (rest.Interface).
type Getter interface {
	Get() *restclient.Request
}

// NewListWatchFromClient returns a ListWatch of resource in namespace
// (metav1.NamespaceAll for all namespaces or a cluster-scoped resource),
// restricted to the objects fieldSelector selects, through c, as client-go's
// cache.NewListWatchFromClient does.
func NewListWatchFromClient(c Getter, resource string, namespace string, fieldSelector fields.Selector) *cache.ListWatch {
	optionsModifier := func(options *metav1.ListOptions) {
		options.FieldSelector = fieldSelector.String()
	}
	return NewFilteredListWatchFromClient(c, resource, namespace, optionsModifier)
}

// NewFilteredListWatchFromClient is NewListWatchFromClient with the list
// and watch options edited by optionsModifier instead of a field selector,
// as client-go's cache.NewFilteredListWatchFromClient.
func NewFilteredListWatchFromClient(c Getter, resource string, namespace string, optionsModifier func(options *metav1.ListOptions)) *cache.ListWatch {
	list := func(ctx context.Context, options metav1.ListOptions) (runtime.Object, error) {
		optionsModifier(&options)
		return c.Get().
			Namespace(namespace).
			Resource(resource).
			VersionedParams(&options, metav1.ParameterCodec).
			Do(ctx).
			Get()
	}
	watchFunc := func(ctx context.Context, options metav1.ListOptions) (watch.Interface, error) {
		options.Watch = true
		optionsModifier(&options)
		return c.Get().
			Namespace(namespace).
			Resource(resource).
			VersionedParams(&options, metav1.ParameterCodec).
			Watch(ctx)
	}
	return &cache.ListWatch{
		ListFunc: func(options metav1.ListOptions) (runtime.Object, error) {
			return list(context.Background(), options)
		},
		WatchFunc: func(options metav1.ListOptions) (watch.Interface, error) {
			return watchFunc(context.Background(), options)
		},
		ListWithContextFunc:  list,
		WatchFuncWithContext: watchFunc,
	}
}
