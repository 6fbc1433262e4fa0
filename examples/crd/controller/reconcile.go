package controller

import (
	"context"
	"fmt"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/klog/v2"

	"github.com/informer-gen/informer-gen/runtime/cache"
)

// processNextItem takes one key from the queue and reconciles it, retrying
// it with backoff on failure. It reports false once the queue has shut down.
func (c *Controller) processNextItem(ctx context.Context) bool {
	key, shutdown := c.queue.Get()
	if shutdown {
		return false
	}
	defer c.queue.Done(key)
	if ctx.Err() != nil {
		// Shutting down: leave the key; the next run lists it again.
		return true
	}

	logger := klog.FromContext(ctx).WithValues("key", key)
	err := c.reconcile(klog.NewContext(ctx, logger), key)
	switch {
	case err == nil:
		c.stats.reconciles.Add(1)
		c.queue.Forget(key)
	case apierrors.IsConflict(err):
		// The cache was behind the server; the informer will deliver the
		// newer Widget and the retry will see it.
		c.stats.conflicts.Add(1)
		logger.V(4).Info("Status update conflicted; requeueing", "requeues", c.queue.NumRequeues(key))
		c.queue.AddRateLimited(key)
	default:
		c.stats.failures.Add(1)
		logger.Error(err, "Reconcile failed; requeueing", "requeues", c.queue.NumRequeues(key))
		c.queue.AddRateLimited(key)
	}
	return true
}

// reconcile brings the status of the Widget stored under key in line with
// its spec. A Widget that no longer exists needs nothing. It returns the
// error of the status update, if any, for the caller to retry.
func (c *Controller) reconcile(ctx context.Context, key string) error {
	logger := klog.FromContext(ctx)
	namespace, name, err := cache.SplitMetaNamespaceKey(key)
	if err != nil {
		// A malformed key never becomes valid: do not retry it.
		logger.Error(err, "Invalid work queue key; dropping it")
		return nil
	}
	w, err := c.lister.Widgets(namespace).Get(name)
	if apierrors.IsNotFound(err) {
		logger.V(4).Info("Widget no longer exists")
		return nil
	}
	if err != nil {
		return err
	}

	desired := DesiredStatus(w)
	if w.Status == desired {
		return nil
	}
	// Objects from the lister belong to the cache: never modify them.
	updated := w.DeepCopy()
	updated.Status = desired
	if _, err := c.client.StableV1().Widgets(namespace).UpdateStatus(ctx, updated, metav1.UpdateOptions{}); err != nil {
		return fmt.Errorf("update status of Widget %s: %w", key, err)
	}
	c.stats.statusUpdates.Add(1)
	logger.V(2).Info("Updated Widget status", "widget", klog.KObj(w), "phase", desired.Phase, "observedGeneration", desired.ObservedGeneration)
	return nil
}
