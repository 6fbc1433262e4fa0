package cache_test

// This file is informer-gen's, not controller-runtime's: specs of
// informer-gen's NewInformer run in the copied suite's envtest.

import (
	"context"
	"fmt"
	"os"
	"sync/atomic"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
	kcache "k8s.io/client-go/tools/cache"

	"github.com/informer-gen/informer-gen/controllerruntime"
	"github.com/informer-gen/informer-gen/controllerruntime/crtest/cache"
)

var _ = Describe("informer-gen's NewInformer", func() {
	It("builds the informers of a cache made with default options", func(ctx SpecContext) {
		if os.Getenv(cache.ClientGoInformerEnv) == "true" {
			Skip("the suite runs on client-go's informer")
		}
		c, err := cache.New(cfg, cache.Options{})
		Expect(err).NotTo(HaveOccurred())
		informer, err := c.GetInformer(ctx, &corev1.ConfigMap{})
		Expect(err).NotTo(HaveOccurred())
		Expect(fmt.Sprintf("%T", informer)).To(Equal("*controllerruntime.informer"))
	})

	It("streams its initial list from kube-apiserver through a bare ListWatch, without a LIST", func(ctx SpecContext) {
		ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{GenerateName: "streamed-"}}
		ns, err := clientset.CoreV1().Namespaces().Create(ctx, ns, metav1.CreateOptions{})
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(func(ctx SpecContext) {
			Expect(clientset.CoreV1().Namespaces().Delete(ctx, ns.Name, metav1.DeleteOptions{})).To(Succeed())
		})
		for _, name := range []string{"a", "b", "c"} {
			cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: name}}
			_, err := clientset.CoreV1().ConfigMaps(ns.Name).Create(ctx, cm, metav1.CreateOptions{})
			Expect(err).NotTo(HaveOccurred())
		}
		cms := clientset.CoreV1().ConfigMaps(ns.Name)
		var lists atomic.Int32
		lw := &kcache.ListWatch{
			ListWithContextFunc: func(ctx context.Context, opts metav1.ListOptions) (runtime.Object, error) {
				lists.Add(1)
				return cms.List(ctx, opts)
			},
			WatchFuncWithContext: func(ctx context.Context, opts metav1.ListOptions) (watch.Interface, error) {
				return cms.Watch(ctx, opts)
			},
		}
		informer := controllerruntime.NewInformer(lw, &corev1.ConfigMap{}, 0, kcache.Indexers{})
		runCtx, cancel := context.WithCancel(ctx)
		done := make(chan struct{})
		go func() {
			defer close(done)
			informer.RunWithContext(runCtx)
		}()
		DeferCleanup(func() {
			cancel()
			<-done
		})
		Eventually(informer.HasSynced).Should(BeTrue())
		Expect(informer.GetStore().ListKeys()).To(ConsistOf(ns.Name+"/a", ns.Name+"/b", ns.Name+"/c"))
		Expect(lists.Load()).To(BeZero(), "the initial list was a LIST, not a stream")
	})
})
