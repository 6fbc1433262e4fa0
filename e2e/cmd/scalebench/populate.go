package main

import (
	"context"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"log"
	"sync"
	"sync/atomic"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/client-go/kubernetes"
)

// The field managers that write a Pod in a real cluster, in order.
const (
	controllerManager = "kube-controller-manager"
	scheduler         = "kube-scheduler"
	kubelet           = "kubelet"
)

// replicas is the size of each fake ReplicaSet: consecutive pods of a
// namespace share a ReplicaSet, its labels and its owner reference.
const replicas = 10

// population is the set of Pods the benchmark creates: n pods spread over
// the namespaces round-robin.
type population struct {
	n          int
	namespaces []string
}

func newPopulation(n, namespaces int) population {
	p := population{n: n}
	for i := range namespaces {
		p.namespaces = append(p.namespaces, fmt.Sprintf("scale-%02d", i))
	}
	return p
}

// ref returns the namespace and name of pod i.
func (p population) ref(i int) (namespace, name string) {
	ns := p.namespaces[i%len(p.namespaces)]
	j := i / len(p.namespaces)
	return ns, fmt.Sprintf("%s-%s-%05d", appName(j), templateHash(ns, j/replicas), j)
}

func appName(j int) string { return fmt.Sprintf("svc-%03d", j/replicas/5) }

// templateHash is a stable stand-in for a Deployment's pod-template-hash.
func templateHash(ns string, rs int) string {
	h := fnv.New32a()
	fmt.Fprintf(h, "%s/%d", ns, rs)
	return fmt.Sprintf("%08x", h.Sum32())[:8]
}

// create makes the namespaces and every pod as the three components of a
// cluster would: the ReplicaSet controller creates it, the scheduler marks
// it unschedulable at first and then binds it to a node, the kubelet writes
// its status. workers requests run at
// once; progress is logged every few seconds.
func (p population) create(ctx context.Context, cs kubernetes.Interface, workers int) error {
	for _, ns := range p.namespaces {
		_, err := cs.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}, metav1.CreateOptions{})
		if err != nil && !apierrors.IsAlreadyExists(err) {
			return err
		}
	}
	var (
		next, done atomic.Int64
		firstErr   error
		errOnce    sync.Once
		wg         sync.WaitGroup
	)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	start := time.Now()
	progress := time.NewTicker(5 * time.Second)
	defer progress.Stop()
	finished := make(chan struct{})
	go func() {
		for {
			select {
			case <-finished:
				return
			case <-progress.C:
				d := done.Load()
				log.Printf("populate: %d/%d pods (%.0f pods/s)", d, p.n, float64(d)/time.Since(start).Seconds())
			}
		}
	}()
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= p.n || ctx.Err() != nil {
					return
				}
				if err := p.createOne(ctx, cs, i); err != nil {
					errOnce.Do(func() { firstErr = err; cancel() })
					return
				}
				done.Add(1)
			}
		}()
	}
	wg.Wait()
	close(finished)
	if firstErr != nil {
		return firstErr
	}
	log.Printf("populate: %d pods in %d namespaces in %v", p.n, len(p.namespaces), time.Since(start).Round(time.Second))
	return nil
}

// createOne writes pod i with its three managers.
func (p population) createOne(ctx context.Context, cs kubernetes.Interface, i int) error {
	ns, name := p.ref(i)
	pods := cs.CoreV1().Pods(ns)
	created, err := pods.Create(ctx, podSpec(ns, name, i/len(p.namespaces)), metav1.CreateOptions{FieldManager: controllerManager})
	if err != nil {
		return fmt.Errorf("create pod %s/%s: %w", ns, name, err)
	}
	// The scheduler first found no node (its one write of the pod that
	// leaves a managedFields entry: the PodScheduled condition, status
	// subresource), then bound it; the binding subresource itself records
	// no manager.
	unschedulable, err := json.Marshal(map[string]any{"status": map[string]any{"conditions": []corev1.PodCondition{{
		Type: corev1.PodScheduled, Status: corev1.ConditionFalse, Reason: corev1.PodReasonUnschedulable,
		Message:            "0/200 nodes are available: 200 Insufficient cpu. preemption: 0/200 nodes are available: 200 No preemption victims found for incoming pod.",
		LastTransitionTime: metav1.NewTime(time.Now().Truncate(time.Second)),
	}}}})
	if err != nil {
		return err
	}
	if _, err := pods.Patch(ctx, name, types.StrategicMergePatchType, unschedulable, metav1.PatchOptions{FieldManager: scheduler}, "status"); err != nil {
		return fmt.Errorf("PodScheduled condition of pod %s/%s: %w", ns, name, err)
	}
	node := fmt.Sprintf("node-%03d", i%200)
	if err := pods.Bind(ctx, &corev1.Binding{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns, UID: created.UID},
		Target:     corev1.ObjectReference{Kind: "Node", Name: node},
	}, metav1.CreateOptions{FieldManager: scheduler}); err != nil {
		return fmt.Errorf("bind pod %s/%s: %w", ns, name, err)
	}
	patch, err := json.Marshal(map[string]any{"status": runningStatus(created, i)})
	if err != nil {
		return err
	}
	if _, err := pods.Patch(ctx, name, types.StrategicMergePatchType, patch, metav1.PatchOptions{FieldManager: kubelet}, "status"); err != nil {
		return fmt.Errorf("status of pod %s/%s: %w", ns, name, err)
	}
	return nil
}

// podSpec is pod j of namespace ns as a ReplicaSet controller creates it
// from a Deployment's template: labels, owner reference, two or three
// containers with env, resources, ports, probes and volume mounts, and the
// volumes the ServiceAccount admission plugin would add.
func podSpec(ns, name string, j int) *corev1.Pod {
	app := appName(j)
	hash := templateHash(ns, j/replicas)
	rsName := app + "-" + hash
	mounts := []corev1.VolumeMount{
		{Name: "config", MountPath: "/etc/" + app, ReadOnly: true},
		{Name: "kube-api-access", MountPath: "/var/run/secrets/kubernetes.io/serviceaccount", ReadOnly: true},
	}
	env := []corev1.EnvVar{
		{Name: "POD_NAME", ValueFrom: &corev1.EnvVarSource{FieldRef: &corev1.ObjectFieldSelector{APIVersion: "v1", FieldPath: "metadata.name"}}},
		{Name: "POD_NAMESPACE", ValueFrom: &corev1.EnvVarSource{FieldRef: &corev1.ObjectFieldSelector{APIVersion: "v1", FieldPath: "metadata.namespace"}}},
		{Name: "POD_IP", ValueFrom: &corev1.EnvVarSource{FieldRef: &corev1.ObjectFieldSelector{APIVersion: "v1", FieldPath: "status.podIP"}}},
		{Name: "LOG_LEVEL", Value: "info"},
		{Name: "GOMAXPROCS", Value: "2"},
		{Name: "UPSTREAM_URL", Value: fmt.Sprintf("http://%s-backend.%s.svc.cluster.local:8080", app, ns)},
	}
	containers := []corev1.Container{
		{
			Name:  "app",
			Image: fmt.Sprintf("registry.example.com/team/%s:v1.%d.3", app, j%7),
			Args:  []string{"--listen=:8080", "--metrics=:9090", "--config=/etc/" + app + "/config.yaml"},
			Env:   env,
			Ports: []corev1.ContainerPort{{Name: "http", ContainerPort: 8080, Protocol: corev1.ProtocolTCP}, {Name: "metrics", ContainerPort: 9090, Protocol: corev1.ProtocolTCP}},
			Resources: corev1.ResourceRequirements{
				Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("100m"), corev1.ResourceMemory: resource.MustParse("128Mi")},
				Limits:   corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("1"), corev1.ResourceMemory: resource.MustParse("512Mi")},
			},
			VolumeMounts:             mounts,
			ReadinessProbe:           &corev1.Probe{ProbeHandler: corev1.ProbeHandler{HTTPGet: &corev1.HTTPGetAction{Path: "/readyz", Port: intstr.FromString("http"), Scheme: corev1.URISchemeHTTP}}, PeriodSeconds: 10, TimeoutSeconds: 1, SuccessThreshold: 1, FailureThreshold: 3},
			LivenessProbe:            &corev1.Probe{ProbeHandler: corev1.ProbeHandler{HTTPGet: &corev1.HTTPGetAction{Path: "/healthz", Port: intstr.FromString("http"), Scheme: corev1.URISchemeHTTP}}, InitialDelaySeconds: 10, PeriodSeconds: 10, TimeoutSeconds: 1, SuccessThreshold: 1, FailureThreshold: 3},
			TerminationMessagePath:   corev1.TerminationMessagePathDefault,
			TerminationMessagePolicy: corev1.TerminationMessageReadFile,
			ImagePullPolicy:          corev1.PullIfNotPresent,
		},
		{
			Name:  "proxy",
			Image: "registry.example.com/mesh/proxy:v1.31.2",
			Args:  []string{"proxy", "sidecar", "--domain", ns + ".svc.cluster.local", "--concurrency", "2"},
			Env: []corev1.EnvVar{
				{Name: "POD_NAME", ValueFrom: &corev1.EnvVarSource{FieldRef: &corev1.ObjectFieldSelector{APIVersion: "v1", FieldPath: "metadata.name"}}},
				{Name: "SERVICE_ACCOUNT", ValueFrom: &corev1.EnvVarSource{FieldRef: &corev1.ObjectFieldSelector{APIVersion: "v1", FieldPath: "spec.serviceAccountName"}}},
				{Name: "PROXY_CONFIG", Value: `{"holdApplicationUntilProxyStarts":true}`},
			},
			Ports: []corev1.ContainerPort{{Name: "http-envoy-prom", ContainerPort: 15090, Protocol: corev1.ProtocolTCP}},
			Resources: corev1.ResourceRequirements{
				Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("10m"), corev1.ResourceMemory: resource.MustParse("40Mi")},
				Limits:   corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("2"), corev1.ResourceMemory: resource.MustParse("1Gi")},
			},
			VolumeMounts:             mounts[1:],
			TerminationMessagePath:   corev1.TerminationMessagePathDefault,
			TerminationMessagePolicy: corev1.TerminationMessageReadFile,
			ImagePullPolicy:          corev1.PullIfNotPresent,
		},
	}
	if j%3 == 0 {
		containers = append(containers, corev1.Container{
			Name:  "log-shipper",
			Image: "registry.example.com/observability/shipper:2.4.0",
			Env:   []corev1.EnvVar{{Name: "SHIP_TO", Value: "logs.observability.svc:24224"}},
			Resources: corev1.ResourceRequirements{
				Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("5m"), corev1.ResourceMemory: resource.MustParse("16Mi")},
			},
			VolumeMounts:             []corev1.VolumeMount{{Name: "varlog", MountPath: "/var/log"}},
			TerminationMessagePath:   corev1.TerminationMessagePathDefault,
			TerminationMessagePolicy: corev1.TerminationMessageReadFile,
			ImagePullPolicy:          corev1.PullIfNotPresent,
		})
	}
	expiry := int64(3607)
	return &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{
			Name:      name,
			Namespace: ns,
			Labels:    map[string]string{"app": app, "pod-template-hash": hash, "app.kubernetes.io/part-of": "scalebench"},
			Annotations: map[string]string{
				"kubectl.kubernetes.io/default-container": "app",
				"prometheus.io/scrape":                    "true",
				"prometheus.io/port":                      "9090",
			},
			OwnerReferences: []metav1.OwnerReference{{
				APIVersion: "apps/v1", Kind: "ReplicaSet", Name: rsName,
				UID:        types.UID(fmt.Sprintf("%08x-0000-4000-8000-%012x", j/replicas, fnvOf(ns))),
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
				{Name: "kube-api-access", VolumeSource: corev1.VolumeSource{Projected: &corev1.ProjectedVolumeSource{
					DefaultMode: ptr(int32(0o644)),
					Sources: []corev1.VolumeProjection{
						{ServiceAccountToken: &corev1.ServiceAccountTokenProjection{Path: "token", ExpirationSeconds: &expiry}},
						{ConfigMap: &corev1.ConfigMapProjection{LocalObjectReference: corev1.LocalObjectReference{Name: "kube-root-ca.crt"}, Items: []corev1.KeyToPath{{Key: "ca.crt", Path: "ca.crt"}}}},
						{DownwardAPI: &corev1.DownwardAPIProjection{Items: []corev1.DownwardAPIVolumeFile{{Path: "namespace", FieldRef: &corev1.ObjectFieldSelector{APIVersion: "v1", FieldPath: "metadata.namespace"}}}}},
					},
				}}},
			},
		},
	}
}

// runningStatus is the status a kubelet writes once every container of pod
// runs and is ready.
func runningStatus(pod *corev1.Pod, i int) corev1.PodStatus {
	now := metav1.NewTime(time.Now().Truncate(time.Second))
	podIP := fmt.Sprintf("10.%d.%d.%d", 64+i>>16&63, i>>8&255, i&255)
	hostIP := fmt.Sprintf("192.168.%d.%d", i%200/250, 10+i%200)
	st := corev1.PodStatus{
		Phase: corev1.PodRunning,
		Conditions: []corev1.PodCondition{
			{Type: corev1.PodReadyToStartContainers, Status: corev1.ConditionTrue, LastTransitionTime: now},
			{Type: corev1.PodInitialized, Status: corev1.ConditionTrue, LastTransitionTime: now},
			{Type: corev1.PodReady, Status: corev1.ConditionTrue, LastTransitionTime: now},
			{Type: corev1.ContainersReady, Status: corev1.ConditionTrue, LastTransitionTime: now},
			{Type: corev1.PodScheduled, Status: corev1.ConditionTrue, LastTransitionTime: now},
		},
		HostIP:    hostIP,
		HostIPs:   []corev1.HostIP{{IP: hostIP}},
		PodIP:     podIP,
		PodIPs:    []corev1.PodIP{{IP: podIP}},
		StartTime: &now,
		QOSClass:  corev1.PodQOSBurstable,
	}
	for k, c := range pod.Spec.Containers {
		st.ContainerStatuses = append(st.ContainerStatuses, corev1.ContainerStatus{
			Name:         c.Name,
			State:        corev1.ContainerState{Running: &corev1.ContainerStateRunning{StartedAt: now}},
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

func fnvOf(s string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(s))
	return h.Sum64()
}

func ptr[T any](v T) *T { return &v }
