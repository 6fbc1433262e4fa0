package decoding

import (
	"testing"

	corev1 "k8s.io/api/core/v1"

	_ "github.com/informer-gen/informer-gen/internal/corev1gen/informers/externalversions/core/v1" // registers the generated decoders
	"github.com/informer-gen/informer-gen/runtime/jsondecode"
	"github.com/informer-gen/informer-gen/runtime/jsondecode/jsondecodetest"
)

func TestGeneratedDecodersAgreeWithSigsJSONOnRealShapedPods(t *testing.T) {
	fn := jsondecodetest.Registered[corev1.Pod](t)
	for _, b := range podJSON(t, 200) {
		jsondecodetest.Same(t, fn, b)
	}
}

// TestGeneratedDecodersAgreeWithSigsJSONOnRandomObjects covers every
// core/v1 kind with an informer, and through them every core/v1 type.
func TestGeneratedDecodersAgreeWithSigsJSONOnRandomObjects(t *testing.T) {
	const n = 40
	checks := map[string]func(t *testing.T){
		"Pod":       func(t *testing.T) { jsondecodetest.Random(t, jsondecodetest.Registered[corev1.Pod](t), n) },
		"PodList":   func(t *testing.T) { jsondecodetest.Random(t, jsondecode.Value[corev1.PodList], 5) },
		"Node":      func(t *testing.T) { jsondecodetest.Random(t, jsondecodetest.Registered[corev1.Node](t), n) },
		"Service":   func(t *testing.T) { jsondecodetest.Random(t, jsondecodetest.Registered[corev1.Service](t), n) },
		"ConfigMap": func(t *testing.T) { jsondecodetest.Random(t, jsondecodetest.Registered[corev1.ConfigMap](t), n) },
		"Secret":    func(t *testing.T) { jsondecodetest.Random(t, jsondecodetest.Registered[corev1.Secret](t), n) },
		//lint:ignore SA1019 core/v1 Endpoints still has an informer
		"Endpoints":        func(t *testing.T) { jsondecodetest.Random(t, jsondecodetest.Registered[corev1.Endpoints](t), n) },
		"Event":            func(t *testing.T) { jsondecodetest.Random(t, jsondecodetest.Registered[corev1.Event](t), n) },
		"Namespace":        func(t *testing.T) { jsondecodetest.Random(t, jsondecodetest.Registered[corev1.Namespace](t), n) },
		"PersistentVolume": func(t *testing.T) { jsondecodetest.Random(t, jsondecodetest.Registered[corev1.PersistentVolume](t), n) },
		"PersistentVolumeClaim": func(t *testing.T) {
			jsondecodetest.Random(t, jsondecodetest.Registered[corev1.PersistentVolumeClaim](t), n)
		},
		"ReplicationController": func(t *testing.T) {
			jsondecodetest.Random(t, jsondecodetest.Registered[corev1.ReplicationController](t), n)
		},
		"ServiceAccount":  func(t *testing.T) { jsondecodetest.Random(t, jsondecodetest.Registered[corev1.ServiceAccount](t), n) },
		"LimitRange":      func(t *testing.T) { jsondecodetest.Random(t, jsondecodetest.Registered[corev1.LimitRange](t), n) },
		"ResourceQuota":   func(t *testing.T) { jsondecodetest.Random(t, jsondecodetest.Registered[corev1.ResourceQuota](t), n) },
		"PodTemplate":     func(t *testing.T) { jsondecodetest.Random(t, jsondecodetest.Registered[corev1.PodTemplate](t), n) },
		"ComponentStatus": func(t *testing.T) { jsondecodetest.Random(t, jsondecodetest.Registered[corev1.ComponentStatus](t), n) },
	}
	for name, check := range checks {
		t.Run(name, check)
	}
}

func FuzzPodDecoder(f *testing.F) {
	seeds := append(jsondecodetest.Seeds[corev1.Pod](5), podJSON(f, 5)...)
	seeds = append(seeds,
		[]byte(`{"spec":{"containers":[{"name":"a","resources":{"limits":{"cpu":"1"}}}],"containers":[{"image":"x"}]}}`),
		[]byte(`{"spec":{"containers":[{"ports":[{"containerPort":80,"protocol":"TCP"}],"livenessProbe":{"httpGet":{"port":"http"}}}]}}`),
		[]byte(`{"spec":{"securityContext":{"runAsUser":1.5}}}`), []byte(`{"status":{"podIPs":[{"ip":"10.0.0.1"}],"startTime":null}}`))
	jsondecodetest.Fuzz(f, jsondecodetest.Registered[corev1.Pod](f), seeds)
}
