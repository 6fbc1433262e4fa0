package bench_test

import (
	"context"
	"flag"
	"sync"
	"testing"
	"time"

	"github.com/informer-gen/informer-gen/bench/internal/dataset"
	"github.com/informer-gen/informer-gen/bench/internal/measure"
	"github.com/informer-gen/informer-gen/bench/internal/subject"
)

var size = flag.String("size", "full", "benchmark input size: full (100k objects, 200k updates) or small (1k, 2k)")

// benchInput is built once per process, at the size -size asks for.
var benchInput = sync.OnceValue(func() *measure.Input {
	if *size == "small" {
		return measure.NewInput(dataset.Small)
	}
	return measure.NewInput(dataset.Full)
})

// forEachSubject runs f as a sub-benchmark per implementation.
func forEachSubject(b *testing.B, f func(b *testing.B, in *measure.Input, subj subject.Subject)) {
	in := benchInput()
	for _, subj := range subject.All() {
		b.Run(subj.Name, func(b *testing.B) { f(b, in, subj) })
	}
}

func BenchmarkSync(b *testing.B) {
	forEachSubject(b, func(b *testing.B, in *measure.Input, subj subject.Subject) {
		var total time.Duration
		for b.Loop() {
			d, err := measure.Sync(context.Background(), in, subj)
			if err != nil {
				b.Fatal(err)
			}
			total += d
		}
		b.ReportMetric(float64(total.Milliseconds())/float64(b.N), "ms/sync")
	})
}

func benchmarkUpdates(b *testing.B, handlers int) {
	forEachSubject(b, func(b *testing.B, in *measure.Input, subj subject.Subject) {
		var rate float64
		for b.Loop() {
			res, err := measure.Updates(context.Background(), in, subj, handlers)
			if err != nil {
				b.Fatal(err)
			}
			rate += res.EventsPerSec
		}
		b.ReportMetric(rate/float64(b.N), "events/s")
	})
}

func BenchmarkUpdates1(b *testing.B) { benchmarkUpdates(b, 1) }
func BenchmarkUpdates4(b *testing.B) { benchmarkUpdates(b, 4) }

func BenchmarkOverhead(b *testing.B) {
	forEachSubject(b, func(b *testing.B, in *measure.Input, subj subject.Subject) {
		var bytes float64
		for b.Loop() {
			v, err := measure.Overhead(context.Background(), in, subj)
			if err != nil {
				b.Fatal(err)
			}
			bytes += v
		}
		b.ReportMetric(bytes/float64(b.N), "B/object")
	})
}

func BenchmarkStalled(b *testing.B) {
	forEachSubject(b, func(b *testing.B, in *measure.Input, subj subject.Subject) {
		var growth int64
		for b.Loop() {
			res, err := measure.Stalled(context.Background(), in, subj)
			if err != nil {
				b.Fatal(err)
			}
			growth += res.Growth
		}
		b.ReportMetric(float64(growth)/float64(b.N)/(1<<20), "growth-MiB")
	})
}

func benchmarkLister(b *testing.B, f func(*testing.B, *measure.Input, subject.Lister)) {
	forEachSubject(b, func(b *testing.B, in *measure.Input, subj subject.Subject) {
		l, stop, err := measure.SyncedLister(context.Background(), in, subj)
		if err != nil {
			b.Fatal(err)
		}
		defer stop()
		f(b, in, l)
	})
}

func BenchmarkListerList(b *testing.B) { benchmarkLister(b, measure.ListerList) }
func BenchmarkListerGet(b *testing.B)  { benchmarkLister(b, measure.ListerGet) }

// BenchmarkLiveHeap reports the live heap per cached object of each kind
// (ConfigMaps and examples/crd's Widgets), each object decoded from its
// own JSON.
func BenchmarkLiveHeap(b *testing.B) {
	cfg := benchInput().Config
	for _, kind := range measure.Kinds {
		b.Run(kind.Name, func(b *testing.B) {
			for _, subj := range liveHeapSubjects() {
				b.Run(subj.Name, func(b *testing.B) {
					var bytes float64
					for b.Loop() {
						v, err := measure.LiveHeap(context.Background(), cfg, kind, subj)
						if err != nil {
							b.Fatal(err)
						}
						bytes += v
					}
					b.ReportMetric(bytes/float64(b.N), "B/object")
				})
			}
		})
	}
}

// liveHeapSubjects are the subjects whose live heap per object is
// measured: client-go, ours, and ours without compaction when the runtime
// has compaction.
func liveHeapSubjects() []subject.Subject {
	subjects := subject.All()
	if unc, ok := subject.OursUncompacted(); ok {
		subjects = append(subjects, unc)
	}
	return subjects
}
