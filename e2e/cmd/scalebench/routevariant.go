package main

import (
	"context"
	"fmt"
	"strings"
	"time"

	"k8s.io/client-go/rest"
	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"
	gatewayclient "sigs.k8s.io/gateway-api/pkg/client/clientset/versioned"
	gatewayinformers "sigs.k8s.io/gateway-api/pkg/client/informers/externalversions"

	// The informers informer-gen generates for the Gateway API's v1
	// types, with their JSON decoders and compaction walks.
	routeinformers "github.com/informer-gen/informer-gen/e2e/internal/gatewayapigen/informers/externalversions/gateway/v1"
	"github.com/informer-gen/informer-gen/e2e/internal/gatewayapigen/informers/externalversions/internalinterfaces"
	"github.com/informer-gen/informer-gen/runtime/cache"
	"github.com/informer-gen/informer-gen/runtime/factory"
)

// The custom-resource variants: one HTTPRoute informer (Gateway API,
// gateway.networking.k8s.io/v1) over JSON, the only encoding
// kube-apiserver serves custom resources in here.
//
//   - httproute-client-go: the Gateway API project's own generated
//     informer (sigs.k8s.io/gateway-api/pkg/client/informers, client-go's
//     informer over its generated clientset), with its factory's defaults;
//   - httproute-ours: informer-gen's generated HTTPRoute informer
//     (e2e/internal/gatewayapigen, generated with --json-decoders) with
//     runtime/factory's defaults: watches decoded by the generated
//     decoder, cached objects compacted by the generated walks;
//   - httproute-ours-uncompacted: the same with factory.WithoutCompaction;
//   - httproute-ours-nodecoder: the same with
//     factory.WithoutGeneratedDecoders (watches decoded through the
//     typed client, as client-go decodes them), compaction on.
const (
	routeVariantPrefix          = "httproute-"
	variantRouteClientGo        = routeVariantPrefix + variantClientGo
	variantRouteOurs            = routeVariantPrefix + variantOurs
	variantRouteOursUncompacted = routeVariantPrefix + variantOursUncompacted
	variantRouteOursNoDecoder   = routeVariantPrefix + "ours-nodecoder"
)

// routeVariants are the custom-resource variants in report order; they
// are run on their own (-variants), not with the Pod variants.
var routeVariants = []string{variantRouteClientGo, variantRouteOurs, variantRouteOursUncompacted, variantRouteOursNoDecoder}

// isRouteVariant reports whether variant watches HTTPRoutes.
func isRouteVariant(variant string) bool { return strings.HasPrefix(variant, routeVariantPrefix) }

// routeFactoryOptions are the factory options of an ours HTTPRoute
// variant.
func routeFactoryOptions(variant string) ([]factory.Option, error) {
	switch variant {
	case variantRouteOurs:
		return nil, nil
	case variantRouteOursUncompacted:
		return []factory.Option{factory.WithoutCompaction()}, nil
	case variantRouteOursNoDecoder:
		return []factory.Option{factory.WithoutGeneratedDecoders()}, nil
	}
	return nil, fmt.Errorf("unknown variant %q (the HTTPRoute variants: %v)", variant, routeVariants)
}

// startRoute builds the HTTPRoute informer of variant over cfg and runs
// it; the returned time is taken just before Start.
func startRoute(variant string, cfg *rest.Config) (started, time.Time, error) {
	cs, err := gatewayclient.NewForConfig(cfg)
	if err != nil {
		return started{}, time.Time{}, err
	}
	ctx, cancel := context.WithCancel(context.Background())
	if variant == variantRouteClientGo {
		f := gatewayinformers.NewSharedInformerFactory(cs, 0)
		inf := f.Gateway().V1().HTTPRoutes().Informer()
		t0 := time.Now()
		f.Start(ctx.Done())
		return started{clientGoInformer{inf}, func() { cancel(); f.Shutdown() }}, t0, nil
	}
	opts, err := routeFactoryOptions(variant)
	if err != nil {
		cancel()
		return started{}, time.Time{}, err
	}
	f := factory.New(opts...)
	inf := f.InformerFor(&gatewayv1.HTTPRoute{}, func(c factory.InformerConfig) cache.SharedIndexInformer {
		return newRouteInformer(cs, c)
	})
	t0 := time.Now()
	f.Start(ctx)
	return started{oursInformer{inf}, func() { cancel(); f.Shutdown() }}, t0, nil
}

// newRouteInformer is the generated HTTPRoute informer as its factory
// builds it (hTTPRouteInformer.informerFor).
func newRouteInformer(cs gatewayclient.Interface, c factory.InformerConfig) cache.SharedIndexInformer {
	return routeinformers.NewHTTPRouteInformerWithOptions(cs, c.Namespace, internalinterfaces.InformerOptions{
		ResyncPeriod:             c.ResyncPeriod,
		Indexers:                 cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc},
		TweakListOptions:         c.TweakListOptions,
		DisableWatchList:         !c.UseWatchList,
		DisableGeneratedDecoders: c.DisableGeneratedDecoders,
		Compact:                  c.Compact,
	})
}
