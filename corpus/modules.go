//go:build corpus_modules

// This file is never built. Its imports keep the pinned third-party API
// modules, their clientsets and the runtime the generated code needs in
// go.mod and go.sum (go mod tidy reads every build tag), so that
// corpus_test.go can generate against them and build the result.
package corpus

import (
	_ "github.com/cert-manager/cert-manager/pkg/client/clientset/versioned"
	_ "github.com/cert-manager/cert-manager/pkg/client/informers/externalversions"
	_ "github.com/kubernetes-csi/external-snapshotter/client/v8/clientset/versioned"
	_ "github.com/kubernetes-csi/external-snapshotter/client/v8/informers/externalversions"
	_ "k8s.io/apiextensions-apiserver/pkg/client/clientset/clientset"
	_ "k8s.io/apiextensions-apiserver/pkg/client/informers/externalversions"
	_ "k8s.io/kube-aggregator/pkg/client/clientset_generated/clientset"
	_ "k8s.io/kube-aggregator/pkg/client/informers/externalversions"
	_ "sigs.k8s.io/gateway-api/pkg/client/clientset/versioned"
	_ "sigs.k8s.io/gateway-api/pkg/client/informers/externalversions"

	_ "github.com/informer-gen/informer-gen/cmd/informer-gen"
	_ "github.com/informer-gen/informer-gen/runtime/factory"
	_ "github.com/informer-gen/informer-gen/runtime/jsondecode"
	_ "github.com/informer-gen/informer-gen/runtime/jsonwatch"
	_ "github.com/informer-gen/informer-gen/runtime/lister"
	_ "github.com/informer-gen/informer-gen/runtime/protodecode"
)
