package subject

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/labels"

	"github.com/informer-gen/informer-gen/bench/internal/source"
	"github.com/informer-gen/informer-gen/runtime/cache"
	"github.com/informer-gen/informer-gen/runtime/lister"
)

// Ours is informer-gen's runtime/cache SharedIndexInformer and the
// runtime/lister ResourceIndexer generated listers wrap.
func Ours() Subject {
	return Subject{Name: "ours", New: newOurs}
}

type oursInformer struct{ inf cache.SharedIndexInformer }

func newOurs(src *source.Source) Informer {
	return oursInformer{inf: cache.NewSharedIndexInformer(src, &corev1.ConfigMap{}, 0,
		cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc})}
}

func (o oursInformer) AddHandler(h Handler) (func() bool, error) {
	reg, err := o.inf.AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc: func(obj any, _ bool) {
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

func (o oursInformer) Run(ctx context.Context) { o.inf.Run(ctx) }
func (o oursInformer) HasSynced() bool         { return o.inf.HasSynced() }
func (o oursInformer) Lister() Lister {
	return oursLister{lister.New[*corev1.ConfigMap](o.inf.GetIndexer(), configMaps)}
}

type oursLister struct {
	l lister.ResourceIndexer[*corev1.ConfigMap]
}

func (o oursLister) List(namespace string) ([]*corev1.ConfigMap, error) {
	return lister.NewNamespaced(o.l, namespace).List(labels.Everything())
}

func (o oursLister) Get(namespace, name string) (*corev1.ConfigMap, error) {
	return lister.NewNamespaced(o.l, namespace).Get(name)
}
