package main

import (
	"fmt"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/informer-gen/informer-gen/runtime/compact"
)

// BenchmarkCompactFirstListOfBenchmarkPods walks walkedPods of the Pods
// this benchmark writes to the server, as the server returns them (with a
// uid, resourceVersion, creation time, node and Running status; without
// managedFields, which ours drops before compacting), decoded from
// protobuf, into a fresh table, each once: the compaction of ours' first
// list in isolation, on the same Pods as the real-server rows. It reports
// the time in the walks per Pod; run it with -benchtime=1x.
func BenchmarkCompactFirstListOfBenchmarkPods(b *testing.B) {
	const walkedPods = 20000
	src := benchmarkPodsProtobuf(b, walkedPods)
	for range b.N {
		pods := make([]*corev1.Pod, len(src))
		for i, raw := range src {
			pods[i] = new(corev1.Pod)
			if err := pods[i].Unmarshal(raw); err != nil {
				b.Fatal(err)
			}
		}
		tab := compact.NewTable()
		var walking time.Duration
		for _, p := range pods {
			start := time.Now()
			tab.Object(p)
			walking += time.Since(start)
		}
		b.ReportMetric(float64(walking.Nanoseconds())/walkedPods, "walk-ns/pod")
	}
}

// benchmarkPodsProtobuf returns the first n Pods of a population as the
// server would return them, without managedFields, in protobuf.
func benchmarkPodsProtobuf(b *testing.B, n int) [][]byte {
	b.Helper()
	pop := newPopulation(n, 50)
	out := make([][]byte, 0, n)
	for i := range n {
		r := pop.pod(i)
		p := podSpec(r)
		p.UID = types.UID(fmt.Sprintf("%08x-1111-4000-8000-%012x", i, i))
		p.ResourceVersion = fmt.Sprint(1000 + i)
		p.CreationTimestamp = metav1.NewTime(r.start)
		p.Spec.NodeName = fmt.Sprintf("node-%03d", i%200)
		p.Status = runningStatus(p, r)
		raw, err := p.Marshal()
		if err != nil {
			b.Fatal(err)
		}
		out = append(out, raw)
	}
	return out
}
