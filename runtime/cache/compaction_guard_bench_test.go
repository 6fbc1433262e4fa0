package cache

import (
	"fmt"
	"runtime"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/informer-gen/informer-gen/runtime/compact"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/watch"
)

// processCPU is the CPU time (user and system) the process used so far: a
// benchmark on a shared machine compares CPU per event, which other
// processes do not change, where its events/s depend on the load.
func processCPU(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// guardBenchObjects are n metadata-only objects of n/3 ReplicaSets: each
// labels map and owner reference is shared by three objects, so the
// table holds about 2n/3 canonical copies for the guard to check.
func guardBenchObjects(n, rv int) []metav1.PartialObjectMetadata {
	items := make([]metav1.PartialObjectMetadata, n)
	for i := range items {
		rs := strconv.Itoa(i / 3)
		items[i] = metav1.PartialObjectMetadata{
			TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Pod"},
			ObjectMeta: metav1.ObjectMeta{
				Namespace: "ns" + strconv.Itoa(i%10), Name: "o" + strconv.Itoa(i),
				UID: types.UID("uid-" + strconv.Itoa(i)), ResourceVersion: strconv.Itoa(rv),
				Labels:          map[string]string{"app": "app-" + rs, "pod-template-hash": "h" + rs},
				OwnerReferences: []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: "app-" + rs, UID: types.UID("rs-" + rs)}},
			},
		}
	}
	return items
}

// BenchmarkCompactionGuard is the cost of the compaction guard on a
// compacting informer: watch updates of 30,000 objects, whose label maps
// and owner references are shared, with the guard off, on at its default
// bounds, and on at ten times its default rate (Period 10ms). It reports
// events/s, the process's CPU per event (what the guard adds, whatever
// the machine's load) and the live heap once the updates are applied.
func BenchmarkCompactionGuard(b *testing.B) {
	b.Setenv(testChecksEnv, "false")
	b.Setenv(mutationDetectorEnv, "false")
	b.Setenv(compactionGuardEnv, "")
	variants := []struct {
		name   string
		off    bool
		period time.Duration
	}{{"off", true, 0}, {"on", false, 0}, {"on-10x", false, 10 * time.Millisecond}}
	// Rounds of the three, interleaved, so that the machine's load moves
	// all three alike: compare the variants of one round.
	for round := range 3 {
		for _, bc := range variants {
			b.Run(fmt.Sprintf("round%d/%s", round, bc.name), func(b *testing.B) {
				guard := compact.NewGuard(compact.Default(), compact.GuardOptions{Period: bc.period})
				start := time.Now()
				benchmarkGuardedUpdates(b, SharedIndexInformerOptions{Compact: true, CompactionGuard: guard, DisableCompactionGuard: bc.off})
				b.ReportMetric(float64(guard.Stats().Checked)/time.Since(start).Seconds(), "copies-checked/s")
			})
		}
	}
}

func benchmarkGuardedUpdates(b *testing.B, opts SharedIndexInformerOptions) {
	const keys = 30000
	base := guardBenchObjects(keys, 1)
	list := &metav1.PartialObjectMetadataList{ListMeta: metav1.ListMeta{ResourceVersion: "1"}, Items: base}
	lw := &benchLW{list: list, watch: &benchWatch{ch: make(chan watch.Event, 1024), stop: make(chan struct{})}}
	h := &countingHandler{}
	inf := NewSharedIndexInformerWithOptions(lw, &metav1.PartialObjectMetadata{}, opts).(*sharedIndexInformer)
	if _, err := inf.AddEventHandler(h); err != nil {
		b.Fatal(err)
	}
	stop := runInformer(inf)
	defer stop()
	for h.n.Load() < keys {
		time.Sleep(100 * time.Microsecond)
	}
	const batch = 1 << 15
	events := make([]watch.Event, batch)
	for i := range events {
		o := base[i%keys].DeepCopy()
		o.ResourceVersion = strconv.Itoa(2 + i)
		o.Annotations = map[string]string{"seq": strconv.Itoa(i)} // a change the update walk walks
		events[i] = watch.Event{Type: watch.Modified, Object: o}
	}
	sentinel := base[0].DeepCopy()
	sentinel.Name = "sentinel"
	runtime.GC()
	b.ResetTimer()
	start, cpu := time.Now(), processCPU(b)
	for i := 0; i < b.N; i++ {
		lw.watch.send(events[i%batch])
	}
	lw.watch.send(watch.Event{Type: watch.Added, Object: sentinel})
	waitDelivered(inf, h)
	elapsed, used := time.Since(start), processCPU(b)-cpu
	b.StopTimer()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	b.ReportMetric(float64(b.N)/elapsed.Seconds(), "events/s")
	b.ReportMetric(float64(used.Nanoseconds())/float64(b.N), "cpu-ns/event")
	b.ReportMetric(float64(ms.HeapAlloc)/(1<<20), "heap-MiB")
	runtime.KeepAlive(inf)
}

// runInformer runs inf until the returned stop is called.
func runInformer(inf *sharedIndexInformer) (stop func()) {
	done := make(chan struct{})
	stopCh := make(chan struct{})
	go func() {
		defer close(done)
		inf.Run(stopCh)
	}()
	return func() { close(stopCh); <-done }
}
