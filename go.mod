module github.com/informer-gen/informer-gen

go 1.26.0

require (
	// runtime/ imports only k8s.io/apimachinery, klog, k8s.io/utils and, in
	// runtime/jsondecode, the JSON tokenizer below (jsontext, the tokenizer
	// of encoding/json/v2) and sigs.k8s.io/json (apimachinery's decoder);
	// sigs.k8s.io/randfill only in runtime/jsondecode/jsondecodetest.
	github.com/go-json-experiment/json v1.27.2
	github.com/go-logr/logr v1.4.3
	github.com/spf13/pflag v1.1.0
	go.uber.org/goleak v1.3.0
	golang.org/x/tools v0.52.0
	k8s.io/apimachinery v0.34.0
	k8s.io/gengo/v2 v2.0.0-20260408192533-25e2208e0dc3
	k8s.io/klog/v2 v2.140.0
	k8s.io/utils v0.0.0-20261023123148-ca04ba58ecab
	sigs.k8s.io/json v0.0.0-20250730193827-2d320260d730
	sigs.k8s.io/randfill v1.0.0
)

require (
	github.com/fxamacker/cbor/v2 v2.9.1 // indirect
	github.com/gogo/protobuf v1.3.2 // indirect
	github.com/json-iterator/go v1.1.12 // indirect
	github.com/modern-go/concurrent v0.0.0-20180306012644-bacd9c7ef1dd // indirect
	github.com/modern-go/reflect2 v1.0.3-0.20250322232337-35a7c28c31ee // indirect
	github.com/stretchr/testify v1.11.1 // indirect
	github.com/x448/float16 v0.8.4 // indirect
	go.yaml.in/yaml/v2 v2.4.4 // indirect
	golang.org/x/mod v0.42.0 // indirect
	golang.org/x/net v0.61.0 // indirect
	golang.org/x/sync v0.24.0 // indirect
	golang.org/x/text v0.43.0 // indirect
	gopkg.in/inf.v0 v0.9.1 // indirect
	sigs.k8s.io/structured-merge-diff/v6 v6.4.2 // indirect
	sigs.k8s.io/yaml v1.6.0 // indirect
)
