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
	return Subject{Name: "ours", New: func(src *source.Source) Informer { return newOurs(src, cache.HandlerOptions{}) }}
}

// OursLatestOnly is Ours with every handler registered with
// cache.HandlerOptions{LatestOnly: true}: a lagging handler's merged
// updates arrive as Update(nil, new), so Handler.Update must accept a nil
// old object. The report uses it only for the stalled-handler measurement.
func OursLatestOnly() Subject {
	return Subject{Name: "ours-latest-only", New: func(src *source.Source) Informer {
		return newOurs(src, cache.HandlerOptions{LatestOnly: true})
	}}
}

type oursInformer struct {
	inf  cache.SharedIndexInformer
	opts cache.HandlerOptions // for every AddHandler
}

func newOurs(src *source.Source, opts cache.HandlerOptions) Informer {
	return oursInformer{inf: cache.NewSharedIndexInformer(clientGoLW{src}, &corev1.ConfigMap{}, 0,
		cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc}), opts: opts}
}

func (o oursInformer) AddHandler(h Handler) (func() bool, error) {
	reg, err := o.inf.AddEventHandlerWithOptions(cache.ResourceEventHandlerFuncs{
		AddFunc: func(obj any) {
			if h.Add != nil {
				h.Add(obj.(*corev1.ConfigMap))
			}
		},
		UpdateFunc: func(oldObj, newObj any) {
			if h.Update != nil {
				// oldObj is nil for a LatestOnly handler's merged update.
				oldCM, _ := oldObj.(*corev1.ConfigMap)
				h.Update(oldCM, newObj.(*corev1.ConfigMap))
			}
		},
		DeleteFunc: func(obj any) {
			if h.Delete != nil {
				h.Delete(obj)
			}
		},
	}, o.opts)
	if err != nil {
		return nil, err
	}
	return reg.HasSynced, nil
}

func (o oursInformer) Run(ctx context.Context) { o.inf.RunWithContext(ctx) }
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
