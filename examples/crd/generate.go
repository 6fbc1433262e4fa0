package crd

// Informers and listers of the example API, by informer-gen built from this
// repository, so the example always uses the generator beside it. With
// INFORMER_GEN_VERIFY=--verify-only in the environment, `go generate` only
// checks that the checked-in files are up to date (hack/verify-codegen.sh).
//go:generate sh -c "go build -C ../.. -o _output/bin/informer-gen ./cmd/informer-gen && ../../_output/bin/informer-gen $INFORMER_GEN_VERIFY --go-header-file ./hack/boilerplate.go.txt --output-dir ./pkg/generated --versioned-clientset-package ./pkg/generated/clientset/versioned ./apis/..."
