module github.com/informer-gen/informer-gen/shard

go 1.26.0

replace github.com/informer-gen/informer-gen => ../
