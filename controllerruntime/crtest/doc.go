// Package crtest is the test module of informer-gen's controllerruntime
// module: it runs controller-runtime's own pkg/cache test suite on
// controllerruntime.NewInformer. It is not published; it is the only
// module of the repository that requires controller-runtime.
//
// # Data flow
//
//	controller-runtime v0.25 pkg/cache test files (cache_test.go, ...)
//	      |  copied into ./cache, their import of sigs.k8s.io/controller-runtime/pkg/cache
//	      |  rewritten to ./cache (TestSuiteIsControllerRuntimes checks the copies)
//	      v
//	./cache: controller-runtime's pkg/cache (aliases) whose New defaults
//	         Options.NewInformer to controllerruntime.NewInformer
//	      |
//	      v
//	envtest, with the repository's kube-apiserver and etcd
//	(hack/kube-binaries.sh) as KUBEBUILDER_ASSETS
//
// The suite skips the specs that change cached objects on purpose while
// the mutation detector is on (see ./cache's main_test.go);
// KUBE_CACHE_MUTATION_DETECTOR=false runs them too, and
// CRTEST_CLIENT_GO_INFORMER=true runs the suite on client-go's informer.
// -short skips the suite (it starts kube-apiserver).
package crtest
