package clientgoctl

import (
	"context"
	"fmt"
	"maps"
	"sync/atomic"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"
	"k8s.io/klog/v2"
)

const (
	// MirrorTo is the annotation of a source ConfigMap naming the
	// namespace to copy it into.
	MirrorTo = "example.com/mirror-to"
	// MirrorOf is the annotation of a copy naming its source's key.
	MirrorOf = "example.com/mirror-of"
	// bySource indexes copies by their MirrorOf annotation.
	bySource = "bySource"
)

// Controller mirrors ConfigMaps; see the package documentation.
type Controller struct {
	client   kubernetes.Interface
	informer cache.TypedSharedIndexInformer[*corev1.ConfigMap]
	indexer  cache.TypedIndexer[*corev1.ConfigMap]
	queue    workqueue.TypedRateLimitingInterface[cache.ObjectName]
	synced   []cache.InformerSynced

	// Deletes counts the deletions the untyped handler observed, tombstones
	// included.
	Deletes atomic.Int64
}

// NewInformer returns the ConfigMap informer the controller runs on.
func NewInformer(client kubernetes.Interface, resync time.Duration) cache.SharedIndexInformer {
	lw := &cache.ListWatch{
		ListWithContextFunc: func(ctx context.Context, opts metav1.ListOptions) (runtime.Object, error) {
			return client.CoreV1().ConfigMaps(metav1.NamespaceAll).List(ctx, opts)
		},
		WatchFuncWithContext: func(ctx context.Context, opts metav1.ListOptions) (watch.Interface, error) {
			return client.CoreV1().ConfigMaps(metav1.NamespaceAll).Watch(ctx, opts)
		},
	}
	return cache.NewSharedIndexInformerWithOptions(
		cache.ToListWatcherWithWatchListSemantics(lw, client),
		&corev1.ConfigMap{},
		cache.SharedIndexInformerOptions{
			ResyncPeriod: resync,
			Indexers:     cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc},
		},
	)
}

// New builds the controller on informer and registers its handlers.
func New(ctx context.Context, client kubernetes.Interface, informer cache.SharedIndexInformer) (*Controller, error) {
	typed := cache.NewTypedSharedIndexInformer[*corev1.ConfigMap](informer)
	c := &Controller{
		client:   client,
		informer: typed,
		indexer:  typed.GetTypedIndexer(),
		queue: workqueue.NewTypedRateLimitingQueueWithConfig(
			workqueue.DefaultTypedControllerRateLimiter[cache.ObjectName](),
			workqueue.TypedRateLimitingQueueConfig[cache.ObjectName]{Name: "mirror"},
		),
	}
	if err := typed.AddTypedIndexers(cache.TypedIndexers[*corev1.ConfigMap]{bySource: sourceOf}); err != nil {
		return nil, err
	}

	reg, err := typed.AddTypedEventHandler(c.handler(ctx), cache.HandlerOptions{Logger: ptr(klog.FromContext(ctx))})
	if err != nil {
		return nil, err
	}
	counter, err := informer.AddEventHandler(cache.ResourceEventHandlerFuncs{
		DeleteFunc: func(obj interface{}) {
			if _, err := cache.DeletionHandlingObjectToName(obj); err == nil {
				c.Deletes.Add(1)
			}
		},
	})
	if err != nil {
		return nil, err
	}
	c.synced = []cache.InformerSynced{informer.HasSynced, reg.HasSynced, counter.HasSynced}
	return c, nil
}

// sourceOf is the bySource index: the source a mirror copies.
func sourceOf(cm *corev1.ConfigMap) ([]string, error) {
	if src, ok := cm.Annotations[MirrorOf]; ok {
		return []string{src}, nil
	}
	return nil, nil
}

// handler queues the source of every mirror or source ConfigMap that
// changed, and of every mirror deleted.
func (c *Controller) handler(ctx context.Context) cache.TypedFilteringResourceEventHandler[*corev1.ConfigMap] {
	return cache.TypedFilteringResourceEventHandler[*corev1.ConfigMap]{
		FilterFunc: func(cm *corev1.ConfigMap) bool {
			if cm == nil {
				return true // a tombstone without object: let the handler decide
			}
			_, source := cm.Annotations[MirrorTo]
			_, copied := cm.Annotations[MirrorOf]
			return source || copied
		},
		Handler: cache.TypedResourceEventHandlerFuncs[*corev1.ConfigMap]{
			AddFunc:    c.enqueueOwner,
			UpdateFunc: func(_, cm *corev1.ConfigMap) { c.enqueueOwner(cm) },
			DeleteFunc: func(d cache.DeletedObject[*corev1.ConfigMap]) {
				klog.FromContext(ctx).V(4).Info("ConfigMap deleted", "configMap", klog.KObj(d), "finalStateUnknown", d.FinalStateUnknown != nil)
				if d.OptionalObj != nil {
					if src, ok := d.OptionalObj.Annotations[MirrorOf]; ok {
						c.enqueueKey(src)
						return
					}
				}
				c.queue.Add(d.GetObjectName())
			},
		},
	}
}

func ptr[T any](v T) *T { return &v }

// enqueueOwner queues the source a ConfigMap belongs to: itself, or the
// source of a copy.
func (c *Controller) enqueueOwner(cm *corev1.ConfigMap) {
	if src, ok := cm.Annotations[MirrorOf]; ok {
		c.enqueueKey(src)
		return
	}
	c.queue.Add(cache.MetaObjectToName(cm))
}

func (c *Controller) enqueueKey(key string) {
	name, err := cache.ParseObjectName(key)
	if err != nil {
		utilruntime.HandleError(fmt.Errorf("bad %s annotation %q: %w", MirrorOf, key, err))
		return
	}
	c.queue.Add(name)
}

// Run waits for the caches, then processes work items on workers
// goroutines until ctx is done.
func (c *Controller) Run(ctx context.Context, workers int) error {
	defer utilruntime.HandleCrash()
	defer c.queue.ShutDown()
	if !cache.WaitForNamedCacheSyncWithContext(ctx, c.synced...) {
		return fmt.Errorf("caches did not sync: %w", context.Cause(ctx))
	}
	for range workers {
		go wait.UntilWithContext(ctx, c.runWorker, time.Second)
	}
	<-ctx.Done()
	return nil
}

func (c *Controller) runWorker(ctx context.Context) {
	for c.processNext(ctx) {
	}
}

func (c *Controller) processNext(ctx context.Context) bool {
	name, shutdown := c.queue.Get()
	if shutdown {
		return false
	}
	defer c.queue.Done(name)
	if err := c.Sync(ctx, name); err != nil {
		utilruntime.HandleErrorWithContext(ctx, err, "Sync failed", "configMap", name)
		c.queue.AddRateLimited(name)
		return true
	}
	c.queue.Forget(name)
	return true
}

// Sync makes the copies of the source called name match it.
func (c *Controller) Sync(ctx context.Context, name cache.ObjectName) error {
	copies, err := c.indexer.ByTypedIndex(bySource, name.String())
	if err != nil {
		return err
	}
	src, exists, err := c.informer.GetIndexer().GetByKey(name.String())
	if err != nil {
		return err
	}
	target := ""
	var source *corev1.ConfigMap
	if exists {
		source = src.(*corev1.ConfigMap)
		target = source.Annotations[MirrorTo]
	}
	for _, cp := range copies {
		if cp.Namespace == target {
			continue
		}
		err := c.client.CoreV1().ConfigMaps(cp.Namespace).Delete(ctx, cp.Name, metav1.DeleteOptions{})
		if err != nil && !apierrors.IsNotFound(err) {
			return err
		}
	}
	if target == "" {
		return nil
	}
	want := &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{
			Namespace:   target,
			Name:        source.Name,
			Annotations: map[string]string{MirrorOf: name.String()},
		},
		Data: maps.Clone(source.Data),
	}
	existing, found, err := c.informer.GetIndexer().GetByKey(cache.NewObjectName(target, source.Name).String())
	if err != nil {
		return err
	}
	if !found {
		_, err := c.client.CoreV1().ConfigMaps(target).Create(ctx, want, metav1.CreateOptions{})
		if apierrors.IsAlreadyExists(err) {
			return fmt.Errorf("%s exists and is not a copy yet; retrying", cache.NewObjectName(target, source.Name))
		}
		return err
	}
	cur := existing.(*corev1.ConfigMap)
	if cur.Annotations[MirrorOf] != name.String() {
		return fmt.Errorf("%s is not a copy of %s; leaving it alone", cache.MetaObjectToName(cur), name)
	}
	if maps.Equal(cur.Data, want.Data) {
		return nil
	}
	upd := cur.DeepCopy()
	upd.Data = want.Data
	_, err = c.client.CoreV1().ConfigMaps(target).Update(ctx, upd, metav1.UpdateOptions{})
	return err
}
