package crd

// Informers and listers of the example API, by informer-gen (built from this
// repository, so the example always uses the generator beside it).
//go:generate sh -c "go build -C ../.. -o _output/bin/informer-gen ./cmd/informer-gen && ../../_output/bin/informer-gen --go-header-file ./hack/boilerplate.go.txt --output-dir ./pkg/generated --versioned-clientset-package ./pkg/generated/clientset/versioned ./apis/..."
