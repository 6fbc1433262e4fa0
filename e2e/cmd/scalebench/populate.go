package main

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes"
)

// The field managers that write a Pod in a real cluster, in order.
const (
	controllerManager = "kube-controller-manager"
	scheduler         = "kube-scheduler"
	kubelet           = "kubelet"
)

// population is the set of Pods the benchmark creates: n pods spread over
// the namespaces round-robin (pod i is the (i/N)-th of namespace i mod N),
// and in each namespace grouped into ReplicaSets of the sizes
// newNamespaceLayout draws.
type population struct {
	n          int
	namespaces []string
	// layouts are the ReplicaSets of each namespace, in namespace order.
	layouts []namespaceLayout
}

func newPopulation(n, namespaces int) population {
	p := population{n: n}
	for k := range namespaces {
		ns := fmt.Sprintf("scale-%02d", k)
		p.namespaces = append(p.namespaces, ns)
		p.layouts = append(p.layouts, newNamespaceLayout(ns, max(0, (n-k+namespaces-1)/namespaces)))
	}
	return p
}

// podRef places one Pod of the population.
type podRef struct {
	// i is the Pod's index in the population, j in its namespace.
	i, j int
	// rs is the index of its ReplicaSet in the namespace.
	rs              int
	namespace, name string
	// start is when its containers started (the first condition).
	start time.Time
}

// pod returns the place of pod i.
func (p population) pod(i int) podRef {
	k := i % len(p.namespaces)
	j := i / len(p.namespaces)
	l := p.layouts[k]
	ns := p.namespaces[k]
	rs := int(l.rsOf[j])
	return podRef{
		i: i, j: j, rs: rs, namespace: ns,
		name:  replicaSetName(ns, rs) + "-" + randomSuffix(j, fnvOf(ns)),
		start: l.start[j],
	}
}

// ref returns the namespace and name of pod i.
func (p population) ref(i int) (namespace, name string) {
	r := p.pod(i)
	return r.namespace, r.name
}

// appName is the Deployment of ReplicaSet rs of a namespace: each
// Deployment has one ReplicaSet with Pods (the others are scaled to 0).
func appName(rs int) string { return fmt.Sprintf("svc-%03d", rs) }

// replicaSetName is the name of ReplicaSet rs of namespace ns, as the
// Deployment controller names it.
func replicaSetName(ns string, rs int) string { return appName(rs) + "-" + templateHash(ns, rs) }

// create makes the namespaces and every pod as the three components of a
// cluster would: the ReplicaSet controller creates it, the scheduler marks
// it unschedulable at first and then binds it to a node, the kubelet writes
// its status. workers requests run at
// once; progress is logged every few seconds.
func (p population) create(ctx context.Context, cs kubernetes.Interface, workers int) error {
	return p.createFrom(ctx, cs, workers, 0)
}

// createFrom is create for pods from..n-1 only: those beyond the
// population's first from pods, which a smaller population of the same
// namespaces (its prefix) already wrote.
func (p population) createFrom(ctx context.Context, cs kubernetes.Interface, workers, from int) error {
	for _, ns := range p.namespaces {
		_, err := cs.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}, metav1.CreateOptions{})
		if err != nil && !apierrors.IsAlreadyExists(err) {
			return err
		}
	}
	start := time.Now()
	if err := createEach(ctx, p.n-from, workers, resourcePods, func(ctx context.Context, i int) error { return p.createOne(ctx, cs, from+i) }); err != nil {
		return err
	}
	log.Printf("populate: %d pods in %d namespaces in %v (%d of them before)", p.n, len(p.namespaces), time.Since(start).Round(time.Second), from)
	return nil
}

// createOne writes pod i with its three managers.
func (p population) createOne(ctx context.Context, cs kubernetes.Interface, i int) error {
	r := p.pod(i)
	ns, name := r.namespace, r.name
	pods := cs.CoreV1().Pods(ns)
	created, err := pods.Create(ctx, podSpec(r), metav1.CreateOptions{FieldManager: controllerManager})
	if err != nil {
		return fmt.Errorf("create pod %s/%s: %w", ns, name, err)
	}
	// The scheduler first found no node (its one write of the pod that
	// leaves a managedFields entry: the PodScheduled condition, status
	// subresource), then bound it; the binding subresource itself records
	// no manager.
	unschedulable, err := json.Marshal(map[string]any{"status": map[string]any{"conditions": []corev1.PodCondition{{
		Type: corev1.PodScheduled, Status: corev1.ConditionFalse, Reason: corev1.PodReasonUnschedulable,
		Message:            "0/200 nodes are available: 200 Insufficient cpu. preemption: 0/200 nodes are available: 200 No preemption victims found for incoming pod.",
		LastTransitionTime: metav1.NewTime(r.start.Add(-2 * time.Second)),
	}}}})
	if err != nil {
		return err
	}
	if _, err := pods.Patch(ctx, name, types.StrategicMergePatchType, unschedulable, metav1.PatchOptions{FieldManager: scheduler}, "status"); err != nil {
		return fmt.Errorf("PodScheduled condition of pod %s/%s: %w", ns, name, err)
	}
	node := fmt.Sprintf("node-%03d", i%200)
	if err := pods.Bind(ctx, &corev1.Binding{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns, UID: created.UID},
		Target:     corev1.ObjectReference{Kind: "Node", Name: node},
	}, metav1.CreateOptions{FieldManager: scheduler}); err != nil {
		return fmt.Errorf("bind pod %s/%s: %w", ns, name, err)
	}
	patch, err := json.Marshal(map[string]any{"status": runningStatus(created, r)})
	if err != nil {
		return err
	}
	if _, err := pods.Patch(ctx, name, types.StrategicMergePatchType, patch, metav1.PatchOptions{FieldManager: kubelet}, "status"); err != nil {
		return fmt.Errorf("status of pod %s/%s: %w", ns, name, err)
	}
	return nil
}
