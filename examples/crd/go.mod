module github.com/informer-gen/informer-gen/examples/crd

go 1.26.0

require (
	github.com/informer-gen/informer-gen v0.0.0
	k8s.io/apimachinery v0.37.2
	k8s.io/client-go v0.37.2
)

replace github.com/informer-gen/informer-gen => ../..
