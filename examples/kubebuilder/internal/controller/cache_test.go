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
	"reflect"
	"unsafe"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	toolscache "k8s.io/client-go/tools/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/informer-gen/informer-gen/runtime/compact"

	toysv1 "github.com/informer-gen/informer-gen/examples/kubebuilder/api/v1"
)

// cached returns the object the manager's cache holds for obj's type
// under key, as its informer stores it (no deep copy: never mutate it),
// or nil.
func cached(ctx context.Context, obj client.Object, key string) (any, error) {
	informer, err := mgr.GetCache().GetInformer(ctx, obj)
	if err != nil {
		return nil, err
	}
	got, _, err := informer.(toolscache.SharedIndexInformer).GetIndexer().GetByKey(key)
	return got, err
}

// mapData is the address of a map's table: two maps with the same are one.
func mapData(m map[string]string) unsafe.Pointer { return reflect.ValueOf(m).UnsafePointer() }

var _ = Describe("The manager's cache", func() {
	DescribeTable("builds informer-gen's informer for each type the controller watches",
		func(ctx SpecContext, obj client.Object) {
			informer, err := mgr.GetCache().GetInformer(ctx, obj)
			Expect(err).NotTo(HaveOccurred())
			Expect(fmt.Sprintf("%T", informer)).To(Equal("*controllerruntime.informer"))
		},
		Entry("Gadget (For)", &toysv1.Gadget{}),
		Entry("ConfigMap (Owns)", &corev1.ConfigMap{}),
		Entry("Pod (Owns)", &corev1.Pod{}),
	)

	DescribeTable("has a generated compaction walk registered for each type the controller watches",
		func(obj client.Object) {
			Expect(compact.Registered(obj)).To(BeTrue(), "no walk registered for %T: its informer would take the reflective one", obj)
		},
		Entry("Gadget (api/v1's zz_generated.compaction.go)", &toysv1.Gadget{}),
		Entry("ConfigMap (controllerruntime/kubeapi)", &corev1.ConfigMap{}),
		Entry("Pod (controllerruntime/kubeapi)", &corev1.Pod{}),
	)

	// The compaction table shares a value from its second sighting on (the
	// first object keeps its own copy, package compact's Table), so of
	// three cached objects with equal parts, at least two hold one copy.
	It("compacts what it caches: of three Gadgets with equal settings and images, and of their ConfigMaps, two or more hold one copy", func(ctx SpecContext) {
		ns := newNamespace(ctx)
		settings := map[string]string{"color": "red", "size": "large"}
		names := []string{"one", "two", "three"}
		for _, name := range names {
			newGadget(ctx, ns, name, 0, settings)
		}
		settingsMaps, images, data := map[unsafe.Pointer]bool{}, map[*byte]bool{}, map[unsafe.Pointer]bool{}
		for _, name := range names {
			key := ns + "/" + name
			Eventually(cached).WithContext(ctx).WithArguments(&toysv1.Gadget{}, key).ShouldNot(BeNil())
			Eventually(cached).WithContext(ctx).WithArguments(&corev1.ConfigMap{}, key).Should(HaveField("Data", Equal(settings)))
			g, err := cached(ctx, &toysv1.Gadget{}, key)
			Expect(err).NotTo(HaveOccurred())
			settingsMaps[mapData(g.(*toysv1.Gadget).Spec.Settings)] = true
			images[unsafe.StringData(g.(*toysv1.Gadget).Spec.Image)] = true
			cm, err := cached(ctx, &corev1.ConfigMap{}, key)
			Expect(err).NotTo(HaveOccurred())
			data[mapData(cm.(*corev1.ConfigMap).Data)] = true
		}
		Expect(len(settingsMaps)).To(BeNumerically("<=", 2), "each Gadget holds its own settings map")
		Expect(len(images)).To(BeNumerically("<=", 2), "each Gadget holds its own image string")
		Expect(len(data)).To(BeNumerically("<=", 2), "each ConfigMap holds its own data map")
	})
})
