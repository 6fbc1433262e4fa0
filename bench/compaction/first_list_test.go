package compaction_test

import (
	"encoding/json"
	"runtime"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"

	"github.com/informer-gen/informer-gen/runtime/compact"
)

// BenchmarkCompactPodFirstList compacts a first list as an informer does:
// firstListPods distinct Pods into a fresh table, each once, in the order
// received, so the table grows with them, where BenchmarkCompactPod walks
// the same 1,000 Pods into a table that already holds them. "decoded
// before" walks Pods decoded in advance; "decoded alongside" has another
// goroutine decode each Pod and hand it over on an unbuffered channel, as
// client-go's watch decoder hands events to the reflector: the walk then
// reads memory another core just wrote, while the decoder runs beside it
// and its garbage keeps the collector busy. It reports the time spent in
// the walks per Pod (wall time around each walk, which on a quiet machine
// is the walk's CPU: the channel's hand-offs are not in it); run it with
// -benchtime=1x (one first list).
func BenchmarkCompactPodFirstList(b *testing.B) {
	const firstListPods = 20000
	src := podJSON(b, firstListPods)
	for _, tc := range []struct {
		name string
		feed func(b *testing.B, src [][]byte) <-chan *corev1.Pod
	}{
		{"decoded before", feedDecoded},
		{"decoded alongside", feedDecoding},
	} {
		b.Run(tc.name, func(b *testing.B) {
			var walking time.Duration
			for range b.N {
				walking += compactFirstList(tc.feed(b, src))
			}
			b.ReportMetric(float64(walking.Nanoseconds())/float64(b.N*firstListPods), "walk-ns/pod")
		})
	}
}

// compactFirstList walks every Pod of pods into a fresh table, keeping
// them, and returns the time the walks took.
func compactFirstList(pods <-chan *corev1.Pod) time.Duration {
	tab := compact.NewTable()
	var (
		keep    []*corev1.Pod
		walking time.Duration
	)
	for p := range pods {
		start := time.Now()
		tab.Object(p)
		walking += time.Since(start)
		keep = append(keep, p)
	}
	runtime.KeepAlive(keep)
	return walking
}

// feedDecoded decodes every Pod of src first, then hands them over.
func feedDecoded(b *testing.B, src [][]byte) <-chan *corev1.Pod {
	pods := decodePods(b, src)
	ch := make(chan *corev1.Pod, len(pods))
	for _, p := range pods {
		ch <- p
	}
	close(ch)
	return ch
}

// feedDecoding decodes the Pods of src one by one on a goroutine of its
// own and hands each over as soon as it is decoded.
func feedDecoding(b *testing.B, src [][]byte) <-chan *corev1.Pod {
	ch := make(chan *corev1.Pod)
	go func() {
		defer close(ch)
		for _, raw := range src {
			p := new(corev1.Pod)
			if err := json.Unmarshal(raw, p); err != nil {
				b.Error(err) // Fatal would end this goroutine, not the benchmark
				return
			}
			ch <- p
		}
	}()
	return ch
}
