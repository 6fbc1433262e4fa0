package cache

import (
	"runtime/metrics"
	"strconv"
	"sync/atomic"
	"testing"
	"time"
)

// BenchmarkRelistPeakHeap measures what a relist costs in heap: an
// informer with one handler caches 50,000 objects, then every object
// changes behind a compacted history, so the informer relists and stores
// the new list atomically. It reports the informer's steady heap (live,
// after GC, the in-process server's own objects subtracted) and the peak
// of the heap's object bytes sampled during the relist (garbage not yet
// collected included, as a process's memory sees it), as a ratio.
func BenchmarkRelistPeakHeap(b *testing.B) {
	const n = 50_000
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	heapObjects := func() uint64 {
		metrics.Read(sample)
		return sample[0].Value.Uint64()
	}
	for b.Loop() {
		srv := newModelServer()
		fill(srv, n)
		serverOnly := heapInUseBytes()
		h := &countingHandler{}
		inf := startInformer(b, srv, SharedIndexInformerOptions{}, func(s *sharedIndexInformer) { mustAdd(b, s, h, HandlerOptions{}) })
		for h.n.Load() < n {
			time.Sleep(time.Millisecond)
		}
		steady := heapInUseBytes() - serverOnly

		var peak atomic.Uint64
		stop := make(chan struct{})
		sampled := make(chan struct{})
		go func() {
			defer close(sampled)
			for {
				if v := heapObjects(); v > peak.Load() {
					peak.Store(v)
				}
				select {
				case <-stop:
					return
				case <-time.After(200 * time.Microsecond):
				}
			}
		}()
		srv.partition(func(p *partitionOps) {
			for i := range n {
				p.put("o"+strconv.Itoa(i), false)
			}
		})
		for h.n.Load() < 2*n {
			time.Sleep(time.Millisecond)
		}
		close(stop)
		<-sampled
		inf.stop(b)
		relist := peak.Load() - serverOnly
		b.ReportMetric(float64(steady)/n, "steady-B/obj")
		b.ReportMetric(float64(relist)/float64(steady), "relist-peak/steady")
	}
}
