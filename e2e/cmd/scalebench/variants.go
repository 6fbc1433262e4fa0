package main

import (
	"context"
	"fmt"
	"os"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	clientmetadata "k8s.io/client-go/metadata"
	"k8s.io/client-go/metadata/metadatainformer"
	"k8s.io/client-go/rest"
	clientgocache "k8s.io/client-go/tools/cache"

	// The generated informers of core/v1, with the compaction walks
	// informer-gen generates for k8s.io/api, which they register: our
	// factory compacts cached Pods by default, with these walks rather
	// than the reflective fallback.
	informerscorev1 "github.com/informer-gen/informer-gen/internal/corev1gen/informers/externalversions/core/v1"
	"github.com/informer-gen/informer-gen/internal/corev1gen/informers/externalversions/internalinterfaces"
	"github.com/informer-gen/informer-gen/runtime/cache"
	"github.com/informer-gen/informer-gen/runtime/factory"
	"github.com/informer-gen/informer-gen/shard"
)

// The variants measured, in the order of the report's tables. A variant
// ending in variantJSON is its base variant with a JSON client: client-go
// v0.37's clientset asks for protobuf for built-in types unless
// rest.Config.ContentType is set (rest.Request.UseProtobufAsDefault), so
// the default variants talk protobuf.
const (
	variantClientGo              = "client-go"
	variantClientGoStrip         = "client-go-strip"
	variantClientGoJSON          = variantClientGo + variantJSON
	variantOurs                  = "ours"
	variantOursJSON              = variantOurs + variantJSON
	variantOursUncompacted       = "ours-uncompacted"
	variantOursUncompactedJSON   = variantOursUncompacted + variantJSON
	variantOursNoDecoder         = "ours-nodecoder"
	variantOursNoDecoderJSON     = variantOursNoDecoder + variantJSON
	variantOursPaged             = "ours-paged"
	variantOursNoGuard           = "ours-noguard"
	variantOursMetadata          = "ours-metadata"
	variantClientGoMetadata      = "client-go-metadata"
	variantJSON                  = "-json"
	contentTypeProtobuf          = "application/vnd.kubernetes.protobuf"
	compactionSwitchNotAvailable = "needs factory.WithoutCompaction (issue 21), which this runtime does not have yet"
	// compactionGuardEnv turns the compaction guard off for ours-noguard.
	compactionGuardEnv = "INFORMER_GEN_COMPACTION_GUARD"
)

// withoutCompaction is the factory option that turns the cache's
// interning and sharing off (issue 21); the ours-uncompacted variants are
// run only while it is set.
var withoutCompaction = factory.WithoutCompaction

// allVariants lists every variant in report order.
var allVariants = availableVariants()

func availableVariants() []string {
	v := []string{variantClientGo, variantClientGoStrip, variantClientGoJSON, variantOurs, variantOursJSON}
	if withoutCompaction != nil {
		v = append(v, variantOursUncompacted, variantOursUncompactedJSON)
	}
	v = append(v, variantOursNoDecoder, variantOursNoDecoderJSON)
	v = append(v, variantOursPaged, variantOursNoGuard, variantOursMetadata, variantClientGoMetadata, variantReadOnly, variantDecodeOnly)
	v = append(v, crVariants...)
	// The scale-out variants last: replica 0 of 2, 3 and 4.
	return append(v, variantOursShard2, variantOursShard3, variantOursShard4)
}

// keepsManagedFields reports whether variant caches managedFields: client-go
// without a transform does, and controller-runtime's cache, on either
// informer, unless its transform strips them.
func keepsManagedFields(variant string) bool {
	switch variant {
	case variantClientGo, variantClientGoJSON, variantClientGoMetadata, variantCR, variantCROurs, variantRouteClientGo:
		return true
	}
	return false
}

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
// of that runtime would with default options, and runs it; a variant
// ending in variantJSON talks JSON (cfg.ContentType), as a user who sets
// it does. The informer starts as late as possible: the returned time is
// taken just before Run (or Start).
func startVariant(variant string, cfg *rest.Config) (started, time.Time, error) {
	if isRouteVariant(variant) {
		return startRoute(variant, cfg)
	}
	base, useJSON := strings.CutSuffix(variant, variantJSON)
	if useJSON {
		switch base {
		case variantClientGo, variantOurs, variantOursUncompacted, variantOursNoDecoder:
		default:
			return started{}, time.Time{}, fmt.Errorf("variant %q: no JSON form of %q (known: %v)", variant, base, allVariants)
		}
		cfg = rest.CopyConfig(cfg)
		cfg.ContentType, cfg.AcceptContentTypes = runtime.ContentTypeJSON, runtime.ContentTypeJSON
	}
	switch base {
	case variantClientGo, variantClientGoStrip:
		return startClientGo(cfg, base == variantClientGoStrip)
	case variantClientGoMetadata:
		return startClientGoMetadata(cfg)
	case variantOurs, variantOursPaged, variantOursUncompacted, variantOursNoDecoder, variantOursNoGuard:
		opts, err := oursOptions(variant, base)
		if err != nil {
			return started{}, time.Time{}, err
		}
		return startOurs(cfg, opts)
	case variantOursMetadata:
		return startOursMetadata(cfg)
	case variantReadOnly, variantDecodeOnly:
		return startFloor(base, cfg)
	case variantCR, variantCRStrip, variantCROurs, variantCROursStrip:
		return startCR(base, cfg)
	}
	if sel, ok, err := variantShard(base); ok {
		if err != nil {
			return started{}, time.Time{}, err
		}
		opts := []factory.Option{factory.WithShard(shard.Static(sel))}
		if strings.HasPrefix(base, variantOursPaged+shardInfix) {
			opts = append(opts, factory.WithoutWatchList())
		}
		return startOurs(cfg, opts)
	}
	return started{}, time.Time{}, fmt.Errorf("unknown variant %q (known: %v)", variant, allVariants)
}

// oursOptions are the factory options of variant, whose base is one of
// the ours variants that differ only in them.
func oursOptions(variant, base string) ([]factory.Option, error) {
	switch base {
	case variantOursPaged:
		return []factory.Option{factory.WithoutWatchList()}, nil
	case variantOursNoDecoder:
		return []factory.Option{factory.WithoutGeneratedDecoders()}, nil
	case variantOursNoGuard:
		// The process-wide switch a user turns the compaction guard off
		// with (docs/compaction-guard.md); the child runs this variant
		// alone.
		return nil, os.Setenv(compactionGuardEnv, "false")
	case variantOursUncompacted:
		if withoutCompaction == nil {
			return nil, fmt.Errorf("variant %q %s", variant, compactionSwitchNotAvailable)
		}
		return []factory.Option{withoutCompaction()}, nil
	}
	return nil, nil
}

// startClientGo runs client-go's pod informer from its factory's
// defaults, with a transform clearing managedFields when strip is set.
func startClientGo(cfg *rest.Config, strip bool) (started, time.Time, error) {
	cs, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		return started{}, time.Time{}, err
	}
	var opts []informers.SharedInformerOption
	if strip {
		opts = append(opts, informers.WithTransform(stripManagedFieldsClientGo))
	}
	ctx, cancel := context.WithCancel(context.Background())
	f := informers.NewSharedInformerFactoryWithOptions(cs, 0, opts...)
	inf := f.Core().V1().Pods().Informer()
	t0 := time.Now()
	f.Start(ctx.Done())
	return started{clientGoInformer{inf}, func() { cancel(); f.Shutdown() }}, t0, nil
}

// startClientGoMetadata runs client-go's metadatainformer for Pods.
func startClientGoMetadata(cfg *rest.Config) (started, time.Time, error) {
	mc, err := clientmetadata.NewForConfig(cfg)
	if err != nil {
		return started{}, time.Time{}, err
	}
	ctx, cancel := context.WithCancel(context.Background())
	f := metadatainformer.NewSharedInformerFactory(mc, 0)
	inf := f.ForResource(podsGVR).Informer()
	t0 := time.Now()
	f.Start(ctx.Done())
	return started{clientGoInformer{inf}, func() { cancel(); f.Shutdown() }}, t0, nil
}

// startOurs runs our pod informer as generated code builds it, from a
// factory with opts.
func startOurs(cfg *rest.Config, opts []factory.Option) (started, time.Time, error) {
	cs, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		return started{}, time.Time{}, err
	}
	ctx, cancel := context.WithCancel(context.Background())
	f := factory.New(opts...)
	inf := f.InformerFor(&corev1.Pod{}, func(c factory.InformerConfig) cache.SharedIndexInformer {
		return newPodInformer(cs, c)
	})
	t0 := time.Now()
	f.Start(ctx)
	return started{oursInformer{inf}, func() { cancel(); f.Shutdown() }}, t0, nil
}

// startOursMetadata runs our metadata informer for Pods over client-go's
// metadata client.
func startOursMetadata(cfg *rest.Config) (started, time.Time, error) {
	mc, err := clientmetadata.NewForConfig(cfg)
	if err != nil {
		return started{}, time.Time{}, err
	}
	ctx, cancel := context.WithCancel(context.Background())
	f := factory.New()
	inf := f.MetadataInformerFor(metadataClient{mc}, podsGVR, true)
	t0 := time.Now()
	f.Start(ctx)
	return started{oursInformer{inf}, func() { cancel(); f.Shutdown() }}, t0, nil
}

// newPodInformer is the generated informer of Pods as its factory
// builds it (podInformer.informerFor): the namespace index, the factory's
// namespace, list options and resync, the initial list streamed unless
// the factory says not to (InformerConfig.UseWatchList). The factory has
// no name (no factory.WithName), so neither has the informer.
func newPodInformer(cs kubernetes.Interface, c factory.InformerConfig) cache.SharedIndexInformer {
	return informerscorev1.NewPodInformerWithOptions(cs, c.Namespace, internalinterfaces.InformerOptions{
		ResyncPeriod:             c.ResyncPeriod,
		Indexers:                 cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc},
		TweakListOptions:         c.TweakListOptions,
		DisableWatchList:         !c.UseWatchList,
		DisableGeneratedDecoders: c.DisableGeneratedDecoders,
		Compact:                  c.Compact,
	})
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
