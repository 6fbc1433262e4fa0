// Package controller is the example controller of the informer-gen example
// CRD project: it keeps every Widget's status in line with its spec, built
// the way Kubernetes controllers are (k8s.io/sample-controller's shape) but
// on informer-gen's generated informers and listers and its typed work
// queue (runtime/workqueue).
//
// Event handlers on the shared Widget informer turn every add, update,
// resync and delete into a "namespace/name" key in the queue; workers take
// keys from the queue, read the Widget from the lister (the informer's
// cache, never the API server), compute the status the spec implies
// (DesiredStatus) and write it through the status subresource when it
// differs. A write that loses a race (409 Conflict) or fails is retried with
// the queue's rate-limited backoff; a key whose Widget is gone is forgotten.
//
// Typical use, as in cmd/controller:
//
//	informers := externalversions.NewSharedInformerFactoryWithOptions(client, resync)
//	c := controller.New(client, informers, controller.Options{})
//	informers.StartWithContext(ctx) // after New: the informer must be requested first
//	defer informers.Shutdown()
//	err := c.Run(ctx, workers)      // blocks until ctx is done
package controller
