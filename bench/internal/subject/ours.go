package subject

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/informer-gen/informer-gen/bench/internal/source"
	"github.com/informer-gen/informer-gen/runtime/cache"
	"github.com/informer-gen/informer-gen/runtime/lister"

	// The compaction walks generated informers register (package
	// runtime/compact), as a program that uses them links them:
	// informer-gen's output for k8s.io/api/core/v1 (ConfigMaps) and for
	// examples/crd (Widgets).
	_ "github.com/informer-gen/informer-gen/examples/crd/pkg/generated/informers/externalversions/stable/v1"
	_ "github.com/informer-gen/informer-gen/internal/corev1gen/informers/externalversions/core/v1"
)

// setCompaction turns our cache's compaction of cached objects (interned
// strings, shared sub-structures: issue 21) on or off in opts; were it nil
// (a runtime without compaction), ours would be the cache as it is and
// OursUncompacted would not be offered.
var setCompaction = func(opts *cache.SharedIndexInformerOptions, on bool) { opts.Compact = on }

// Ours is informer-gen's runtime/cache SharedIndexInformer and the
// runtime/lister ResourceIndexer generated listers wrap, with what a
// generated factory turns on by default (compaction, once the runtime has
// it).
func Ours() Subject {
	return Subject{Name: "ours", New: func(src *source.Source) Informer {
		return newOurs(src, cache.HandlerOptions{}, true)
	}, Typed: func(src *source.Source, example runtime.Object) TypedInformer {
		return newOursTyped(src, example, true)
	}}
}

// OursUncompacted is Ours with compaction off (factory.WithoutCompaction),
// and false while the runtime has no compaction.
func OursUncompacted() (Subject, bool) {
	if setCompaction == nil {
		return Subject{}, false
	}
	return Subject{Name: "ours-uncompacted", New: func(src *source.Source) Informer {
		return newOurs(src, cache.HandlerOptions{}, false)
	}, Typed: func(src *source.Source, example runtime.Object) TypedInformer {
		return newOursTyped(src, example, false)
	}}, true
}

// oursOptions are the options of our informers: the namespace index, and
// compaction on or off when the runtime has it.
func oursOptions(compact bool) cache.SharedIndexInformerOptions {
	opts := cache.SharedIndexInformerOptions{Indexers: cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc}}
	if setCompaction != nil {
		setCompaction(&opts, compact)
	}
	return opts
}

// OursLatestOnly is Ours with every handler registered with
// cache.HandlerOptions{LatestOnly: true}: a lagging handler's merged
// updates arrive as Update(nil, new), so Handler.Update must accept a nil
// old object. The report uses it only for the stalled-handler measurement.
func OursLatestOnly() Subject {
	return Subject{Name: "ours-latest-only", New: func(src *source.Source) Informer {
		return newOurs(src, cache.HandlerOptions{LatestOnly: true}, true)
	}, Typed: func(src *source.Source, example runtime.Object) TypedInformer {
		return newOursTyped(src, example, true)
	}}
}

type oursInformer struct {
	inf  cache.SharedIndexInformer
	opts cache.HandlerOptions // for every AddHandler
}

func newOurs(src *source.Source, opts cache.HandlerOptions, compact bool) Informer {
	return oursInformer{inf: cache.NewSharedIndexInformerWithOptions(clientGoLW{src}, &corev1.ConfigMap{}, oursOptions(compact)), opts: opts}
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
