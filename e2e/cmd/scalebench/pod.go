package main

import (
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// serviceAccountMountPath is where the ServiceAccount admission plugin
// mounts the kube-api-access volume in every container.
const serviceAccountMountPath = "/var/run/secrets/kubernetes.io/serviceaccount"

// podSpec is pod r as a ReplicaSet controller creates it from its
// Deployment's template, after admission: labels, owner reference, two or
// three containers with env, resources, ports, probes and volume mounts,
// and a kube-api-access-<random> projected volume of its own, mounted in
// every container, as the ServiceAccount admission plugin adds it.
// Everything but the name and that volume is the same for every Pod of a
// ReplicaSet (one template, one image per container).
func podSpec(r podRef) *corev1.Pod {
	app := appName(r.rs)
	hash := templateHash(r.namespace, r.rs)
	tokenVolume := "kube-api-access-" + randomSuffix(r.j, fnvOf(r.namespace)^0x9e3779b97f4a7c15)
	containers := []corev1.Container{appContainer(r, tokenVolume), proxyContainer(r.namespace, tokenVolume)}
	if r.rs%3 == 0 {
		containers = append(containers, shipperContainer(tokenVolume))
	}
	return &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{
			Name:      r.name,
			Namespace: r.namespace,
			Labels:    map[string]string{"app": app, "pod-template-hash": hash, "app.kubernetes.io/part-of": "scalebench"},
			Annotations: map[string]string{
				"kubectl.kubernetes.io/default-container": "app",
				"prometheus.io/scrape":                    "true",
				"prometheus.io/port":                      "9090",
			},
			OwnerReferences: []metav1.OwnerReference{{
				APIVersion: "apps/v1", Kind: "ReplicaSet", Name: replicaSetName(r.namespace, r.rs),
				UID:        types.UID(fmt.Sprintf("%08x-0000-4000-8000-%012x", r.rs, fnvOf(r.namespace)&(1<<48-1))),
				Controller: ptr(true), BlockOwnerDeletion: ptr(true),
			}},
		},
		Spec: corev1.PodSpec{
			Containers:                    containers,
			RestartPolicy:                 corev1.RestartPolicyAlways,
			TerminationGracePeriodSeconds: ptr(int64(30)),
			DNSPolicy:                     corev1.DNSClusterFirst,
			ServiceAccountName:            "default",
			SecurityContext:               &corev1.PodSecurityContext{RunAsNonRoot: ptr(true), FSGroup: ptr(int64(2000))},
			SchedulerName:                 corev1.DefaultSchedulerName,
			Tolerations: []corev1.Toleration{
				{Key: "node.kubernetes.io/not-ready", Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoExecute, TolerationSeconds: ptr(int64(300))},
				{Key: "node.kubernetes.io/unreachable", Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoExecute, TolerationSeconds: ptr(int64(300))},
			},
			Volumes: []corev1.Volume{
				{Name: "config", VolumeSource: corev1.VolumeSource{ConfigMap: &corev1.ConfigMapVolumeSource{LocalObjectReference: corev1.LocalObjectReference{Name: app + "-config"}, DefaultMode: ptr(int32(0o644))}}},
				{Name: "varlog", VolumeSource: corev1.VolumeSource{EmptyDir: &corev1.EmptyDirVolumeSource{}}},
				serviceAccountVolume(tokenVolume),
			},
		},
	}
}

// serviceAccountVolume is the projected volume the ServiceAccount
// admission plugin adds to a Pod (plugin/pkg/admission/serviceaccount):
// a bound token, the cluster's CA and the namespace.
func serviceAccountVolume(name string) corev1.Volume {
	return corev1.Volume{Name: name, VolumeSource: corev1.VolumeSource{Projected: &corev1.ProjectedVolumeSource{
		DefaultMode: ptr(int32(0o644)),
		Sources: []corev1.VolumeProjection{
			{ServiceAccountToken: &corev1.ServiceAccountTokenProjection{Path: "token", ExpirationSeconds: ptr(int64(3607))}},
			{ConfigMap: &corev1.ConfigMapProjection{LocalObjectReference: corev1.LocalObjectReference{Name: "kube-root-ca.crt"}, Items: []corev1.KeyToPath{{Key: "ca.crt", Path: "ca.crt"}}}},
			{DownwardAPI: &corev1.DownwardAPIProjection{Items: []corev1.DownwardAPIVolumeFile{{Path: "namespace", FieldRef: &corev1.ObjectFieldSelector{APIVersion: "v1", FieldPath: "metadata.namespace"}}}}},
		},
	}}}
}

// serviceAccountMount mounts the kube-api-access volume, as admission does
// in every container.
func serviceAccountMount(name string) corev1.VolumeMount {
	return corev1.VolumeMount{Name: name, MountPath: serviceAccountMountPath, ReadOnly: true}
}

// appSizes are the resource requests the Deployments of the population
// choose from (limits are derived): a handful of common sizes, one per
// ReplicaSet.
var appSizes = []struct{ cpu, memory, cpuLimit, memoryLimit string }{
	{"50m", "64Mi", "500m", "256Mi"},
	{"100m", "128Mi", "1", "512Mi"},
	{"250m", "256Mi", "1", "1Gi"},
	{"500m", "512Mi", "2", "2Gi"},
}

// appContainer is the main container of pod r: its image (one tag per
// ReplicaSet), args, env and size belong to its Deployment.
func appContainer(r podRef, tokenVolume string) corev1.Container {
	app := appName(r.rs)
	h := fnvOf(replicaSetName(r.namespace, r.rs))
	size := appSizes[h%uint64(len(appSizes))]
	return corev1.Container{
		Name:  "app",
		Image: fmt.Sprintf("registry.example.com/team/%s:v1.%d.%d", app, h>>8%12, h>>16%20),
		Args:  []string{"--listen=:8080", "--metrics=:9090", "--config=/etc/" + app + "/config.yaml"},
		Env: []corev1.EnvVar{
			fieldEnv("POD_NAME", "metadata.name"),
			fieldEnv("POD_NAMESPACE", "metadata.namespace"),
			fieldEnv("POD_IP", "status.podIP"),
			{Name: "LOG_LEVEL", Value: "info"},
			{Name: "GOMAXPROCS", Value: "2"},
			{Name: "UPSTREAM_URL", Value: fmt.Sprintf("http://%s-backend.%s.svc.cluster.local:8080", app, r.namespace)},
		},
		Ports: []corev1.ContainerPort{{Name: "http", ContainerPort: 8080, Protocol: corev1.ProtocolTCP}, {Name: "metrics", ContainerPort: 9090, Protocol: corev1.ProtocolTCP}},
		Resources: corev1.ResourceRequirements{
			Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse(size.cpu), corev1.ResourceMemory: resource.MustParse(size.memory)},
			Limits:   corev1.ResourceList{corev1.ResourceCPU: resource.MustParse(size.cpuLimit), corev1.ResourceMemory: resource.MustParse(size.memoryLimit)},
		},
		VolumeMounts:             []corev1.VolumeMount{{Name: "config", MountPath: "/etc/" + app, ReadOnly: true}, serviceAccountMount(tokenVolume)},
		ReadinessProbe:           &corev1.Probe{ProbeHandler: corev1.ProbeHandler{HTTPGet: &corev1.HTTPGetAction{Path: "/readyz", Port: intstr.FromString("http"), Scheme: corev1.URISchemeHTTP}}, PeriodSeconds: 10, TimeoutSeconds: 1, SuccessThreshold: 1, FailureThreshold: 3},
		LivenessProbe:            &corev1.Probe{ProbeHandler: corev1.ProbeHandler{HTTPGet: &corev1.HTTPGetAction{Path: "/healthz", Port: intstr.FromString("http"), Scheme: corev1.URISchemeHTTP}}, InitialDelaySeconds: 10, PeriodSeconds: 10, TimeoutSeconds: 1, SuccessThreshold: 1, FailureThreshold: 3},
		TerminationMessagePath:   corev1.TerminationMessagePathDefault,
		TerminationMessagePolicy: corev1.TerminationMessageReadFile,
		ImagePullPolicy:          corev1.PullIfNotPresent,
	}
}

// proxyContainer is the service-mesh sidecar: one image cluster-wide.
func proxyContainer(ns, tokenVolume string) corev1.Container {
	return corev1.Container{
		Name:  "proxy",
		Image: "registry.example.com/mesh/proxy:v1.31.2",
		Args:  []string{"proxy", "sidecar", "--domain", ns + ".svc.cluster.local", "--concurrency", "2"},
		Env: []corev1.EnvVar{
			fieldEnv("POD_NAME", "metadata.name"),
			fieldEnv("SERVICE_ACCOUNT", "spec.serviceAccountName"),
			{Name: "PROXY_CONFIG", Value: `{"holdApplicationUntilProxyStarts":true}`},
		},
		Ports: []corev1.ContainerPort{{Name: "http-envoy-prom", ContainerPort: 15090, Protocol: corev1.ProtocolTCP}},
		Resources: corev1.ResourceRequirements{
			Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("10m"), corev1.ResourceMemory: resource.MustParse("40Mi")},
			Limits:   corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("2"), corev1.ResourceMemory: resource.MustParse("1Gi")},
		},
		VolumeMounts:             []corev1.VolumeMount{serviceAccountMount(tokenVolume)},
		TerminationMessagePath:   corev1.TerminationMessagePathDefault,
		TerminationMessagePolicy: corev1.TerminationMessageReadFile,
		ImagePullPolicy:          corev1.PullIfNotPresent,
	}
}

// shipperContainer is the log shipper every third Deployment runs.
func shipperContainer(tokenVolume string) corev1.Container {
	return corev1.Container{
		Name:  "log-shipper",
		Image: "registry.example.com/observability/shipper:2.4.0",
		Env:   []corev1.EnvVar{{Name: "SHIP_TO", Value: "logs.observability.svc:24224"}},
		Resources: corev1.ResourceRequirements{
			Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("5m"), corev1.ResourceMemory: resource.MustParse("16Mi")},
		},
		VolumeMounts:             []corev1.VolumeMount{{Name: "varlog", MountPath: "/var/log"}, serviceAccountMount(tokenVolume)},
		TerminationMessagePath:   corev1.TerminationMessagePathDefault,
		TerminationMessagePolicy: corev1.TerminationMessageReadFile,
		ImagePullPolicy:          corev1.PullIfNotPresent,
	}
}

func fieldEnv(name, path string) corev1.EnvVar {
	return corev1.EnvVar{Name: name, ValueFrom: &corev1.EnvVarSource{FieldRef: &corev1.ObjectFieldSelector{APIVersion: "v1", FieldPath: path}}}
}

// runningStatus is the status a kubelet writes once every container of pod
// r runs and is ready: each transition at its own second after the Pod's
// start, each container started a second after the previous one.
func runningStatus(pod *corev1.Pod, r podRef) corev1.PodStatus {
	at := func(seconds int) metav1.Time {
		return metav1.NewTime(r.start.Add(time.Duration(seconds) * time.Second))
	}
	n := len(pod.Spec.Containers)
	podIP := fmt.Sprintf("10.%d.%d.%d", 64+r.i>>16&63, r.i>>8&255, r.i&255)
	hostIP := fmt.Sprintf("192.168.%d.%d", r.i%200/100, 10+r.i%200)
	st := corev1.PodStatus{
		Phase: corev1.PodRunning,
		Conditions: []corev1.PodCondition{
			{Type: corev1.PodReadyToStartContainers, Status: corev1.ConditionTrue, LastTransitionTime: at(2)},
			{Type: corev1.PodInitialized, Status: corev1.ConditionTrue, LastTransitionTime: at(1)},
			{Type: corev1.PodReady, Status: corev1.ConditionTrue, LastTransitionTime: at(n + 12)},
			{Type: corev1.ContainersReady, Status: corev1.ConditionTrue, LastTransitionTime: at(n + 12)},
			{Type: corev1.PodScheduled, Status: corev1.ConditionTrue, LastTransitionTime: at(0)},
		},
		HostIP:    hostIP,
		HostIPs:   []corev1.HostIP{{IP: hostIP}},
		PodIP:     podIP,
		PodIPs:    []corev1.PodIP{{IP: podIP}},
		StartTime: ptr(at(1)),
		QOSClass:  corev1.PodQOSBurstable,
	}
	for k, c := range pod.Spec.Containers {
		st.ContainerStatuses = append(st.ContainerStatuses, corev1.ContainerStatus{
			Name:         c.Name,
			State:        corev1.ContainerState{Running: &corev1.ContainerStateRunning{StartedAt: at(3 + k)}},
			Ready:        true,
			RestartCount: 0,
			Image:        c.Image,
			ImageID:      fmt.Sprintf("%s@sha256:%064x", c.Image, fnvOf(c.Image)),
			ContainerID:  fmt.Sprintf("containerd://%032x%032x", fnvOf(pod.Name), k),
			Started:      ptr(true),
		})
	}
	return st
}

func ptr[T any](v T) *T { return &v }
