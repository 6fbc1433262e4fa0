// Package corev1gen holds informer-gen's output for k8s.io/api/core/v1
// (informers, listers and the compaction walks of every core/v1 type), in
// a module of its own that the benchmarks (bench) and the end-to-end tests
// (e2e, scalebench) share: they compact Pods and ConfigMaps with the walks
// a user generating for k8s.io/api gets, and scalebench runs the generated
// Pod informer. Go's internal rule follows import paths, so every module
// under github.com/informer-gen/informer-gen may import it; nothing outside
// may. With INFORMER_GEN_VERIFY=--verify-only in the environment,
// `go generate` only checks that the checked-in files are up to date
// (hack/verify-codegen.sh); hack/update-codegen.sh regenerates them.
package corev1gen

//go:generate sh -c "go build -C ../.. -o _output/bin/informer-gen ./cmd/informer-gen && ../../_output/bin/informer-gen $INFORMER_GEN_VERIFY --json-decoders --output-dir . --output-pkg github.com/informer-gen/informer-gen/internal/corev1gen --versioned-clientset-package k8s.io/client-go/kubernetes k8s.io/api/core/v1"
