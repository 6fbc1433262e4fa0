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
	"os"
	"path/filepath"
	"testing"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"k8s.io/apimachinery/pkg/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/rest"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/envtest"
	logf "sigs.k8s.io/controller-runtime/pkg/log"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"

	"github.com/informer-gen/informer-gen/controllerruntime"

	toysv1 "github.com/informer-gen/informer-gen/examples/kubebuilder/api/v1"
)

// These tests use Ginkgo (BDD-style Go testing framework), as kubebuilder
// scaffolds them, but start the manager of cmd/main.go (its cache on
// informer-gen's informer) with the Gadget controller on envtest, and
// check what the controller does through a client that reads the API
// server directly.

var (
	testEnv   *envtest.Environment
	assetsDir string
	cfg       *rest.Config
	k8sClient client.Client // reads and writes the API server, no cache
	mgr       ctrl.Manager
	stopMgr   context.CancelFunc
	mgrDone   chan error
)

func TestControllers(t *testing.T) {
	if testing.Short() {
		t.Skip("skipping the Gadget controller's envtest suite in -short mode: it starts kube-apiserver")
	}
	RegisterFailHandler(Fail)
	RunSpecs(t, "Controller Suite")
}

var _ = BeforeSuite(func() {
	logf.SetLogger(zap.New(zap.WriteTo(GinkgoWriter), zap.UseDevMode(true)))
	SetDefaultEventuallyTimeout(30 * time.Second)
	SetDefaultEventuallyPollingInterval(50 * time.Millisecond)

	var err error
	assetsDir, err = kubebuilderAssets()
	Expect(err).NotTo(HaveOccurred())

	scheme := runtime.NewScheme()
	Expect(clientgoscheme.AddToScheme(scheme)).To(Succeed())
	Expect(toysv1.AddToScheme(scheme)).To(Succeed())

	testEnv = &envtest.Environment{
		CRDDirectoryPaths:     []string{filepath.Join("..", "..", "config", "crd", "bases")},
		ErrorIfCRDPathMissing: true,
	}
	cfg, err = testEnv.Start()
	Expect(err).NotTo(HaveOccurred())
	k8sClient, err = client.New(cfg, client.Options{Scheme: scheme})
	Expect(err).NotTo(HaveOccurred())

	mgr, err = ctrl.NewManager(cfg, ctrl.Options{
		Scheme:  scheme,
		Metrics: metricsserver.Options{BindAddress: "0"},
		Cache:   cache.Options{NewInformer: controllerruntime.NewInformer},
	})
	Expect(err).NotTo(HaveOccurred())
	Expect((&GadgetReconciler{Client: mgr.GetClient(), Scheme: mgr.GetScheme()}).SetupWithManager(mgr)).To(Succeed())

	var ctx context.Context
	ctx, stopMgr = context.WithCancel(context.Background())
	mgrDone = make(chan error, 1)
	go func() { mgrDone <- mgr.Start(ctx) }()
	Expect(mgr.GetCache().WaitForCacheSync(ctx)).To(BeTrue())
})

var _ = AfterSuite(func() {
	if stopMgr != nil {
		stopMgr()
		Eventually(mgrDone).Should(Receive(BeNil()), "the manager did not stop")
	}
	if testEnv != nil {
		Expect(testEnv.Stop()).To(Succeed())
	}
	if assetsDir != "" {
		Expect(os.RemoveAll(assetsDir)).To(Succeed())
	}
})
