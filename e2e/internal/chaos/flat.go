package chaos

import (
	"context"
	"fmt"
	"runtime"
)

// sample is one process's live heap and goroutines at a checkpoint.
type sample struct {
	label      string
	heap       uint64
	goroutines int
}

// samples are each process incarnation's samples, keyed by identity and
// start count ("driver" for this process).
type samples map[string][]sample

// Flatness bounds: at the last checkpoint a process's live heap is at
// most heapFactor times its first plus heapSlack, and it runs at most
// goroutineSlack more goroutines.
const (
	heapFactor     = 1.5
	heapSlack      = 8 << 20
	goroutineSlack = 20
)

// sample records every replica's and the driver's live heap and
// goroutines.
func (s *soak) sample(ctx context.Context, label string) {
	if s.samples == nil {
		s.samples = samples{}
	}
	for _, p := range s.procs {
		rep, err := p.report(ctx, true)
		if err != nil {
			continue
		}
		key := fmt.Sprintf("%s (start %d)", p.identity, p.starts)
		s.samples[key] = append(s.samples[key], sample{label, rep.HeapAlloc, rep.Goroutines})
	}
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	s.samples["driver"] = append(s.samples["driver"], sample{label, ms.HeapAlloc, runtime.NumGoroutine()})
}

// checkFlat reports every incarnation with at least three samples whose
// last exceeds the bounds over its first.
func (s *soak) checkFlat() {
	for key, ss := range s.samples {
		if len(ss) < 3 {
			continue
		}
		first, last := ss[0], ss[len(ss)-1]
		if float64(last.heap) > heapFactor*float64(first.heap)+heapSlack {
			s.result.violate("%s: live heap grew from %d B (%s) to %d B (%s), bound %.1fx + %d MiB", key, first.heap, first.label, last.heap, last.label, heapFactor, heapSlack>>20)
		}
		if last.goroutines > first.goroutines+goroutineSlack {
			s.result.violate("%s: goroutines grew from %d (%s) to %d (%s), bound +%d", key, first.goroutines, first.label, last.goroutines, last.label, goroutineSlack)
		}
	}
}
