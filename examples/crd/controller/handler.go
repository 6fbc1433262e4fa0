package controller

import (
	"k8s.io/klog/v2"

	stablev1 "github.com/informer-gen/informer-gen/examples/crd/apis/stable/v1"
	"github.com/informer-gen/informer-gen/runtime/cache"
)

// eventHandler returns the typed handler Run registers on the Widget
// informer. Every notification enqueues the Widget's key: adds and resyncs
// so that every Widget is reconciled at least once per resync period,
// updates because spec or status may have drifted, and deletes so that the
// reconcile finds the Widget gone and forgets its retry state.
func (c *Controller) eventHandler(logger klog.Logger) cache.TypedResourceEventHandler[*stablev1.Widget] {
	return cache.TypedResourceEventHandlerFuncs[*stablev1.Widget]{
		AddFunc: func(w *stablev1.Widget) {
			c.enqueue(logger, w)
		},
		UpdateFunc: func(oldW, newW *stablev1.Widget) {
			c.enqueue(logger, newW)
		},
		DeleteFunc: func(d cache.DeletedObject[*stablev1.Widget]) {
			// A non-nil FinalStateUnknown: the deletion happened while the
			// watch was down and d.OptionalObj is the last state this
			// informer saw (or nil). The key is known in every case.
			logger.V(2).Info("Widget deleted", "widget", klog.KObj(d), "finalStateUnknown", d.FinalStateUnknown != nil)
			c.queue.Add(d.GetKey())
		},
		ResyncFunc: func(w *stablev1.Widget) {
			c.enqueue(logger, w)
		},
	}
}

// enqueue adds w's namespace/name key to the work queue.
func (c *Controller) enqueue(logger klog.Logger, w *stablev1.Widget) {
	key, err := cache.MetaNamespaceKeyFunc(w)
	if err != nil {
		logger.Error(err, "Cannot compute the key of a Widget; dropping it", "widget", klog.KObj(w))
		return
	}
	c.queue.Add(key)
}
