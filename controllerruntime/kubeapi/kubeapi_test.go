package kubeapi_test

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"unsafe"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/client-go/kubernetes/scheme"

	"github.com/informer-gen/informer-gen/runtime/compact"

	_ "github.com/informer-gen/informer-gen/controllerruntime/kubeapi"
)

func TestEveryKubeAPITypeWithObjectMetaHasARegisteredWalk(t *testing.T) {
	checked := 0
	for gvk, typ := range scheme.Scheme.AllKnownTypes() {
		if !strings.HasPrefix(typ.PkgPath(), "k8s.io/api/") {
			continue // apimachinery's option and event types
		}
		if f, ok := typ.FieldByName("ObjectMeta"); !ok || f.Type != reflect.TypeFor[metav1.ObjectMeta]() {
			continue
		}
		checked++
		if example := reflect.New(typ).Interface(); !compact.Registered(example) {
			t.Errorf("%s (%T) has no registered walk; run hack/update-codegen.sh", gvk, example)
		}
	}
	// client-go's scheme registers ~200 kinds with ObjectMeta; far fewer
	// means the enumeration, not the walks, is wrong.
	t.Logf("%d k8s.io/api types with ObjectMeta in client-go's scheme", checked)
	if checked < 150 {
		t.Fatalf("checked %d types with ObjectMeta in client-go's scheme, want at least 150", checked)
	}
}

// realShaped returns objects shaped as a cluster's are.
func realShaped() []any {
	meta := func(name string) metav1.ObjectMeta {
		return metav1.ObjectMeta{
			Name: name, Namespace: "shop", UID: "3f1c9a52-7d0e-4a8b-9c61-2b5e8f0d4c17", ResourceVersion: "918273",
			Generation: 3, CreationTimestamp: metav1.Unix(1767225600, 0),
			Labels:      map[string]string{"app.kubernetes.io/name": "checkout", "app.kubernetes.io/part-of": "shop", "pod-template-hash": "5d8f7c9b6"},
			Annotations: map[string]string{"kubectl.kubernetes.io/restartedAt": "2026-01-01T00:00:00Z"},
			OwnerReferences: []metav1.OwnerReference{{
				APIVersion: "apps/v1", Kind: "ReplicaSet", Name: "checkout-5d8f7c9b6", UID: "8a2b", Controller: ptr(true), BlockOwnerDeletion: ptr(true),
			}},
			ManagedFields: []metav1.ManagedFieldsEntry{{
				Manager: "kube-controller-manager", Operation: metav1.ManagedFieldsOperationUpdate, APIVersion: "v1",
				Time: ptr(metav1.Unix(1767225600, 0)), FieldsType: "FieldsV1",
				FieldsV1: metav1.NewFieldsV1(`{"f:metadata":{"f:labels":{".":{},"f:app":{}}}}`),
			}},
		}
	}
	podSpec := corev1.PodSpec{
		Containers: []corev1.Container{{
			Name: "app", Image: "registry.example.org/shop/checkout:v1.42.0", Args: []string{"--port=8080", "--log-level=info"},
			Ports: []corev1.ContainerPort{{Name: "http", ContainerPort: 8080, Protocol: corev1.ProtocolTCP}},
			Env: []corev1.EnvVar{
				{Name: "GOMAXPROCS", Value: "2"},
				{Name: "POD_IP", ValueFrom: &corev1.EnvVarSource{FieldRef: &corev1.ObjectFieldSelector{APIVersion: "v1", FieldPath: "status.podIP"}}},
			},
			Resources: corev1.ResourceRequirements{
				Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("250m"), corev1.ResourceMemory: resource.MustParse("256Mi")},
				Limits:   corev1.ResourceList{corev1.ResourceMemory: resource.MustParse("512Mi")},
			},
			ReadinessProbe: &corev1.Probe{ProbeHandler: corev1.ProbeHandler{HTTPGet: &corev1.HTTPGetAction{Path: "/healthz", Port: intstr.FromString("http")}}, PeriodSeconds: 10},
			VolumeMounts:   []corev1.VolumeMount{{Name: "kube-api-access-x7k2p", MountPath: "/var/run/secrets/kubernetes.io/serviceaccount", ReadOnly: true}},
		}},
		Volumes: []corev1.Volume{{Name: "kube-api-access-x7k2p", VolumeSource: corev1.VolumeSource{Projected: &corev1.ProjectedVolumeSource{
			Sources: []corev1.VolumeProjection{{ServiceAccountToken: &corev1.ServiceAccountTokenProjection{Path: "token", ExpirationSeconds: ptr[int64](3607)}}},
		}}}},
		Tolerations: []corev1.Toleration{{Key: "node.kubernetes.io/not-ready", Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoExecute, TolerationSeconds: ptr[int64](300)}},
		NodeName:    "node-17", ServiceAccountName: "checkout", RestartPolicy: corev1.RestartPolicyAlways,
	}
	return []any{
		&corev1.Pod{
			TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Pod"}, ObjectMeta: meta("checkout-5d8f7c9b6-abcde"), Spec: podSpec,
			Status: corev1.PodStatus{
				Phase: corev1.PodRunning, PodIP: "10.244.3.17", HostIP: "192.168.1.17", QOSClass: corev1.PodQOSBurstable,
				Conditions: []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionTrue, LastTransitionTime: metav1.Unix(1767225610, 0)}},
				ContainerStatuses: []corev1.ContainerStatus{{
					Name: "app", Ready: true, Image: "registry.example.org/shop/checkout:v1.42.0", ImageID: "registry.example.org/shop/checkout@sha256:0123",
					State: corev1.ContainerState{Running: &corev1.ContainerStateRunning{StartedAt: metav1.Unix(1767225605, 0)}},
				}},
			},
		},
		&appsv1.Deployment{
			TypeMeta: metav1.TypeMeta{APIVersion: "apps/v1", Kind: "Deployment"}, ObjectMeta: meta("checkout"),
			Spec: appsv1.DeploymentSpec{
				Replicas: ptr[int32](3), Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app.kubernetes.io/name": "checkout"}},
				Template: corev1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app.kubernetes.io/name": "checkout"}}, Spec: podSpec},
				Strategy: appsv1.DeploymentStrategy{Type: appsv1.RollingUpdateDeploymentStrategyType, RollingUpdate: &appsv1.RollingUpdateDeployment{MaxSurge: ptr(intstr.FromString("25%"))}},
			},
			Status: appsv1.DeploymentStatus{Replicas: 3, ReadyReplicas: 3, Conditions: []appsv1.DeploymentCondition{{Type: appsv1.DeploymentAvailable, Status: corev1.ConditionTrue, Reason: "MinimumReplicasAvailable"}}},
		},
		&corev1.ConfigMap{
			TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "ConfigMap"}, ObjectMeta: meta("kube-root-ca.crt"),
			Data:       map[string]string{"ca.crt": "-----BEGIN CERTIFICATE-----\nMIIC...\n-----END CERTIFICATE-----\n"},
			BinaryData: map[string][]byte{"blob": {0, 1, 2, 3}},
		},
		&corev1.Secret{
			TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Secret"}, ObjectMeta: meta("checkout-tls"), Type: corev1.SecretTypeTLS,
			Data: map[string][]byte{"tls.crt": []byte("cert"), "tls.key": []byte("key")}, Immutable: ptr(true),
		},
		&corev1.Service{
			TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Service"}, ObjectMeta: meta("checkout"),
			Spec: corev1.ServiceSpec{
				Type: corev1.ServiceTypeClusterIP, ClusterIP: "10.96.12.34", ClusterIPs: []string{"10.96.12.34"},
				Selector: map[string]string{"app.kubernetes.io/name": "checkout"}, IPFamilies: []corev1.IPFamily{corev1.IPv4Protocol},
				Ports: []corev1.ServicePort{{Name: "http", Port: 80, TargetPort: intstr.FromString("http"), Protocol: corev1.ProtocolTCP}},
			},
		},
		&corev1.Node{
			TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Node"}, ObjectMeta: metav1.ObjectMeta{Name: "node-17", Labels: map[string]string{"kubernetes.io/os": "linux", "topology.kubernetes.io/zone": "eu-west-1a"}},
			Spec: corev1.NodeSpec{PodCIDR: "10.244.3.0/24", PodCIDRs: []string{"10.244.3.0/24"}, Taints: []corev1.Taint{{Key: "dedicated", Value: "shop", Effect: corev1.TaintEffectNoSchedule}}},
			Status: corev1.NodeStatus{
				Capacity:    corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("8"), corev1.ResourcePods: resource.MustParse("110")},
				Allocatable: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("7910m"), corev1.ResourcePods: resource.MustParse("110")},
				Conditions:  []corev1.NodeCondition{{Type: corev1.NodeReady, Status: corev1.ConditionTrue, Reason: "KubeletReady", Message: "kubelet is posting ready status"}},
				Addresses:   []corev1.NodeAddress{{Type: corev1.NodeInternalIP, Address: "192.168.1.17"}},
				NodeInfo:    corev1.NodeSystemInfo{KubeletVersion: "v1.37.0", OperatingSystem: "linux", Architecture: "amd64"},
				Images:      []corev1.ContainerImage{{Names: []string{"registry.example.org/shop/checkout:v1.42.0"}, SizeBytes: 52_000_000}},
			},
		},
	}
}

func ptr[T any](v T) *T { return &v }

// decodeLike returns a fresh decoding of obj's JSON: equal to obj, sharing
// no string or slice with it or with another decoding.
func decodeLike(t *testing.T, obj any) any {
	t.Helper()
	b, err := json.Marshal(obj)
	if err != nil {
		t.Fatal(err)
	}
	out := reflect.New(reflect.TypeOf(obj).Elem()).Interface()
	if err := json.Unmarshal(b, out); err != nil {
		t.Fatal(err)
	}
	return out
}

func TestCompactionThroughTheRegisteredWalkKeepsRealShapedObjects(t *testing.T) {
	for _, obj := range realShaped() {
		t.Run(reflect.TypeOf(obj).Elem().Name(), func(t *testing.T) {
			if !compact.Registered(obj) {
				t.Fatalf("%T has no registered walk", obj)
			}
			table := compact.NewTable()
			var last [2]any
			for i := range 3 {
				got := decodeLike(t, obj)
				want := decodeLike(t, obj)
				table.Object(got)
				if !reflect.DeepEqual(got, want) {
					t.Fatalf("compaction changed the object:\n got %+v\nwant %+v", got, want)
				}
				last[i%2] = got
			}
			// The two last copies hold one interned copy of their metadata's
			// strings: the walk ran, and interned.
			a, b := metaOf(last[0]), metaOf(last[1])
			if unsafe.StringData(a.Name) != unsafe.StringData(b.Name) {
				t.Errorf("metadata.name %q: two compacted copies hold separate strings", a.Name)
			}
		})
	}
}

// metaOf returns obj's ObjectMeta.
func metaOf(obj any) *metav1.ObjectMeta {
	return reflect.ValueOf(obj).Elem().FieldByName("ObjectMeta").Addr().Interface().(*metav1.ObjectMeta)
}

func TestGeneratedWalksShareTheRepeatedPartsOfPods(t *testing.T) {
	table := compact.NewTable()
	var pods []*corev1.Pod
	for range 3 {
		p := decodeLike(t, realShaped()[0]).(*corev1.Pod)
		table.Object(p)
		pods = append(pods, p)
	}
	a, b := pods[1], pods[2]
	for _, tt := range []struct {
		name string
		x, y unsafe.Pointer
	}{
		{"containers", unsafe.Pointer(unsafe.SliceData(a.Spec.Containers)), unsafe.Pointer(unsafe.SliceData(b.Spec.Containers))},
		{"tolerations", unsafe.Pointer(unsafe.SliceData(a.Spec.Tolerations)), unsafe.Pointer(unsafe.SliceData(b.Spec.Tolerations))},
		{"volumes", unsafe.Pointer(unsafe.SliceData(a.Spec.Volumes)), unsafe.Pointer(unsafe.SliceData(b.Spec.Volumes))},
		{"image", unsafe.Pointer(unsafe.StringData(a.Status.ContainerStatuses[0].Image)), unsafe.Pointer(unsafe.StringData(b.Status.ContainerStatuses[0].Image))},
	} {
		if tt.x != tt.y {
			t.Errorf("%s: two equal Pods hold separate copies after compaction", tt.name)
		}
	}
}

// reflectedPod is Pod under another name: no walk is registered for it,
// so package compact compacts it with its reflective walk.
type reflectedPod corev1.Pod

func TestGeneratedPodWalkGivesWhatTheReflectiveWalkGives(t *testing.T) {
	if compact.Registered(&reflectedPod{}) {
		t.Fatal("the reflective stand-in has a registered walk")
	}
	generated, reflective := compact.NewTable(), compact.NewTable()
	for range 3 {
		g := decodeLike(t, realShaped()[0]).(*corev1.Pod)
		r := (*reflectedPod)(decodeLike(t, realShaped()[0]).(*corev1.Pod))
		generated.Object(g)
		reflective.Object(r)
		if !reflect.DeepEqual(g, (*corev1.Pod)(r)) {
			t.Fatalf("the generated and the reflective walks give different Pods:\n generated %+v\nreflective %+v", g, r)
		}
	}
}
