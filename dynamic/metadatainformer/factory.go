package metadatainformer

import (
	"context"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/metadata"

	"github.com/informer-gen/informer-gen/runtime/cache"
	"github.com/informer-gen/informer-gen/runtime/factory"
	rtmetadata "github.com/informer-gen/informer-gen/runtime/metadata"
)

// SharedInformerOption defines the functional option type for
// metadataSharedInformerFactory.
type SharedInformerOption func(*metadataSharedInformerFactory) *metadataSharedInformerFactory

// WithTransform sets a transform on all informers. It runs after
// managedFields are dropped, unless WithFactoryOptions(factory.WithManagedFields())
// keeps them.
func WithTransform(transform cache.TransformFunc) SharedInformerOption {
	return WithFactoryOptions(factory.WithTransform(transform))
}

// WithFactoryOptions configures the factory with runtime/factory's options
// (not in client-go): factory.WithManagedFields() keeps managedFields,
// factory.WithNamespaces watches several namespaces through one cache,
// factory.WithoutWatchList, factory.WithFailFastSync; factory.WithByObject
// and the per-type options of &metav1.PartialObjectMetadata{} apply to
// every resource.
func WithFactoryOptions(opts ...factory.Option) SharedInformerOption {
	return func(f *metadataSharedInformerFactory) *metadataSharedInformerFactory {
		f.opts = append(f.opts, opts...)
		return f
	}
}

// NewSharedInformerFactory constructs a new instance of
// metadataSharedInformerFactory for all namespaces.
func NewSharedInformerFactory(client metadata.Interface, defaultResync time.Duration) SharedInformerFactory {
	return NewFilteredSharedInformerFactory(client, defaultResync, metav1.NamespaceAll, nil)
}

// NewFilteredSharedInformerFactory constructs a new instance of
// metadataSharedInformerFactory. Listers obtained via this factory will be
// subject to the same filters as specified here: every resource's informer
// watches namespace (metav1.NamespaceAll for all; as client-go's, a
// cluster-scoped resource needs a factory of all namespaces) with
// tweakListOptions (may be nil) applied to its lists and watches.
func NewFilteredSharedInformerFactory(client metadata.Interface, defaultResync time.Duration, namespace string, tweakListOptions TweakListOptionsFunc) SharedInformerFactory {
	return NewSharedInformerFactoryWithOptions(client, defaultResync,
		WithFactoryOptions(factory.WithNamespace(namespace), factory.WithTweakListOptions(tweakListOptions)))
}

// NewSharedInformerFactoryWithOptions constructs a new instance of
// metadataSharedInformerFactory with additional options.
func NewSharedInformerFactoryWithOptions(client metadata.Interface, defaultResync time.Duration, options ...SharedInformerOption) SharedInformerFactory {
	f := &metadataSharedInformerFactory{client: clientAdapter{client}, opts: []factory.Option{factory.WithResyncPeriod(defaultResync)}}
	for _, opt := range options {
		f = opt(f)
	}
	f.shared = factory.New(f.opts...)
	return f
}

// metadataSharedInformerFactory hands out one metadata-only informer per
// resource through a runtime/factory Shared factory, which shares, starts
// and stops them. Its fields are set by the constructor; shared is safe
// for concurrent use.
type metadataSharedInformerFactory struct {
	client clientAdapter
	opts   []factory.Option // collected by options, then made into shared
	shared *factory.Shared
}

var _ SharedInformerFactory = &metadataSharedInformerFactory{}

// ForResource returns the metadata-only informer of gvr, made on first
// request; it runs at the next Start.
func (f *metadataSharedInformerFactory) ForResource(gvr schema.GroupVersionResource) GenericInformer {
	inf := f.shared.ResourceInformerFor(&metav1.PartialObjectMetadata{}, gvr, true, func(c factory.InformerConfig) cache.SharedIndexInformer {
		return rtmetadata.NewInformerWithOptions(f.client, gvr, c.Namespace, c.TweakListOptions, cache.SharedIndexInformerOptions{
			ResyncPeriod: c.ResyncPeriod,
			Indexers:     cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc},
			UseWatchList: c.UseWatchList,
			Compact:      c.Compact,
		})
	})
	return metadataInformer{informer: inf, gvr: gvr}
}

// Start runs every informer requested so far that is not running yet,
// until stopCh is closed or Shutdown is called.
func (f *metadataSharedInformerFactory) Start(stopCh <-chan struct{}) {
	f.StartWithContext(wait.ContextForChannel(stopCh))
}

// StartWithContext is Start until ctx is done.
func (f *metadataSharedInformerFactory) StartWithContext(ctx context.Context) {
	f.shared.Start(ctx)
}

// WaitForCacheSync waits until every started informer has synced or
// stopCh is closed, and reports by resource whether each synced.
func (f *metadataSharedInformerFactory) WaitForCacheSync(stopCh <-chan struct{}) map[schema.GroupVersionResource]bool {
	res := f.shared.WaitForCacheSync(wait.ContextForChannel(stopCh))
	if res.SyncedResources == nil {
		return map[schema.GroupVersionResource]bool{}
	}
	return res.SyncedResources
}

// WaitForCacheSyncWithContext is WaitForCacheSync until ctx is done,
// reporting why informers did not sync (SyncResult.SyncedResources and
// ResourceErrors, AsError).
func (f *metadataSharedInformerFactory) WaitForCacheSyncWithContext(ctx context.Context) cache.SyncResult {
	return f.shared.WaitForCacheSync(ctx)
}

// Shutdown stops every informer and waits until their goroutines have
// ended; Start does nothing after it.
func (f *metadataSharedInformerFactory) Shutdown() {
	f.shared.Shutdown()
}
