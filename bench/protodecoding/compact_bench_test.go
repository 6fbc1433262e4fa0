package protodecoding

import (
	"runtime"
	"testing"

	corev1 "k8s.io/api/core/v1"

	"github.com/informer-gen/informer-gen/runtime/compact"
	"github.com/informer-gen/informer-gen/runtime/protodecode"
	"github.com/informer-gen/informer-gen/runtime/protodecode/protodecodetest"
)

// BenchmarkDecodePodProtoCompact measures, per watch event, the three
// ways a Pod from protobuf reaches the informer compact, each op a Pod
// or version never seen before, on the same bytes: "unmarshal+walk" is
// Pod.Unmarshal then the informer's compaction walk (ours without
// generated decoders), "generated+walk" the generated decoder interning
// then the same walk (before), "compact" the generated decoder building
// the compact object (now). "added" Pods are new to the informer (no
// hint); "updated" ones are new versions of a cached Pod (a new
// resourceVersion and condition times, every third relabelled, every
// fifth's image changed), the cached version as the hint. It reports
// the thread's CPU time per op (cpu-ns/op) besides wall time:
//
//	go test -run '^$' -bench DecodePodProtoCompact -benchmem -benchtime 2560x ./protodecoding
func BenchmarkDecodePodProtoCompact(b *testing.B) {
	const n, versions = 64, 40
	fn := protodecodetest.Registered[corev1.Pod](b)
	fresh := podProto(b, n*versions)
	updates := podVersions(b, n, versions)
	must := func(err error) {
		if err != nil {
			b.Fatal(err)
		}
	}
	walk := func(tab *compact.Table, p, old *corev1.Pod) {
		var hint any
		if old != nil {
			hint = old
		}
		tab.TransformUpdate(p)(p, hint)
	}
	ways := []struct {
		name string
		run  func(tab *compact.Table, data []byte, old *corev1.Pod) *corev1.Pod
	}{
		{"unmarshal+walk", func(tab *compact.Table, data []byte, old *corev1.Pod) *corev1.Pod {
			p := new(corev1.Pod)
			must(p.Unmarshal(data))
			walk(tab, p, old)
			return p
		}},
		{"generated+walk", func(tab *compact.Table, data []byte, old *corev1.Pod) *corev1.Pod {
			p := new(corev1.Pod)
			must(protodecode.Unmarshal(data, p, fn, tab))
			walk(tab, p, old)
			return p
		}},
		{"compact", func(tab *compact.Table, data []byte, old *corev1.Pod) *corev1.Pod {
			p := new(corev1.Pod)
			previous := func(any) any {
				if old != nil {
					return old
				}
				return nil
			}
			must(protodecode.DecodeCompact(data, p, fn, tab, previous, 0))
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
				b.ReportAllocs()
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
