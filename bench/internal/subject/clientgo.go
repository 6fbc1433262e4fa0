package subject

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/tools/cache"

	listersv1 "k8s.io/client-go/listers/core/v1"

	"github.com/informer-gen/informer-gen/bench/internal/source"
)

// ClientGo is client-go's cache.SharedIndexInformer and its generated
// ConfigMap lister.
func ClientGo() Subject {
	return Subject{Name: "clientgo", New: newClientGo, Typed: newClientGoTyped}
}

// clientGoLW adapts a Source to client-go's ListerWatcher, with and
// without context, and opts out of watch-list so both informers list then
// watch. runtime/cache's ListerWatcher has the same shape: both subjects
// use it.
type clientGoLW struct{ src *source.Source }

func (lw clientGoLW) List(opts metav1.ListOptions) (runtime.Object, error) {
	return lw.src.List(context.Background(), opts)
}

func (lw clientGoLW) Watch(opts metav1.ListOptions) (watch.Interface, error) {
	return lw.src.Watch(context.Background(), opts)
}

func (lw clientGoLW) ListWithContext(ctx context.Context, opts metav1.ListOptions) (runtime.Object, error) {
	return lw.src.List(ctx, opts)
}

func (lw clientGoLW) WatchWithContext(ctx context.Context, opts metav1.ListOptions) (watch.Interface, error) {
	return lw.src.Watch(ctx, opts)
}

// IsWatchListSemanticsUnSupported keeps client-go's reflector on list and
// watch, the protocol ours uses by default.
func (clientGoLW) IsWatchListSemanticsUnSupported() bool { return true }

type clientGoInformer struct{ inf cache.SharedIndexInformer }

func newClientGo(src *source.Source) Informer {
	return clientGoInformer{inf: cache.NewSharedIndexInformer(clientGoLW{src}, &corev1.ConfigMap{}, 0,
		cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc})}
}

func (c clientGoInformer) AddHandler(h Handler) (func() bool, error) {
	reg, err := c.inf.AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc: func(obj any) {
			if h.Add != nil {
				h.Add(obj.(*corev1.ConfigMap))
			}
		},
		UpdateFunc: func(oldObj, newObj any) {
			if h.Update != nil {
				h.Update(oldObj.(*corev1.ConfigMap), newObj.(*corev1.ConfigMap))
			}
		},
		DeleteFunc: func(obj any) {
			if h.Delete != nil {
				h.Delete(obj)
			}
		},
	})
	if err != nil {
		return nil, err
	}
	return reg.HasSynced, nil
}

func (c clientGoInformer) Run(ctx context.Context) { c.inf.RunWithContext(ctx) }
func (c clientGoInformer) HasSynced() bool         { return c.inf.HasSynced() }
func (c clientGoInformer) Lister() Lister {
	return clientGoLister{listersv1.NewConfigMapLister(c.inf.GetIndexer())}
}

type clientGoLister struct{ l listersv1.ConfigMapLister }

func (c clientGoLister) List(namespace string) ([]*corev1.ConfigMap, error) {
	return c.l.ConfigMaps(namespace).List(labels.Everything())
}

func (c clientGoLister) Get(namespace, name string) (*corev1.ConfigMap, error) {
	return c.l.ConfigMaps(namespace).Get(name)
}
