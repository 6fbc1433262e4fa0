module github.com/informer-gen/informer-gen/hack/release

go 1.26.0

require golang.org/x/mod v0.42.0
