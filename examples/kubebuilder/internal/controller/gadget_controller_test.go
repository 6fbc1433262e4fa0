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

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	toysv1 "github.com/informer-gen/informer-gen/examples/kubebuilder/api/v1"
)

// newNamespace creates a namespace of its own for a spec (envtest has no
// garbage collector: what a spec's Gadgets own stays behind) and returns
// its name.
func newNamespace(ctx context.Context) string {
	ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{GenerateName: "gadgets-"}}
	Expect(k8sClient.Create(ctx, ns)).To(Succeed())
	return ns.Name
}

// newGadget creates a Gadget and returns it.
func newGadget(ctx context.Context, ns, name string, replicas int32, settings map[string]string) *toysv1.Gadget {
	g := &toysv1.Gadget{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name},
		Spec:       toysv1.GadgetSpec{Image: "example.org/gadget:v1", Replicas: ptr.To(replicas), Settings: settings},
	}
	Expect(k8sClient.Create(ctx, g)).To(Succeed())
	return g
}

// podNames lists the names of the Pods of the Gadget named name, as the
// API server has them.
func podNames(ctx context.Context, ns, name string) []string {
	var pods corev1.PodList
	Expect(k8sClient.List(ctx, &pods, client.InNamespace(ns), client.MatchingLabels{GadgetLabel: name})).To(Succeed())
	names := make([]string, 0, len(pods.Items))
	for _, p := range pods.Items {
		names = append(names, p.Name)
	}
	return names
}

// configMapData is the data of the ConfigMap named name, as the API
// server has it; nil when there is none.
func configMapData(ctx context.Context, ns, name string) map[string]string {
	var cm corev1.ConfigMap
	if err := k8sClient.Get(ctx, client.ObjectKey{Namespace: ns, Name: name}, &cm); err != nil {
		return nil
	}
	return cm.Data
}

// status is the Gadget's status, as the API server has it.
func status(ctx context.Context, g *toysv1.Gadget) toysv1.GadgetStatus {
	var got toysv1.Gadget
	Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(g), &got)).To(Succeed())
	return got.Status
}

var _ = Describe("Gadget controller", func() {
	It("creates the Gadget's ConfigMap and Pods, controlled by it, and reports them in its status", func(ctx SpecContext) {
		ns := newNamespace(ctx)
		g := newGadget(ctx, ns, "lamp", 2, map[string]string{"color": "blue"})

		Eventually(configMapData).WithContext(ctx).WithArguments(ns, "lamp").Should(Equal(map[string]string{"color": "blue"}))
		Eventually(podNames).WithContext(ctx).WithArguments(ns, "lamp").Should(ConsistOf("lamp-0", "lamp-1"))
		Eventually(status).WithContext(ctx).WithArguments(g).Should(And(
			HaveField("ConfigMap", "lamp"),
			HaveField("Pods", BeNumerically("==", 2)),
			HaveField("ObservedGeneration", BeNumerically("==", 1)),
		))
		Expect(meta.IsStatusConditionTrue(status(ctx, g).Conditions, "Ready")).To(BeTrue())

		var cm corev1.ConfigMap
		Expect(k8sClient.Get(ctx, client.ObjectKey{Namespace: ns, Name: "lamp"}, &cm)).To(Succeed())
		Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(g), g)).To(Succeed())
		Expect(metav1.IsControlledBy(&cm, g)).To(BeTrue(), "the ConfigMap's owner references: %v", cm.OwnerReferences)
		var pod corev1.Pod
		Expect(k8sClient.Get(ctx, client.ObjectKey{Namespace: ns, Name: "lamp-0"}, &pod)).To(Succeed())
		Expect(metav1.IsControlledBy(&pod, g)).To(BeTrue(), "the Pod's owner references: %v", pod.OwnerReferences)
		Expect(pod.Spec.Volumes).To(ContainElement(HaveField("ConfigMap.Name", "lamp")))
	})

	It("follows changes of the Gadget's spec: new settings into the ConfigMap, fewer replicas delete Pods", func(ctx SpecContext) {
		ns := newNamespace(ctx)
		g := newGadget(ctx, ns, "fan", 3, map[string]string{"speed": "low"})
		Eventually(podNames).WithContext(ctx).WithArguments(ns, "fan").Should(HaveLen(3))

		Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(g), g)).To(Succeed())
		g.Spec.Settings = map[string]string{"speed": "high", "swing": "on"}
		g.Spec.Replicas = ptr.To[int32](1)
		Expect(k8sClient.Update(ctx, g)).To(Succeed())

		Eventually(configMapData).WithContext(ctx).WithArguments(ns, "fan").Should(Equal(map[string]string{"speed": "high", "swing": "on"}))
		Eventually(podNames).WithContext(ctx).WithArguments(ns, "fan").Should(ConsistOf("fan-0"))
		Eventually(status).WithContext(ctx).WithArguments(g).Should(And(
			HaveField("Pods", BeNumerically("==", 1)),
			HaveField("ObservedGeneration", BeNumerically("==", 2)),
		))
	})

	It("re-creates an owned ConfigMap or Pod that is deleted: its events reach the Gadget through Owns", func(ctx SpecContext) {
		ns := newNamespace(ctx)
		newGadget(ctx, ns, "bell", 1, map[string]string{"tone": "C"})
		Eventually(podNames).WithContext(ctx).WithArguments(ns, "bell").Should(ConsistOf("bell-0"))
		Eventually(configMapData).WithContext(ctx).WithArguments(ns, "bell").ShouldNot(BeNil())

		var cm corev1.ConfigMap
		Expect(k8sClient.Get(ctx, client.ObjectKey{Namespace: ns, Name: "bell"}, &cm)).To(Succeed())
		Expect(k8sClient.Delete(ctx, &cm)).To(Succeed())
		Eventually(func(ctx context.Context) (bool, error) {
			var got corev1.ConfigMap
			err := k8sClient.Get(ctx, client.ObjectKeyFromObject(&cm), &got)
			return err == nil && got.UID != cm.UID, client.IgnoreNotFound(err)
		}).WithContext(ctx).Should(BeTrue(), "the ConfigMap was not re-created")

		var pod corev1.Pod
		Expect(k8sClient.Get(ctx, client.ObjectKey{Namespace: ns, Name: "bell-0"}, &pod)).To(Succeed())
		Expect(k8sClient.Delete(ctx, &pod)).To(Succeed())
		Eventually(func(ctx context.Context) (bool, error) {
			var got corev1.Pod
			err := k8sClient.Get(ctx, client.ObjectKeyFromObject(&pod), &got)
			return err == nil && got.UID != pod.UID, client.IgnoreNotFound(err)
		}).WithContext(ctx).Should(BeTrue(), "the Pod was not re-created")
	})
})
