package dynamicinformer

import (
	"context"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/dynamic"

	"github.com/informer-gen/informer-gen/runtime/cache"
	"github.com/informer-gen/informer-gen/runtime/factory"
)

// NewDynamicSharedInformerFactory constructs a new instance of
// dynamicSharedInformerFactory for all namespaces.
func NewDynamicSharedInformerFactory(client dynamic.Interface, defaultResync time.Duration) DynamicSharedInformerFactory {
	return NewFilteredDynamicSharedInformerFactory(client, defaultResync, metav1.NamespaceAll, nil)
}

// NewFilteredDynamicSharedInformerFactory constructs a new instance of
// dynamicSharedInformerFactory. Listers obtained via this factory will be
// subject to the same filters as specified here: every resource's informer
// watches namespace (metav1.NamespaceAll for all; as client-go's, a
// cluster-scoped resource needs a factory of all namespaces) with
// tweakListOptions (may be nil) applied to its lists and watches.
func NewFilteredDynamicSharedInformerFactory(client dynamic.Interface, defaultResync time.Duration, namespace string, tweakListOptions TweakListOptionsFunc) DynamicSharedInformerFactory {
	return NewDynamicSharedInformerFactoryWithOptions(client, defaultResync,
		factory.WithNamespace(namespace), factory.WithTweakListOptions(tweakListOptions))
}

// NewDynamicSharedInformerFactoryWithOptions is
// NewDynamicSharedInformerFactory configured by runtime/factory's options
// (not in client-go): factory.WithManagedFields() keeps managedFields,
// factory.WithNamespaces watches several namespaces through one cache,
// factory.WithTransform, factory.WithoutWatchList,
// factory.WithFailFastSync; factory.WithByObject and the per-type options
// of &unstructured.Unstructured{} apply to every resource.
func NewDynamicSharedInformerFactoryWithOptions(client dynamic.Interface, defaultResync time.Duration, opts ...factory.Option) DynamicSharedInformerFactory {
	opts = append([]factory.Option{factory.WithResyncPeriod(defaultResync)}, opts...)
	return &dynamicSharedInformerFactory{client: client, shared: factory.New(opts...)}
}

// dynamicSharedInformerFactory hands out one informer per resource through
// a runtime/factory Shared factory, which shares, starts and stops them.
// Its fields are set once; shared is safe for concurrent use.
type dynamicSharedInformerFactory struct {
	client dynamic.Interface
	shared *factory.Shared
}

var _ DynamicSharedInformerFactory = &dynamicSharedInformerFactory{}

// ForResource returns the informer of gvr, made on first request; it runs
// at the next Start.
func (f *dynamicSharedInformerFactory) ForResource(gvr schema.GroupVersionResource) GenericInformer {
	inf := f.shared.ResourceInformerFor(&unstructured.Unstructured{}, gvr, true, func(c factory.InformerConfig) cache.SharedIndexInformer {
		return newInformer(f.client, gvr, c.Namespace, c.TweakListOptions, cache.SharedIndexInformerOptions{
			ResyncPeriod: c.ResyncPeriod,
			Indexers:     cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc},
			UseWatchList: c.UseWatchList,
			Compact:      c.Compact,
		})
	})
	return dynamicInformer{informer: inf, gvr: gvr}
}

// Start runs every informer requested so far that is not running yet,
// until stopCh is closed or Shutdown is called.
func (f *dynamicSharedInformerFactory) Start(stopCh <-chan struct{}) {
	f.StartWithContext(wait.ContextForChannel(stopCh))
}

// StartWithContext is Start until ctx is done.
func (f *dynamicSharedInformerFactory) StartWithContext(ctx context.Context) {
	f.shared.Start(ctx)
}

// WaitForCacheSync waits until every started informer has synced or
// stopCh is closed, and reports by resource whether each synced.
func (f *dynamicSharedInformerFactory) WaitForCacheSync(stopCh <-chan struct{}) map[schema.GroupVersionResource]bool {
	res := f.shared.WaitForCacheSync(wait.ContextForChannel(stopCh))
	if res.SyncedResources == nil {
		return map[schema.GroupVersionResource]bool{}
	}
	return res.SyncedResources
}

// WaitForCacheSyncWithContext is WaitForCacheSync until ctx is done,
// reporting why informers did not sync (SyncResult.SyncedResources and
// ResourceErrors, AsError).
func (f *dynamicSharedInformerFactory) WaitForCacheSyncWithContext(ctx context.Context) cache.SyncResult {
	return f.shared.WaitForCacheSync(ctx)
}

// Shutdown stops every informer and waits until their goroutines have
// ended; Start does nothing after it.
func (f *dynamicSharedInformerFactory) Shutdown() {
	f.shared.Shutdown()
}
