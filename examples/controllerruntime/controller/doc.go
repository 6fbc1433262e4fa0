// Package controller is the controller-runtime example's reconciler: for
// every Gadget (package api/v1) it keeps a ConfigMap holding the Gadget's
// message and labels, owned by the Gadget, and records it in the Gadget's
// status.
//
// # Data flow
//
//	manager's cache (informer-gen's informers, controllerruntime.NewInformer)
//	    |  Gadget and owned ConfigMap events
//	    v
//	GadgetReconciler.Reconcile --create/update--> ConfigMap "gadget-NAME"
//	                           --status update--> Gadget.Status
//
// NewManager builds the manager with the one option that switches its
// cache to informer-gen's informer.
package controller
