package e2e

import (
	"runtime"
	"testing"
	"time"
)

// faultCycle drops the informer's connections (every third cycle: cuts
// them and refuses new ones for two seconds),
// changes some Widgets meanwhile, and waits until store and handler have
// converged with the server again.
func faultCycle(t *testing.T, i int, proxyCut, proxyRestore, proxyReset func(), change func() error, converged func()) {
	t.Helper()
	if i%3 == 2 {
		// client-go's REST client retries a failed watch request inside
		// Watch for several seconds before the informer sees an error, so
		// the cut lasts a fixed while rather than until an error shows.
		proxyCut()
		if err := change(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(2 * time.Second)
		proxyRestore()
	} else {
		proxyReset()
		if err := change(); err != nil {
			t.Fatal(err)
		}
	}
	converged()
}

// liveHeapAndGoroutines returns the live heap after a full collection and
// the number of goroutines of the test process.
func liveHeapAndGoroutines() (heap uint64, goroutines int) {
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc, runtime.NumGoroutine()
}

// Repeated faults must not leak: after warming up, many more cycles of
// dropped and cut connections leave the informer's goroutines and the
// process's live heap where they were, give or take noise far smaller than
// a per-fault leak would add up to.
func TestInformerStaysFlatAcrossRepeatedFaults(t *testing.T) {
	c := sharedCluster(t)
	cfg := c.AdminConfig()
	namespaces := []string{"flat-a", "flat-b"}
	createNamespaces(t, cfg, namespaces...)
	cs := clientset(t, cfg)
	wl := workload{cs: cs, namespaces: namespaces, prefix: "flat", workers: 4}
	ctx := t.Context()
	const objects = 300
	if err := wl.create(ctx, 0, objects, all); err != nil {
		t.Fatal(err)
	}

	proxy := newProxy(t, c)
	inf, view, _ := watchedInformer(t, proxy.Config(cfg))
	size := int32(1)
	change := func() error {
		size++
		return wl.update(ctx, 0, objects, nth(10, int(size)%10), size)
	}
	converged := func() {
		waitConverged(t, cs, map[string]func() versions{
			"store":   func() versions { return storeWidgets(t, inf.GetStore()) },
			"handler": view.snapshot,
		})
	}
	cycle := func(i int) {
		faultCycle(t, i, proxy.Cut, proxy.Restore, proxy.Reset, change, converged)
	}

	const warmup, measured = 3, 15
	for i := 0; i < warmup; i++ {
		cycle(i)
	}
	heap0, g0 := liveHeapAndGoroutines()
	for i := warmup; i < warmup+measured; i++ {
		cycle(i)
	}
	heap1, g1 := liveHeapAndGoroutines()
	view.check(t)
	t.Logf("after %d fault cycles: goroutines %d -> %d, live heap %.1f -> %.1f MiB",
		measured, g0, g1, float64(heap0)/(1<<20), float64(heap1)/(1<<20))

	// A leak of one goroutine per watch or connection would add at least
	// `measured` goroutines; a leak of the objects of each list or watch
	// would add hundreds of KiB per cycle.
	if g1 > g0+measured/3 {
		t.Errorf("goroutines grew from %d to %d over %d fault cycles", g0, g1, measured)
	}
	const heapSlack = 8 << 20
	if heap1 > heap0+heapSlack {
		t.Errorf("live heap grew from %d to %d bytes over %d fault cycles (allowed %d)", heap0, heap1, measured, heapSlack)
	}
}
