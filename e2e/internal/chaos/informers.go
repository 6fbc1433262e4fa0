package chaos

import (
	"context"
	"net/http"
	"sync/atomic"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/metadata"
	"k8s.io/client-go/rest"

	"github.com/informer-gen/informer-gen/dynamic/dynamicinformer"
	stablev1 "github.com/informer-gen/informer-gen/examples/crd/apis/stable/v1"
	"github.com/informer-gen/informer-gen/examples/crd/pkg/generated/clientset/versioned"
	crdinformers "github.com/informer-gen/informer-gen/examples/crd/pkg/generated/informers/externalversions"
	coreinformers "github.com/informer-gen/informer-gen/internal/corev1gen/informers/externalversions"
	"github.com/informer-gen/informer-gen/runtime/cache"
	"github.com/informer-gen/informer-gen/runtime/factory"
	"github.com/informer-gen/informer-gen/shard"
)

// Informer names of a replica, the keys of Report.Caches.
const (
	// InformerWidgets is the typed Widget informer on the ring's shard,
	// the controller's.
	InformerWidgets = "widgets"
	// InformerPods is a typed Pod informer of the whole namespace.
	InformerPods = "pods"
	// InformerConfigMaps is a typed ConfigMap informer of the namespace.
	InformerConfigMaps = "configmaps"
	// InformerWidgetMetadata is a metadata-only Widget informer.
	InformerWidgetMetadata = "widgets-metadata"
	// InformerWidgetDynamic is a dynamic (unstructured) Widget informer.
	InformerWidgetDynamic = "widgets-dynamic"
)

// replicaInformers are a replica's factories and informers, each with a
// handler that sleeps slow per event (the slow-handler fault).
type replicaInformers struct {
	widgetClient versioned.Interface
	sharded      crdinformers.SharedInformerFactory // Widgets on the ring's shard
	plain        crdinformers.SharedInformerFactory // metadata-only Widgets
	core         coreinformers.SharedInformerFactory
	dyn          dynamicinformer.DynamicSharedInformerFactory
	stores       map[string]cache.Store
	slow         atomic.Int64 // nanoseconds each handler call sleeps
}

func newInformers(rc *rest.Config, ns string, src *shard.Dynamic, journal *Journal) (*replicaInformers, error) {
	ctlCfg := rest.CopyConfig(rc)
	ctlCfg.Wrap(func(rt http.RoundTripper) http.RoundTripper { return statusWrites{next: rt, journal: journal} })
	widgetClient, err := versioned.NewForConfig(ctlCfg)
	if err != nil {
		return nil, err
	}
	client, err := versioned.NewForConfig(rc)
	if err != nil {
		return nil, err
	}
	kube, err := kubernetes.NewForConfig(rc)
	if err != nil {
		return nil, err
	}
	dynClient, err := dynamic.NewForConfig(rc)
	if err != nil {
		return nil, err
	}
	r := &replicaInformers{
		widgetClient: widgetClient,
		sharded: crdinformers.NewSharedInformerFactoryWithOptions(client, 0, crdinformers.WithNamespace(ns),
			crdinformers.WithByObject(&stablev1.Widget{}, factory.ByObject{Shard: src})),
		plain: crdinformers.NewSharedInformerFactoryWithOptions(client, 0, crdinformers.WithNamespace(ns),
			crdinformers.WithMetadataClient(metadata.NewForConfigOrDie(rc))),
		core: coreinformers.NewSharedInformerFactoryWithOptions(kube, 0, coreinformers.WithNamespace(ns)),
		dyn:  dynamicinformer.NewDynamicSharedInformerFactoryWithOptions(dynClient, 0, factory.WithNamespace(ns)),
	}
	widgetsMeta, err := crdinformers.ForMetadata(r.plain, stablev1.SchemeGroupVersion.WithResource("widgets"))
	if err != nil {
		return nil, err
	}
	informers := map[string]cache.SharedIndexInformer{
		InformerWidgets:        r.sharded.Stable().V1().Widgets().Informer(),
		InformerPods:           r.core.Core().V1().Pods().Informer(),
		InformerConfigMaps:     r.core.Core().V1().ConfigMaps().Informer(),
		InformerWidgetMetadata: widgetsMeta.Informer(),
		InformerWidgetDynamic:  r.dyn.ForResource(stablev1.SchemeGroupVersion.WithResource("widgets")).Informer(),
	}
	r.stores = map[string]cache.Store{}
	for name, inf := range informers {
		if _, err := inf.AddEventHandlerWithOptions(r.slowHandler(), cache.HandlerOptions{Name: "chaos-slow-" + name}); err != nil {
			return nil, err
		}
		r.stores[name] = inf.GetStore()
	}
	return r, nil
}

// slowHandler sleeps r.slow on every notification.
func (r *replicaInformers) slowHandler() cache.ResourceEventHandler {
	sleep := func() {
		if d := time.Duration(r.slow.Load()); d > 0 {
			time.Sleep(d)
		}
	}
	return cache.ResourceEventHandlerFuncs{
		AddFunc:    func(any) { sleep() },
		UpdateFunc: func(any, any) { sleep() },
		DeleteFunc: func(any) { sleep() },
	}
}

func (r *replicaInformers) start(ctx context.Context) {
	r.sharded.StartWithContext(ctx)
	r.plain.StartWithContext(ctx)
	r.core.StartWithContext(ctx)
	r.dyn.Start(ctx.Done())
}

func (r *replicaInformers) shutdown() {
	r.sharded.Shutdown()
	r.plain.Shutdown()
	r.core.Shutdown()
	r.dyn.Shutdown()
}

// versions returns each informer's cache as key -> resourceVersion.
func (r *replicaInformers) versions() map[string]map[string]string {
	out := map[string]map[string]string{}
	for name, store := range r.stores {
		m := map[string]string{}
		for _, obj := range store.List() {
			a, err := meta.Accessor(obj)
			if err != nil {
				continue
			}
			m[a.GetNamespace()+"/"+a.GetName()] = a.GetResourceVersion()
		}
		out[name] = m
	}
	return out
}
