package compaction_test

import (
	"encoding/json"
	"reflect"
	"runtime"
	"testing"
	"time"
	"unsafe"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/informer-gen/informer-gen/runtime/compact"
)

// podChanges are the changes a watch event brings to a Pod, as the
// kubelet and controllers make them.
var podChanges = []struct {
	name   string
	change func(p *corev1.Pod)
	// changed are the parts the change touches: the update walk may not
	// take them from the old version.
	changed func(p *corev1.Pod) unsafe.Pointer
}{
	{
		name: "status condition and resourceVersion",
		change: func(p *corev1.Pod) {
			p.ResourceVersion += "1"
			p.Status.Conditions[2].LastTransitionTime = metav1.NewTime(p.Status.Conditions[2].LastTransitionTime.Add(time.Minute))
		},
		changed: func(p *corev1.Pod) unsafe.Pointer { return unsafe.Pointer(unsafe.SliceData(p.Status.Conditions)) },
	},
	{
		name:    "label",
		change:  func(p *corev1.Pod) { p.Labels["rollout"] = "canary" },
		changed: func(p *corev1.Pod) unsafe.Pointer { return *(*unsafe.Pointer)(unsafe.Pointer(&p.Labels)) },
	},
	{
		name:    "container image",
		change:  func(p *corev1.Pod) { p.Spec.Containers[0].Image += "-patched" },
		changed: func(p *corev1.Pod) unsafe.Pointer { return unsafe.Pointer(unsafe.SliceData(p.Spec.Containers)) },
	},
}

// A Pod compacted as the update of its older, compact version equals its
// decoding, shares every part the change did not touch with the old
// version, and does not share the part it touched.
func TestUpdateWalkTakesTheUnchangedPartsOfTheOldVersion(t *testing.T) {
	for _, tt := range podChanges {
		t.Run(tt.name, func(t *testing.T) {
			src := podJSON(t, 2)
			tab := compact.NewTable()
			old := decodePods(t, src)[0]
			tab.Object(old)
			fresh := reencode(t, old, tt.change)
			got, want := decodePod(t, fresh), decodePod(t, fresh)
			tab.TransformUpdate(got)(got, old)

			if !reflect.DeepEqual(got, want) {
				t.Fatalf("updated Pod differs from its decoding:\n got %v\nwant %v", got, want)
			}
			if tt.changed(got) == tt.changed(old) {
				t.Errorf("the changed part is the old version's")
			}
			for _, part := range []struct {
				name     string
				got, old unsafe.Pointer
			}{
				{"tolerations", unsafe.Pointer(unsafe.SliceData(got.Spec.Tolerations)), unsafe.Pointer(unsafe.SliceData(old.Spec.Tolerations))},
				{"volumes", unsafe.Pointer(unsafe.SliceData(got.Spec.Volumes)), unsafe.Pointer(unsafe.SliceData(old.Spec.Volumes))},
				{"owner references", unsafe.Pointer(unsafe.SliceData(got.OwnerReferences)), unsafe.Pointer(unsafe.SliceData(old.OwnerReferences))},
				{"name", unsafe.Pointer(unsafe.StringData(got.Name)), unsafe.Pointer(unsafe.StringData(old.Name))},
				{"container statuses", unsafe.Pointer(unsafe.SliceData(got.Status.ContainerStatuses)), unsafe.Pointer(unsafe.SliceData(old.Status.ContainerStatuses))},
			} {
				if part.got != part.old {
					t.Errorf("%s: unchanged, yet not the old version's", part.name)
				}
			}
		})
	}
}

// Compacting an object as the update of itself writes nothing (the cached
// object is read by others meanwhile; run with -race).
func TestUpdateWalkOfAnObjectAgainstItselfWritesNothing(t *testing.T) {
	tab := compact.NewTable()
	pod := decodePods(t, podJSON(t, 1))[0]
	tab.Object(pod)
	update := tab.TransformUpdate(pod)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for range 100 {
			_ = pod.Spec.Containers[0].Image + pod.Labels["team"]
		}
	}()
	for range 100 {
		update(pod, pod)
	}
	<-done
}

// reencode returns the JSON of a copy of p changed by change.
func reencode(t *testing.T, p *corev1.Pod, change func(*corev1.Pod)) []byte {
	t.Helper()
	c := p.DeepCopy()
	change(c)
	b, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func decodePod(t testing.TB, b []byte) *corev1.Pod {
	t.Helper()
	return decodePods(t, [][]byte{b})[0]
}

// BenchmarkCompactPodUpdate is the update walk's cost per watch event:
// one op compacts a freshly decoded Pod whose status condition and
// resourceVersion changed, against its cached, compact old version
// (BenchmarkCompactPod is the cost without the old version).
func BenchmarkCompactPodUpdate(b *testing.B) {
	const batch = 1000
	src := podJSON(b, batch)
	tab := compact.NewTable()
	olds := decodePods(b, src)
	for _, p := range olds {
		tab.Object(p)
	}
	changed := make([][]byte, batch)
	for i, p := range olds {
		c := p.DeepCopy()
		podChanges[0].change(c)
		var err error
		if changed[i], err = json.Marshal(c); err != nil {
			b.Fatal(err)
		}
	}
	update := tab.TransformUpdate(olds[0])
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var cpu time.Duration
	for done := 0; done < b.N; {
		b.StopTimer()
		pods := decodePods(b, changed)
		b.StartTimer()
		start := threadCPU()
		for i, p := range pods[:min(batch, b.N-done)] {
			update(p, olds[i])
			done++
		}
		cpu += threadCPU() - start
	}
	b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N), "cpu-ns/pod")
}
