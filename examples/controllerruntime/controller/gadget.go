package controller

import (
	"context"
	"fmt"
	"maps"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/rest"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"

	"github.com/informer-gen/informer-gen/controllerruntime"
	appsv1 "github.com/informer-gen/informer-gen/examples/controllerruntime/api/v1"
)

// Scheme holds client-go's types and the example's.
func Scheme() (*runtime.Scheme, error) {
	s := runtime.NewScheme()
	if err := clientgoscheme.AddToScheme(s); err != nil {
		return nil, err
	}
	if err := appsv1.AddToScheme(s); err != nil {
		return nil, err
	}
	return s, nil
}

// NewManager returns a manager for cfg whose cache builds its informers
// with informer-gen's controllerruntime.NewInformer (the one option), with
// the GadgetReconciler registered. The metrics server is off.
func NewManager(cfg *rest.Config) (ctrl.Manager, error) {
	s, err := Scheme()
	if err != nil {
		return nil, err
	}
	mgr, err := ctrl.NewManager(cfg, ctrl.Options{
		Scheme:  s,
		Metrics: metricsserver.Options{BindAddress: "0"},
		Cache:   cache.Options{NewInformer: controllerruntime.NewInformer},
	})
	if err != nil {
		return nil, err
	}
	r := &GadgetReconciler{Client: mgr.GetClient(), Scheme: s}
	if err := ctrl.NewControllerManagedBy(mgr).For(&appsv1.Gadget{}).Owns(&corev1.ConfigMap{}).Complete(r); err != nil {
		return nil, err
	}
	return mgr, nil
}

// GadgetReconciler keeps each Gadget's ConfigMap. Its fields are set
// before the manager starts and read-only after.
type GadgetReconciler struct {
	Client client.Client
	Scheme *runtime.Scheme
}

// ConfigMapName is the name of the ConfigMap kept for the Gadget named
// gadget.
func ConfigMapName(gadget string) string { return "gadget-" + gadget }

// Reconcile makes the ConfigMap of the Gadget req names hold its message
// and labels, and records it in the Gadget's status.
func (r *GadgetReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var gadget appsv1.Gadget
	if err := r.Client.Get(ctx, req.NamespacedName, &gadget); err != nil {
		// A deleted Gadget's ConfigMap goes with it (owner reference).
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	cm := &corev1.ConfigMap{}
	cm.Namespace, cm.Name = gadget.Namespace, ConfigMapName(gadget.Name)
	if _, err := controllerutil.CreateOrUpdate(ctx, r.Client, cm, func() error {
		cm.Labels = maps.Clone(gadget.Spec.Labels)
		cm.Data = map[string]string{"message": gadget.Spec.Message}
		return controllerutil.SetControllerReference(&gadget, cm, r.Scheme)
	}); err != nil {
		return ctrl.Result{}, fmt.Errorf("gadget %s: configmap %s: %w", req.NamespacedName, cm.Name, err)
	}
	if gadget.Status.ConfigMap == cm.Name && gadget.Status.ObservedGeneration == gadget.Generation {
		return ctrl.Result{}, nil
	}
	gadget.Status.ConfigMap = cm.Name
	gadget.Status.ObservedGeneration = gadget.Generation
	if err := r.Client.Status().Update(ctx, &gadget); err != nil && !apierrors.IsConflict(err) {
		return ctrl.Result{}, fmt.Errorf("gadget %s: status: %w", req.NamespacedName, err)
	}
	return ctrl.Result{}, nil
}
