// Package gatewayapigen holds informer-gen's output for the Gateway API's
// v1 types (sigs.k8s.io/gateway-api/apis/v1: HTTPRoute, Gateway, ...):
// informers and listers over the project's own generated clientset, with
// the JSON decoders (--json-decoders) and compaction walks informer-gen
// writes for them. scalebench's custom-resource variants run its HTTPRoute
// informer against the Gateway API project's own generated informer
// (sigs.k8s.io/gateway-api/pkg/client/informers). With
// INFORMER_GEN_VERIFY=--verify-only in the environment, `go generate` only
// checks that the checked-in files are up to date (hack/verify-codegen.sh);
// hack/update-codegen.sh regenerates them.
package gatewayapigen

//go:generate sh -c "go build -C ../../.. -o _output/bin/informer-gen ./cmd/informer-gen && ../../../_output/bin/informer-gen $INFORMER_GEN_VERIFY --json-decoders --output-dir . --output-pkg github.com/informer-gen/informer-gen/e2e/internal/gatewayapigen --versioned-clientset-package sigs.k8s.io/gateway-api/pkg/client/clientset/versioned sigs.k8s.io/gateway-api/apis/v1"
