module github.com/informer-gen/informer-gen/controllerruntime

go 1.26.0

replace github.com/informer-gen/informer-gen => ../
