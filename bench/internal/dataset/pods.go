package dataset

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// replicaSetSizes is the spread of ReplicaSet sizes the Pods come in,
// drawn in turn: most have few Pods, many one.
var replicaSetSizes = []int{1, 1, 2, 3, 1, 5, 10, 3, 1, 2, 20, 1}

// PodJSON returns n Pods shaped like a real cluster's, each encoded on its
// own so that decoding shares nothing by construction: ReplicaSets of
// replicaSetSizes Pods, one image per ReplicaSet, per-Pod
// kube-api-access-<random> projected volume and mounts, distinct
// timestamps, UIDs, IPs and container IDs. The same n gives the same
// bytes in every run (the benchmarks of bench/compaction and
// bench/decoding compare implementations on them).
func PodJSON(n int) ([][]byte, error) {
	r := rand.New(rand.NewPCG(1, 2))
	base := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	var out [][]byte
	for rs := 0; len(out) < n; rs++ {
		template := replicaSetTemplate(rs, r)
		for i := 0; i < replicaSetSizes[rs%len(replicaSetSizes)] && len(out) < n; i++ {
			pod := template.DeepCopy()
			personalize(pod, len(out), r, base.Add(time.Duration(len(out))*time.Second))
			b, err := json.Marshal(pod)
			if err != nil {
				return nil, err
			}
			out = append(out, b)
		}
	}
	return out, nil
}

// RandName returns n random letters and digits of the kind Kubernetes
// puts in generated names (no vowels, no 0, 1 or 3).
func RandName(r *rand.Rand, n int) string {
	const letters = "bcdfghjklmnpqrstvwxz2456789"
	b := make([]byte, n)
	for i := range b {
		b[i] = letters[r.IntN(len(letters))]
	}
	return string(b)
}

// resourceProfiles are the container sizes teams pick from.
var resourceProfiles = []corev1.ResourceRequirements{
	{Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("100m"), corev1.ResourceMemory: resource.MustParse("128Mi")},
		Limits: corev1.ResourceList{corev1.ResourceMemory: resource.MustParse("256Mi")}},
	{Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("250m"), corev1.ResourceMemory: resource.MustParse("512Mi")},
		Limits: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("1"), corev1.ResourceMemory: resource.MustParse("512Mi")}},
	{Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("1"), corev1.ResourceMemory: resource.MustParse("2Gi")},
		Limits: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("2"), corev1.ResourceMemory: resource.MustParse("4Gi")}},
}

// replicaSetTemplate is the Pod template of ReplicaSet rs.
func replicaSetTemplate(rs int, r *rand.Rand) *corev1.Pod {
	app := fmt.Sprintf("app-%d", rs/3)
	hash := RandName(r, 10)
	probe := &corev1.Probe{ProbeHandler: corev1.ProbeHandler{HTTPGet: &corev1.HTTPGetAction{Path: "/healthz", Port: intstr.FromString("http")}},
		PeriodSeconds: 10, TimeoutSeconds: 1, SuccessThreshold: 1, FailureThreshold: 3}
	sec := int64(30)
	return &corev1.Pod{
		TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Pod"},
		ObjectMeta: metav1.ObjectMeta{
			Namespace: fmt.Sprintf("team-%d", rs%20), GenerateName: app + "-" + hash + "-",
			Labels:          map[string]string{"app.kubernetes.io/name": app, "pod-template-hash": hash, "team": fmt.Sprintf("team-%d", rs%20)},
			Annotations:     map[string]string{"kubectl.kubernetes.io/restartedAt": "2026-01-01T00:00:00Z"},
			OwnerReferences: []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: app + "-" + hash, UID: types.UID(RandName(r, 36)), Controller: ptr(true), BlockOwnerDeletion: ptr(true)}},
		},
		Spec: corev1.PodSpec{
			Containers: []corev1.Container{{
				Name: "main", Image: fmt.Sprintf("registry.example.com/%s:v1.%d.%d", app, rs%7, rs),
				Args:                   []string{"--port=8080", "--log-level=info", "--metrics-addr=:9090"},
				Ports:                  []corev1.ContainerPort{{Name: "http", ContainerPort: 8080, Protocol: corev1.ProtocolTCP}, {Name: "metrics", ContainerPort: 9090, Protocol: corev1.ProtocolTCP}},
				Env:                    []corev1.EnvVar{{Name: "APP", Value: app}, {Name: "POD_NAME", ValueFrom: &corev1.EnvVarSource{FieldRef: &corev1.ObjectFieldSelector{APIVersion: "v1", FieldPath: "metadata.name"}}}},
				Resources:              resourceProfiles[rs%len(resourceProfiles)],
				LivenessProbe:          probe,
				ReadinessProbe:         probe,
				TerminationMessagePath: "/dev/termination-log", TerminationMessagePolicy: corev1.TerminationMessageReadFile,
				ImagePullPolicy: corev1.PullIfNotPresent,
			}},
			RestartPolicy: corev1.RestartPolicyAlways, TerminationGracePeriodSeconds: &sec, DNSPolicy: corev1.DNSClusterFirst,
			ServiceAccountName: "default", DeprecatedServiceAccount: "default", SchedulerName: "default-scheduler",
			SecurityContext: &corev1.PodSecurityContext{}, EnableServiceLinks: ptr(true), PreemptionPolicy: ptr(corev1.PreemptLowerPriority), Priority: ptr(int32(0)),
			Tolerations: []corev1.Toleration{
				{Key: "node.kubernetes.io/not-ready", Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoExecute, TolerationSeconds: ptr(int64(300))},
				{Key: "node.kubernetes.io/unreachable", Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoExecute, TolerationSeconds: ptr(int64(300))},
			},
		},
	}
}

func ptr[T any](v T) *T { return &v }

// personalize makes pod the i-th Pod of its ReplicaSet, created at
// created.
func personalize(pod *corev1.Pod, i int, r *rand.Rand, created time.Time) {
	pod.Name = pod.GenerateName + RandName(r, 5)
	pod.UID = types.UID(RandName(r, 36))
	pod.ResourceVersion = fmt.Sprint(1000 + i)
	pod.CreationTimestamp = metav1.NewTime(created)
	access := "kube-api-access-" + RandName(r, 5)
	pod.Spec.Volumes = []corev1.Volume{{Name: access, VolumeSource: corev1.VolumeSource{Projected: &corev1.ProjectedVolumeSource{
		DefaultMode: ptr(int32(420)),
		Sources: []corev1.VolumeProjection{
			{ServiceAccountToken: &corev1.ServiceAccountTokenProjection{Path: "token", ExpirationSeconds: ptr(int64(3607))}},
			{ConfigMap: &corev1.ConfigMapProjection{LocalObjectReference: corev1.LocalObjectReference{Name: "kube-root-ca.crt"}, Items: []corev1.KeyToPath{{Key: "ca.crt", Path: "ca.crt"}}}},
			{DownwardAPI: &corev1.DownwardAPIProjection{Items: []corev1.DownwardAPIVolumeFile{{Path: "namespace", FieldRef: &corev1.ObjectFieldSelector{APIVersion: "v1", FieldPath: "metadata.namespace"}}}}},
		}}}}}
	for c := range pod.Spec.Containers {
		pod.Spec.Containers[c].VolumeMounts = []corev1.VolumeMount{{Name: access, ReadOnly: true, MountPath: "/var/run/secrets/kubernetes.io/serviceaccount"}}
	}
	node := fmt.Sprintf("node-%d", r.IntN(50))
	pod.Spec.NodeName = node
	started := metav1.NewTime(created.Add(2 * time.Second))
	pod.Status = corev1.PodStatus{
		Phase: corev1.PodRunning, QOSClass: corev1.PodQOSBurstable,
		HostIP: fmt.Sprintf("10.0.0.%d", r.IntN(50)), PodIP: fmt.Sprintf("10.1.%d.%d", r.IntN(250), r.IntN(250)), StartTime: &started,
		Conditions: []corev1.PodCondition{
			{Type: corev1.PodReadyToStartContainers, Status: corev1.ConditionTrue, LastTransitionTime: started},
			{Type: corev1.PodInitialized, Status: corev1.ConditionTrue, LastTransitionTime: metav1.NewTime(created)},
			{Type: corev1.PodReady, Status: corev1.ConditionTrue, LastTransitionTime: started},
			{Type: corev1.ContainersReady, Status: corev1.ConditionTrue, LastTransitionTime: started},
			{Type: corev1.PodScheduled, Status: corev1.ConditionTrue, LastTransitionTime: metav1.NewTime(created)},
		},
		ContainerStatuses: []corev1.ContainerStatus{{
			Name: "main", Ready: true, Started: ptr(true), Image: pod.Spec.Containers[0].Image,
			ImageID:     "registry.example.com/sha256:" + RandName(r, 64),
			ContainerID: "containerd://" + RandName(r, 64),
			State:       corev1.ContainerState{Running: &corev1.ContainerStateRunning{StartedAt: started}},
		}},
	}
	pod.Status.PodIPs = []corev1.PodIP{{IP: pod.Status.PodIP}}
	pod.Status.HostIPs = []corev1.HostIP{{IP: pod.Status.HostIP}}
}
