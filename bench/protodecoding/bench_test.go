package protodecoding

import (
	"runtime"
	"testing"

	corev1 "k8s.io/api/core/v1"

	"github.com/informer-gen/informer-gen/runtime/compact"
	"github.com/informer-gen/informer-gen/runtime/protodecode"
	"github.com/informer-gen/informer-gen/runtime/protodecode/protodecodetest"
)

// BenchmarkDecodePodProto decodes 64 real-shaped Pods in turn from
// protobuf: with Pod.Unmarshal (runtime/protowatch without generated
// decoders), then the compaction walk the informer runs on it; with the
// generated decoder interning strings (protowatch's default), then the
// same walk (which compact.Decoded's handover runs on the stream's
// goroutine). Each table is warm after the first pass over the Pods, as
// an informer's is once it holds them. cpu-ns/op is the benchmark
// thread's CPU time per Pod, which the machine's load does not inflate
// as it does ns/op (as bench/decoding measures).
func BenchmarkDecodePodProto(b *testing.B) {
	pods := podProto(b, 64)
	fn := protodecodetest.Registered[corev1.Pod](b)
	run := func(name string, decode func(data []byte, tab *compact.Table)) {
		b.Run(name, func(b *testing.B) {
			tab := compact.NewTable()
			for _, p := range pods {
				decode(p, tab)
			}
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			b.ReportAllocs()
			start := threadCPU()
			for i := 0; b.Loop(); i++ {
				decode(pods[i%len(pods)], tab)
			}
			b.ReportMetric(float64((threadCPU()-start).Nanoseconds())/float64(b.N), "cpu-ns/op")
		})
	}
	must := func(err error) {
		if err != nil {
			b.Fatal(err)
		}
	}
	run("unmarshal", func(data []byte, _ *compact.Table) { must(new(corev1.Pod).Unmarshal(data)) })
	run("unmarshal+walk", func(data []byte, tab *compact.Table) {
		p := new(corev1.Pod)
		must(p.Unmarshal(data))
		tab.Object(p)
	})
	run("generated+intern", func(data []byte, tab *compact.Table) {
		must(protodecode.Unmarshal(data, new(corev1.Pod), fn, tab))
	})
	run("generated+intern+walk", func(data []byte, tab *compact.Table) {
		p := new(corev1.Pod)
		must(protodecode.Unmarshal(data, p, fn, tab))
		tab.Object(p)
	})
}
