package decoding

import (
	"runtime"
	"testing"

	corev1 "k8s.io/api/core/v1"

	"github.com/informer-gen/informer-gen/runtime/compact"
	"github.com/informer-gen/informer-gen/runtime/jsondecode"
	"github.com/informer-gen/informer-gen/runtime/jsondecode/jsondecodetest"
)

// BenchmarkDecodePodCompact measures one watch event's decoding and
// compaction per op, on real-cluster-shaped Pods, each op's Pod or
// version never seen before, three ways: "plain",
// the generated decoder alone (an informer without compaction); "walk",
// the generated decoder interning, then the informer's compaction walk
// against the hint (today's path with compaction on); "compact", the
// generated decoder building the compact object (DecodeEventCompact, no
// walk after). "added": 2,560 distinct Pods, no hint (an initial list's
// events); "updated": 40 new versions of each of 64 cached Pods (a new
// resourceVersion and condition times, every third relabelled, every
// fifth's image changed), the cached version as the hint. It
// reports the thread's CPU time per op (cpu-ns/op) besides wall time:
//
//	go test -run '^$' -bench DecodePodCompact -benchmem -benchtime 2560x ./decoding
func BenchmarkDecodePodCompact(b *testing.B) {
	const n, versions = 64, 40
	fn := jsondecodetest.Registered[corev1.Pod](b)
	frame := func(doc []byte) []byte {
		return append(append([]byte(`{"type":"MODIFIED","object":`), doc...), '}')
	}
	// added: n*versions distinct Pods, each seen once; updated: n Pods,
	// then versions new versions of each, each seen once.
	fresh := podJSON(b, n*versions)
	updates := podVersions(&testing.T{}, n, versions)
	frames := map[*byte][]byte{} // each document's event, built before the timer starts
	for _, doc := range append(append([][]byte{}, fresh...), updates...) {
		frames[&doc[0]] = frame(doc)
	}
	type way func(tab *compact.Table, doc []byte, old *corev1.Pod) *corev1.Pod
	ways := []struct {
		name string
		run  way
	}{
		{"plain", func(_ *compact.Table, doc []byte, _ *corev1.Pod) *corev1.Pod {
			p := new(corev1.Pod)
			mustNil(b, jsondecode.Unmarshal(doc, p, fn, nil))
			return p
		}},
		{"walk", func(tab *compact.Table, doc []byte, old *corev1.Pod) *corev1.Pod {
			p := new(corev1.Pod)
			mustNil(b, jsondecode.Unmarshal(doc, p, fn, tab))
			var hint any
			if old != nil {
				hint = old
			}
			tab.TransformUpdate(p)(p, hint)
			return p
		}},
		{"compact", func(tab *compact.Table, doc []byte, old *corev1.Pod) *corev1.Pod {
			p := new(corev1.Pod)
			previous := func(any) any {
				if old != nil {
					return old
				}
				return nil
			}
			if _, ok := jsondecode.DecodeEventCompact(frames[&doc[0]], p, fn, tab, previous, 0); !ok {
				b.Fatal("not decoded")
			}
			return p
		}},
	}
	for _, update := range []bool{false, true} {
		for _, w := range ways {
			b.Run(map[bool]string{false: "added", true: "updated"}[update]+"/"+w.name, func(b *testing.B) {
				if b.N > n*versions {
					b.Fatalf("at most %d ops (-benchtime %dx)", n*versions, n*versions)
				}
				tab := compact.NewTable()
				cache := make([]*corev1.Pod, 0, n*versions)
				for i := range n { // the first versions, cached
					cache = append(cache, w.run(tab, updates[i], nil))
				}
				runtime.LockOSThread()
				defer runtime.UnlockOSThread()
				start := threadCPU()
				for i := 0; b.Loop(); i++ {
					if update {
						k := i % n
						cache[k] = w.run(tab, updates[n+i], cache[k])
					} else {
						cache = append(cache, w.run(tab, fresh[i], nil))
					}
				}
				b.ReportMetric(float64((threadCPU()-start).Nanoseconds())/float64(b.N), "cpu-ns/op")
				runtime.KeepAlive(cache)
			})
		}
	}
}
