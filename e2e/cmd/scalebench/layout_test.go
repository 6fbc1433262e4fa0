package main

import (
	"reflect"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// shapePopulation is big enough to draw every ReplicaSet size.
var shapePopulation = newPopulation(3000, 5)

// withoutPodIdentity returns pod's spec with what is the Pod's own (its
// name and kube-api-access volume) blanked, so that Pods of one ReplicaSet
// compare equal.
func withoutPodIdentity(pod *corev1.Pod) corev1.PodSpec {
	spec := *pod.DeepCopy()
	for i := range spec.Spec.Volumes {
		if strings.HasPrefix(spec.Spec.Volumes[i].Name, "kube-api-access-") {
			spec.Spec.Volumes[i].Name = "kube-api-access"
		}
	}
	for i := range spec.Spec.Containers {
		for k := range spec.Spec.Containers[i].VolumeMounts {
			if strings.HasPrefix(spec.Spec.Containers[i].VolumeMounts[k].Name, "kube-api-access-") {
				spec.Spec.Containers[i].VolumeMounts[k].Name = "kube-api-access"
			}
		}
	}
	return spec.Spec
}

func TestPopulationIsDeterministic(t *testing.T) {
	again := newPopulation(3000, 5)
	for i := range shapePopulation.n {
		a, b := shapePopulation.pod(i), again.pod(i)
		if a != b {
			t.Fatalf("pod %d placed as %+v, then as %+v", i, a, b)
		}
		if !reflect.DeepEqual(podSpec(a), podSpec(b)) {
			t.Fatalf("pod %d has two different specs", i)
		}
	}
}

func TestEveryPodHasItsOwnServiceAccountVolumeMountedInEveryContainer(t *testing.T) {
	names, volumes := map[string]bool{}, map[string]bool{}
	for i := range shapePopulation.n {
		r := shapePopulation.pod(i)
		pod := podSpec(r)
		key := r.namespace + "/" + r.name
		if names[key] {
			t.Fatalf("pod %d: name %s used twice", i, key)
		}
		names[key] = true
		var token string
		for _, v := range pod.Spec.Volumes {
			if strings.HasPrefix(v.Name, "kube-api-access-") && v.Projected != nil && len(v.Projected.Sources) == 3 {
				token = v.Name
			}
		}
		if len(token) != len("kube-api-access-")+5 {
			t.Fatalf("pod %s: no kube-api-access-<5 chars> projected volume of 3 sources in %v", key, pod.Spec.Volumes)
		}
		if volumes[key+token] {
			t.Fatalf("pod %s: volume %s used twice in its namespace", key, token)
		}
		volumes[key+token] = true
		for _, c := range pod.Spec.Containers {
			mounted := false
			for _, m := range c.VolumeMounts {
				mounted = mounted || m.Name == token && m.MountPath == serviceAccountMountPath
			}
			if !mounted {
				t.Fatalf("pod %s: container %s does not mount %s", key, c.Name, token)
			}
		}
	}
}

func TestPodsOfAReplicaSetShareTheirTemplateAndDifferInTimes(t *testing.T) {
	sizes := map[int]int{}      // ReplicaSet size -> ReplicaSets of that size
	members := map[string]int{} // namespace/rs -> pods
	template := map[string]corev1.PodSpec{}
	starts := map[metav1.Time]bool{}
	for i := range shapePopulation.n {
		r := shapePopulation.pod(i)
		pod := podSpec(r)
		rs := replicaSetName(r.namespace, r.rs)
		members[r.namespace+"/"+rs]++
		spec := withoutPodIdentity(pod)
		if first, ok := template[rs]; ok && !reflect.DeepEqual(first, spec) {
			t.Fatalf("pod %s/%s differs from the first pod of its ReplicaSet %s beyond its name and volume", r.namespace, r.name, rs)
		}
		template[rs] = spec
		st := runningStatus(pod, r)
		starts[st.ContainerStatuses[0].State.Running.StartedAt] = true
	}
	for _, n := range members {
		sizes[n]++
	}
	for _, want := range []int{1, 2, 3, 5, 10, 30} {
		if sizes[want] == 0 {
			t.Errorf("no ReplicaSet of %d pods among %v", want, sizes)
		}
	}
	if len(starts) < shapePopulation.n*9/10 {
		t.Errorf("%d distinct container start times among %d pods, want at least 90%% distinct", len(starts), shapePopulation.n)
	}
	images := map[string]bool{}
	for _, spec := range template {
		images[spec.Containers[0].Image] = true
	}
	if len(images) < len(template)*9/10 {
		t.Errorf("%d app images for %d ReplicaSets, want about one each", len(images), len(template))
	}
}
