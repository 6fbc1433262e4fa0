module github.com/informer-gen/informer-gen/versions

go 1.26.0
