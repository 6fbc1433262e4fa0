package compaction_test

import (
	"fmt"
	"reflect"
	"runtime"
	"testing"
	"time"
	"unsafe"

	corev1 "k8s.io/api/core/v1"
	apiequality "k8s.io/apimachinery/pkg/api/equality"

	_ "github.com/informer-gen/informer-gen/internal/corev1gen/informers/externalversions/core/v1" // registers the core/v1 walks
	"github.com/informer-gen/informer-gen/runtime/compact"
)

// Compacted Pods are equal to the decoded ones, to reflect.DeepEqual and
// to apimachinery's semantic equality.
func TestCompactedPodsEqualTheirDecoding(t *testing.T) {
	src := podJSON(t, 300)
	got, want := decodePods(t, src), decodePods(t, src)
	tab := compact.NewTable()
	for _, p := range got {
		tab.Object(p)
	}
	for i := range got {
		if !reflect.DeepEqual(got[i], want[i]) {
			t.Fatalf("pod %d: compacted %v\nwant %v", i, got[i], want[i])
		}
		if !apiequality.Semantic.DeepEqual(got[i], want[i]) {
			t.Fatalf("pod %d: compacted pod not semantically equal", i)
		}
	}
}

// The generated walk (not the reflective fallback, which shares string
// maps and slices only) is what compacts a Pod: the parts that repeat
// across a ReplicaSet's Pods and across ReplicaSets are shared, the parts
// unique to a Pod are not.
func TestGeneratedPodWalkSharesWhatRepeats(t *testing.T) {
	pods := decodePods(t, podJSON(t, 40))
	tab := compact.NewTable()
	// Values are shared from their second sighting on, and the admission
	// filter that remembers first sightings is lossy (a slot can be taken
	// by another value before the second sighting): a second pass, as a
	// relist makes, finds every repeated value in the table.
	for range 2 {
		for _, p := range pods {
			tab.Object(p)
		}
	}
	a, b := pods[1], pods[len(pods)-1] // different ReplicaSets
	ca, cb := &a.Spec.Containers[0], &b.Spec.Containers[0]
	for _, tt := range []struct {
		part   string
		shared bool
	}{
		{"args", unsafe.SliceData(ca.Args) == unsafe.SliceData(cb.Args)},
		{"ports", unsafe.SliceData(ca.Ports) == unsafe.SliceData(cb.Ports)},
		{"liveness probe", ca.LivenessProbe == cb.LivenessProbe},
		{"tolerations", unsafe.SliceData(a.Spec.Tolerations) == unsafe.SliceData(b.Spec.Tolerations)},
		{"projected volume source", a.Spec.Volumes[0].Projected == b.Spec.Volumes[0].Projected},
	} {
		if !tt.shared {
			t.Errorf("%s of two Pods are equal but not shared", tt.part)
		}
	}
	if unsafe.SliceData(a.Spec.Volumes) == unsafe.SliceData(b.Spec.Volumes) {
		t.Error("volumes named kube-api-access-<random> differ per Pod, yet are shared")
	}
}

// The table drops what no Pod holds any more.
func TestTableShrinksAfterPodsAreDeleted(t *testing.T) {
	tab := compact.NewTable()
	pods := decodePods(t, podJSON(t, 500))
	for _, p := range pods {
		tab.Object(p)
	}
	full := tab.Len()
	pods = nil
	runtime.GC()
	runtime.GC()
	tab.Sweep()
	if left := tab.Len(); left > full/10 {
		t.Errorf("table holds %d of its %d values after every Pod was dropped", left, full)
	}
	runtime.KeepAlive(pods)
}

// BenchmarkCompactPod is the walk's cost per Pod: one op compacts one
// freshly decoded Pod into a table holding the Pods before it. cpu-ns/pod
// is the benchmark thread's CPU time per Pod (GC assists included,
// background GC workers not), steadier than ns/op on a shared machine.
func BenchmarkCompactPod(b *testing.B) {
	const batch = 1000
	src := podJSON(b, batch)
	tab := compact.NewTable()
	keep := make([]*corev1.Pod, 0, batch)
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var cpu time.Duration
	for done := 0; done < b.N; {
		b.StopTimer()
		pods := decodePods(b, src)
		keep = keep[:0]
		b.StartTimer()
		start := threadCPU()
		for _, p := range pods[:min(batch, b.N-done)] {
			tab.Object(p)
			keep = append(keep, p)
			done++
		}
		cpu += threadCPU() - start
	}
	b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N), "cpu-ns/pod")
	runtime.KeepAlive(keep)
}

// BenchmarkLiveHeapPerPod reports the live heap one cached Pod costs,
// decoded as is and compacted, after two collections (run with
// -benchtime=1x; each op measures podCount Pods).
func BenchmarkLiveHeapPerPod(b *testing.B) {
	const podCount = 20000
	src := podJSON(b, podCount)
	for _, compacted := range []bool{false, true} {
		b.Run(fmt.Sprintf("compacted=%v", compacted), func(b *testing.B) {
			for range b.N {
				b.ReportMetric(liveHeapPerObject(b, podCount, func() any {
					pods := decodePods(b, src)
					if compacted {
						tab := compact.Default()
						for _, p := range pods {
							tab.Object(p)
						}
					}
					return pods
				}), "B/pod")
			}
		})
	}
}

// liveHeapPerObject returns the live heap make's result holds, per object.
func liveHeapPerObject(b *testing.B, n int, make func() any) float64 {
	b.Helper()
	var before, after runtime.MemStats
	runtime.GC()
	runtime.GC()
	runtime.ReadMemStats(&before)
	kept := make()
	runtime.GC()
	runtime.GC()
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(kept)
	return float64(int64(after.HeapAlloc)-int64(before.HeapAlloc)) / float64(n)
}
