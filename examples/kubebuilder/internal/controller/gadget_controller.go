/*
Copyright The informer-gen Authors.

Licensed under the Apache License, Version 2.0 (the "License");
you may not use this file except in compliance with the License.
You may obtain a copy of the License at

    http://www.apache.org/licenses/LICENSE-2.0

Unless required by applicable law or agreed to in writing, software
distributed under the License is distributed on an "AS IS" BASIS,
WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
See the License for the specific language governing permissions and
limitations under the License.
*/

package controller

import (
	"context"
	"fmt"
	"maps"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
	logf "sigs.k8s.io/controller-runtime/pkg/log"

	toysv1 "github.com/informer-gen/informer-gen/examples/kubebuilder/api/v1"
)

// GadgetLabel is the label of a Gadget's Pods; its value is the Gadget's name.
const GadgetLabel = "toys.example.org/gadget"

// settingsPath is where a Gadget's Pods mount its ConfigMap.
const settingsPath = "/etc/gadget"

// GadgetReconciler reconciles a Gadget object: it keeps a ConfigMap of the
// Gadget's settings and spec.replicas Pods mounting it, both owned by the
// Gadget, and writes what it did into the Gadget's status.
type GadgetReconciler struct {
	client.Client
	Scheme *runtime.Scheme
}

// +kubebuilder:rbac:groups=toys.example.org,resources=gadgets,verbs=get;list;watch;create;update;patch;delete
// +kubebuilder:rbac:groups=toys.example.org,resources=gadgets/status,verbs=get;update;patch
// +kubebuilder:rbac:groups=toys.example.org,resources=gadgets/finalizers,verbs=update
// +kubebuilder:rbac:groups="",resources=configmaps;pods,verbs=get;list;watch;create;update;patch;delete

// Reconcile moves the cluster toward the Gadget's spec: the ConfigMap named
// after the Gadget holds spec.settings, Pods NAME-0 .. NAME-(replicas-1)
// exist and no other Pod of the Gadget does, and status says so. Every
// read goes through the manager's cache, whose informers are
// informer-gen's (cmd/main.go).
func (r *GadgetReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	log := logf.FromContext(ctx)

	var gadget toysv1.Gadget
	if err := r.Get(ctx, req.NamespacedName, &gadget); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if !gadget.DeletionTimestamp.IsZero() {
		return ctrl.Result{}, nil // the garbage collector deletes what it owns
	}
	cm, err := r.reconcileConfigMap(ctx, &gadget)
	if err != nil {
		return ctrl.Result{}, fmt.Errorf("gadget %s: configmap: %w", req.NamespacedName, err)
	}
	pods, err := r.reconcilePods(ctx, &gadget)
	if err != nil {
		return ctrl.Result{}, fmt.Errorf("gadget %s: pods: %w", req.NamespacedName, err)
	}
	if err := r.updateStatus(ctx, &gadget, cm, pods); err != nil {
		return ctrl.Result{}, fmt.Errorf("gadget %s: status: %w", req.NamespacedName, err)
	}
	log.V(1).Info("reconciled", "configMap", cm, "pods", pods)
	return ctrl.Result{}, nil
}

// reconcileConfigMap creates or updates the Gadget's ConfigMap and returns
// its name.
func (r *GadgetReconciler) reconcileConfigMap(ctx context.Context, gadget *toysv1.Gadget) (string, error) {
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: gadget.Name, Namespace: gadget.Namespace}}
	_, err := controllerutil.CreateOrUpdate(ctx, r.Client, cm, func() error {
		cm.Data = maps.Clone(gadget.Spec.Settings)
		return controllerutil.SetControllerReference(gadget, cm, r.Scheme)
	})
	return cm.Name, err
}

// reconcilePods creates the Gadget's missing Pods, deletes those it no
// longer wants, and returns how many it has.
func (r *GadgetReconciler) reconcilePods(ctx context.Context, gadget *toysv1.Gadget) (int32, error) {
	want := map[string]bool{}
	for i := range replicas(gadget) {
		want[fmt.Sprintf("%s-%d", gadget.Name, i)] = true
	}
	var pods corev1.PodList
	if err := r.List(ctx, &pods, client.InNamespace(gadget.Namespace), client.MatchingLabels{GadgetLabel: gadget.Name}); err != nil {
		return 0, err
	}
	var have int32
	for i := range pods.Items {
		pod := &pods.Items[i]
		if !metav1.IsControlledBy(pod, gadget) {
			continue
		}
		if !want[pod.Name] {
			if err := r.Delete(ctx, pod); client.IgnoreNotFound(err) != nil {
				return 0, err
			}
			continue
		}
		delete(want, pod.Name)
		have++
	}
	for name := range want {
		if err := r.createPod(ctx, gadget, name); err != nil {
			return 0, err
		}
		have++
	}
	return have, nil
}

// createPod creates the Gadget's Pod named name; one that already exists
// (the cache had not seen it yet) counts as created.
func (r *GadgetReconciler) createPod(ctx context.Context, gadget *toysv1.Gadget, name string) error {
	pod := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{
			Name:      name,
			Namespace: gadget.Namespace,
			Labels:    map[string]string{GadgetLabel: gadget.Name},
		},
		Spec: corev1.PodSpec{
			Containers: []corev1.Container{{
				Name:         "gadget",
				Image:        gadget.Spec.Image,
				VolumeMounts: []corev1.VolumeMount{{Name: "settings", MountPath: settingsPath, ReadOnly: true}},
			}},
			Volumes: []corev1.Volume{{
				Name: "settings",
				VolumeSource: corev1.VolumeSource{ConfigMap: &corev1.ConfigMapVolumeSource{
					LocalObjectReference: corev1.LocalObjectReference{Name: gadget.Name},
				}},
			}},
		},
	}
	if err := controllerutil.SetControllerReference(gadget, pod, r.Scheme); err != nil {
		return err
	}
	if err := r.Create(ctx, pod); err != nil && !apierrors.IsAlreadyExists(err) {
		return err
	}
	return nil
}

// updateStatus writes the Gadget's status when it changed.
func (r *GadgetReconciler) updateStatus(ctx context.Context, gadget *toysv1.Gadget, cm string, pods int32) error {
	status := gadget.Status.DeepCopy()
	status.ConfigMap = cm
	status.Pods = pods
	status.ObservedGeneration = gadget.Generation
	meta.SetStatusCondition(&status.Conditions, metav1.Condition{
		Type:               "Ready",
		Status:             metav1.ConditionTrue,
		Reason:             "Reconciled",
		Message:            fmt.Sprintf("ConfigMap %s holds the settings; %d Pods", cm, pods),
		ObservedGeneration: gadget.Generation,
	})
	if equality.Semantic.DeepEqual(status, &gadget.Status) {
		return nil
	}
	gadget.Status = *status
	return r.Status().Update(ctx, gadget)
}

// replicas is spec.replicas, 1 when unset (the CRD's default).
func replicas(gadget *toysv1.Gadget) int32 {
	if gadget.Spec.Replicas == nil {
		return 1
	}
	return *gadget.Spec.Replicas
}

// SetupWithManager sets up the controller with the Manager: Gadgets, and
// the ConfigMaps and Pods they own, through the manager's cache (three
// informer-gen informers, whose cached objects the walks of api/v1 and of
// controllerruntime/kubeapi compact).
func (r *GadgetReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).
		For(&toysv1.Gadget{}).
		Owns(&corev1.ConfigMap{}).
		Owns(&corev1.Pod{}).
		Named("gadget").
		Complete(r)
}
