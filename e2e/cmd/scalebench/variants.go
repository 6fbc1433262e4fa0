package main

import (
	"context"
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	clientmetadata "k8s.io/client-go/metadata"
	"k8s.io/client-go/metadata/metadatainformer"
	"k8s.io/client-go/rest"
	clientgocache "k8s.io/client-go/tools/cache"

	// The core/v1 compaction walks informer-gen generates, as a user
	// generating for k8s.io/api has them: our factory compacts cached Pods
	// by default, with these walks rather than the reflective fallback.
	_ "github.com/informer-gen/informer-gen/e2e/internal/corev1gen/informers/externalversions/core/v1"
	"github.com/informer-gen/informer-gen/runtime/cache"
	"github.com/informer-gen/informer-gen/runtime/factory"
)

// The variants measured, in the order of the report's tables.
const (
	variantClientGo         = "client-go"
	variantClientGoStrip    = "client-go-strip"
	variantOurs             = "ours"
	variantOursPaged        = "ours-paged"
	variantOursMetadata     = "ours-metadata"
	variantClientGoMetadata = "client-go-metadata"
)

// allVariants lists every variant in report order.
var allVariants = []string{variantClientGo, variantClientGoStrip, variantOurs, variantOursPaged, variantOursMetadata, variantClientGoMetadata}

// podsGVR is the resource the metadata informers watch.
var podsGVR = schema.GroupVersionResource{Version: "v1", Resource: "pods"}

// informerUnderTest is the part of either runtime's shared informer the
// measurement needs.
type informerUnderTest interface {
	HasSynced() bool
	// keys lists the keys of the cached objects.
	keys() []string
	// get returns the cached object of key.
	get(key string) (metav1.Object, bool)
}

// started is a running informer and how to stop it.
type started struct {
	informerUnderTest
	stop func()
}

// startVariant builds the informer of variant over cfg, exactly as a user
// of that runtime would with default options, and runs it. The informer
// starts as late as possible: the returned time is taken just before Run
// (or Start).
func startVariant(variant string, cfg *rest.Config) (started, time.Time, error) {
	cs, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		return started{}, time.Time{}, err
	}
	ctx, cancel := context.WithCancel(context.Background())
	switch variant {
	case variantClientGo, variantClientGoStrip:
		var opts []informers.SharedInformerOption
		if variant == variantClientGoStrip {
			opts = append(opts, informers.WithTransform(stripManagedFieldsClientGo))
		}
		f := informers.NewSharedInformerFactoryWithOptions(cs, 0, opts...)
		inf := f.Core().V1().Pods().Informer()
		t0 := time.Now()
		f.Start(ctx.Done())
		return started{clientGoInformer{inf}, func() { cancel(); f.Shutdown() }}, t0, nil
	case variantClientGoMetadata:
		mc, err := clientmetadata.NewForConfig(cfg)
		if err != nil {
			cancel()
			return started{}, time.Time{}, err
		}
		f := metadatainformer.NewSharedInformerFactory(mc, 0)
		inf := f.ForResource(podsGVR).Informer()
		t0 := time.Now()
		f.Start(ctx.Done())
		return started{clientGoInformer{inf}, func() { cancel(); f.Shutdown() }}, t0, nil
	case variantOurs, variantOursPaged:
		var opts []factory.Option
		if variant == variantOursPaged {
			opts = append(opts, factory.WithoutWatchList())
		}
		f := factory.New(opts...)
		inf := f.InformerFor(&corev1.Pod{}, func(c factory.InformerConfig) cache.SharedIndexInformer {
			return newPodInformer(cs, c)
		})
		t0 := time.Now()
		f.Start(ctx)
		return started{oursInformer{inf}, func() { cancel(); f.Shutdown() }}, t0, nil
	case variantOursMetadata:
		mc, err := clientmetadata.NewForConfig(cfg)
		if err != nil {
			cancel()
			return started{}, time.Time{}, err
		}
		f := factory.New()
		inf := f.MetadataInformerFor(metadataClient{mc}, podsGVR, true)
		t0 := time.Now()
		f.Start(ctx)
		return started{oursInformer{inf}, func() { cancel(); f.Shutdown() }}, t0, nil
	}
	cancel()
	return started{}, time.Time{}, fmt.Errorf("unknown variant %q (known: %v)", variant, allVariants)
}

// newPodInformer is what the generated informer of a namespaced type does
// (templates/informer.go.tmpl): a ListWatch over the typed client in the
// factory's namespace, the namespace index, the initial list streamed
// unless the factory says not to (InformerConfig.UseWatchList).
func newPodInformer(cs kubernetes.Interface, c factory.InformerConfig) cache.SharedIndexInformer {
	gvr := schema.GroupVersionResource{Version: "v1", Resource: "pods"}
	return cache.NewSharedIndexInformerWithOptions(
		cache.ToListWatcherWithWatchListSemantics(&cache.ListWatch{
			ListWithContextFunc: func(ctx context.Context, opts metav1.ListOptions) (runtime.Object, error) {
				if c.TweakListOptions != nil {
					c.TweakListOptions(&opts)
				}
				return cs.CoreV1().Pods(c.Namespace).List(ctx, opts)
			},
			WatchFuncWithContext: func(ctx context.Context, opts metav1.ListOptions) (watch.Interface, error) {
				if c.TweakListOptions != nil {
					c.TweakListOptions(&opts)
				}
				return cs.CoreV1().Pods(c.Namespace).Watch(ctx, opts)
			},
		}, cs),
		&corev1.Pod{},
		cache.SharedIndexInformerOptions{
			ResyncPeriod: c.ResyncPeriod,
			Indexers:     cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc},
			// The factory has no name (no factory.WithName), so neither
			// has its primary informer: Identifier is the zero value.
			Identifier:   (*cache.InformerName)(nil).WithResource(gvr),
			UseWatchList: c.UseWatchList,
		},
	)
}

// stripManagedFieldsClientGo is the transform client-go users write to
// drop managedFields.
func stripManagedFieldsClientGo(obj any) (any, error) {
	if m, ok := obj.(metav1.Object); ok {
		m.SetManagedFields(nil)
	}
	return obj, nil
}

// clientGoInformer reads a client-go informer.
type clientGoInformer struct {
	inf clientgocache.SharedIndexInformer
}

func (c clientGoInformer) HasSynced() bool { return c.inf.HasSynced() }
func (c clientGoInformer) keys() []string  { return c.inf.GetStore().ListKeys() }
func (c clientGoInformer) get(key string) (metav1.Object, bool) {
	obj, ok, _ := c.inf.GetStore().GetByKey(key)
	if !ok {
		return nil, false
	}
	m, ok := obj.(metav1.Object)
	return m, ok
}

// oursInformer reads one of our runtime's informers.
type oursInformer struct{ inf cache.SharedIndexInformer }

func (o oursInformer) HasSynced() bool { return o.inf.HasSynced() }
func (o oursInformer) keys() []string  { return o.inf.GetStore().ListKeys() }
func (o oursInformer) get(key string) (metav1.Object, bool) {
	obj, ok, _ := o.inf.GetStore().GetByKey(key)
	if !ok {
		return nil, false
	}
	m, ok := obj.(metav1.Object)
	return m, ok
}
