package cache

import (
	"context"
	"runtime"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	kruntime "k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/watch"
)

// benchLW serves a fixed list, then one watch fed by the benchmark through
// a buffered channel.
type benchLW struct {
	list  *metav1.PartialObjectMetadataList
	watch *benchWatch
}

type benchWatch struct {
	ch   chan watch.Event
	stop chan struct{}
	once atomic.Bool
}

func (w *benchWatch) ResultChan() <-chan watch.Event { return w.ch }
func (w *benchWatch) Stop() {
	if w.once.CompareAndSwap(false, true) {
		close(w.stop)
	}
}

func (lw *benchLW) ListWithContext(context.Context, metav1.ListOptions) (kruntime.Object, error) {
	return lw.list, nil
}

func (lw *benchLW) WatchWithContext(ctx context.Context, _ metav1.ListOptions) (watch.Interface, error) {
	if lw.watch.once.Load() {
		// Only one watch: later ones stay silent until the end.
		w := &benchWatch{ch: make(chan watch.Event), stop: make(chan struct{})}
		return w, nil
	}
	return lw.watch, nil
}

// send delivers ev unless the watch was stopped.
func (w *benchWatch) send(ev watch.Event) {
	select {
	case w.ch <- ev:
	case <-w.stop:
	}
}

func informerBenchObjects(n int, rv int) []metav1.PartialObjectMetadata {
	items := make([]metav1.PartialObjectMetadata, n)
	for i := range items {
		items[i] = metav1.PartialObjectMetadata{
			TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "ConfigMap"},
			ObjectMeta: metav1.ObjectMeta{
				Namespace: "ns" + strconv.Itoa(i%10), Name: "o" + strconv.Itoa(i),
				UID: types.UID("uid-" + strconv.Itoa(i)), ResourceVersion: strconv.Itoa(rv),
				Labels: map[string]string{"app": "bench"},
			},
		}
	}
	return items
}

// countingHandler counts calls and notes the add of the object named
// "sentinel"; it does no other work.
type countingHandler struct {
	n        atomic.Int64
	sentinel atomic.Bool
}

func (h *countingHandler) OnAdd(obj any, _ bool) {
	h.n.Add(1)
	if obj.(*metav1.PartialObjectMetadata).Name == "sentinel" {
		h.sentinel.Store(true)
	}
}
func (h *countingHandler) OnUpdate(_, _ any) { h.n.Add(1) }
func (h *countingHandler) OnDelete(any)      { h.n.Add(1) }
func (h *countingHandler) OnResync(any)      { h.n.Add(1) }

func runBenchInformer(b *testing.B, lw *benchLW, handlers ...ResourceEventHandler) (*sharedIndexInformer, func()) {
	inf := NewSharedIndexInformer(lw, &metav1.PartialObjectMetadata{}, 0, Indexers{NamespaceIndex: MetaNamespaceIndexFunc}).(*sharedIndexInformer)
	for _, h := range handlers {
		if _, err := inf.AddEventHandler(h); err != nil {
			b.Fatal(err)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		inf.RunWithContext(ctx)
	}()
	return inf, func() { cancel(); <-done }
}

func BenchmarkInitialSync100k(b *testing.B) {
	const n = 100000
	items := informerBenchObjects(n, 1)
	for b.Loop() {
		b.StopTimer()
		list := &metav1.PartialObjectMetadataList{ListMeta: metav1.ListMeta{ResourceVersion: "1"}}
		list.Items = make([]metav1.PartialObjectMetadata, n)
		copy(list.Items, items)
		lw := &benchLW{list: list, watch: &benchWatch{ch: make(chan watch.Event), stop: make(chan struct{})}}
		h := &countingHandler{}
		b.StartTimer()
		inf, stop := runBenchInformer(b, lw, h)
		for !inf.HasSynced() {
			time.Sleep(100 * time.Microsecond)
		}
		b.StopTimer()
		stop()
		b.StartTimer()
	}
	b.ReportMetric(float64(n), "objects/op")
}

func benchmarkUpdates(b *testing.B, handlers int) {
	const keys = 10000
	base := informerBenchObjects(keys, 1)
	list := &metav1.PartialObjectMetadataList{ListMeta: metav1.ListMeta{ResourceVersion: "1"}, Items: base}
	lw := &benchLW{list: list, watch: &benchWatch{ch: make(chan watch.Event, 1024), stop: make(chan struct{})}}
	hs := make([]*countingHandler, handlers)
	rehs := make([]ResourceEventHandler, handlers)
	for i := range hs {
		hs[i] = &countingHandler{}
		rehs[i] = hs[i]
	}
	inf, stop := runBenchInformer(b, lw, rehs...)
	defer stop()
	for !inf.HasSynced() {
		time.Sleep(100 * time.Microsecond)
	}
	for _, h := range hs {
		for h.n.Load() < keys {
			time.Sleep(100 * time.Microsecond)
		}
	}
	// Pre-build the updated objects outside the timer.
	const batch = 1 << 16
	events := make([]watch.Event, batch)
	for i := range events {
		o := base[i%keys].DeepCopy()
		o.ResourceVersion = strconv.Itoa(2 + i)
		events[i] = watch.Event{Type: watch.Modified, Object: o}
	}
	sentinel := base[0].DeepCopy()
	sentinel.Name = "sentinel"
	calls := func() (n int64) {
		for _, h := range hs {
			n += h.n.Load()
		}
		return n
	}
	before := calls()
	b.ResetTimer()
	start := time.Now()
	for i := 0; i < b.N; i++ {
		lw.watch.send(events[i%batch])
	}
	lw.watch.send(watch.Event{Type: watch.Added, Object: sentinel})
	waitDelivered(inf, hs...)
	elapsed := time.Since(start)
	b.StopTimer()
	b.ReportMetric(float64(b.N)/elapsed.Seconds(), "events/s")
	b.ReportMetric(float64(calls()-before)/float64(b.N*handlers), "calls/event")
}

// waitDelivered waits until every handler got the sentinel (the last
// object sent, hence pushed after everything else) and every listener of
// inf delivered everything pushed to it.
func waitDelivered(inf *sharedIndexInformer, hs ...*countingHandler) {
	for _, h := range hs {
		for !h.sentinel.Load() {
			time.Sleep(20 * time.Microsecond)
		}
	}
	listeners := inf.processor.Listeners()
	for _, l := range listeners {
		for !l.Drained() {
			time.Sleep(20 * time.Microsecond)
		}
	}
}

func BenchmarkUpdates1Handler(b *testing.B)  { benchmarkUpdates(b, 1) }
func BenchmarkUpdates4Handlers(b *testing.B) { benchmarkUpdates(b, 4) }

// BenchmarkStalledHandlerHeap measures the heap a stalled handler makes the
// informer hold while 200k updates over 100k objects flow.
func BenchmarkStalledHandlerHeap(b *testing.B) {
	const keys, updates = 100000, 200000
	base := informerBenchObjects(keys, 1)
	events := make([]watch.Event, updates)
	for i := range events {
		o := base[i%keys].DeepCopy()
		o.ResourceVersion = strconv.Itoa(2 + i)
		events[i] = watch.Event{Type: watch.Modified, Object: o}
	}
	for b.Loop() {
		list := &metav1.PartialObjectMetadataList{ListMeta: metav1.ListMeta{ResourceVersion: "1"}}
		list.Items = make([]metav1.PartialObjectMetadata, keys)
		copy(list.Items, base)
		lw := &benchLW{list: list, watch: &benchWatch{ch: make(chan watch.Event, 1024), stop: make(chan struct{})}}
		gate := make(chan struct{})
		var stalledSeen atomic.Int64
		var stall atomic.Bool
		block := func() {
			if stall.Load() {
				<-gate
			}
		}
		stalled := ResourceEventHandlerFuncs{
			AddFunc:    func(any) { stalledSeen.Add(1); block() },
			UpdateFunc: func(any, any) { block() },
		}
		counter := &countingHandler{}
		inf, stop := runBenchInformer(b, lw, stalled, counter)
		for counter.n.Load() < keys || stalledSeen.Load() < keys {
			time.Sleep(100 * time.Microsecond)
		}
		stall.Store(true)
		before := heapInUseBytes()
		for _, ev := range events {
			lw.watch.send(ev)
		}
		sentinel := base[0].DeepCopy()
		sentinel.Name = "sentinel"
		lw.watch.send(watch.Event{Type: watch.Added, Object: sentinel})
		for !counter.sentinel.Load() {
			time.Sleep(100 * time.Microsecond)
		}
		listeners := inf.processor.Listeners()
		for !listeners[1].Drained() {
			time.Sleep(100 * time.Microsecond)
		}
		after := heapInUseBytes()
		// The listed objects stay reachable through the benchmark so that
		// their replacement in the cache does not offset the growth.
		runtime.KeepAlive(list)
		b.ReportMetric(float64(after)-float64(before), "heap-growth-bytes")
		b.ReportMetric(float64(stalledPending(inf)), "stalled-pending")
		close(gate)
		stop()
	}
}

func heapInUseBytes() uint64 {
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

// stalledPending is the largest backlog among inf's listeners.
func stalledPending(inf *sharedIndexInformer) int {
	listeners := inf.processor.Listeners()
	n := 0
	for _, l := range listeners {
		n = max(n, l.Pending())
	}
	return n
}

// List is ListWithContext with a background context.
func (lw *benchLW) List(opts metav1.ListOptions) (kruntime.Object, error) {
	return lw.ListWithContext(context.Background(), opts)
}

// Watch is WatchWithContext with a background context.
func (lw *benchLW) Watch(opts metav1.ListOptions) (watch.Interface, error) {
	return lw.WatchWithContext(context.Background(), opts)
}

// BenchmarkIdleHandlerMemory measures what each handler of an idle
// informer costs on the heap once it has received its initial list: 200
// running informers of 100 objects with 3 handlers each, against the same
// informers without handlers (B/handler).
func BenchmarkIdleHandlerMemory(b *testing.B) {
	const informers, handlersPer, objects = 200, 3, 100
	base := informerBenchObjects(objects, 1)
	start := func(handlers int) (stop func()) {
		var stops []func()
		var infs []*sharedIndexInformer
		for range informers {
			list := &metav1.PartialObjectMetadataList{ListMeta: metav1.ListMeta{ResourceVersion: "1"}, Items: base}
			lw := &benchLW{list: list, watch: &benchWatch{ch: make(chan watch.Event), stop: make(chan struct{})}}
			hs := make([]ResourceEventHandler, handlers)
			for i := range hs {
				hs[i] = &countingHandler{}
			}
			inf, stop := runBenchInformer(b, lw, hs...)
			infs = append(infs, inf)
			stops = append(stops, stop)
		}
		for _, inf := range infs {
			for !inf.HasSynced() {
				time.Sleep(100 * time.Microsecond)
			}
			listeners := inf.processor.Listeners()
			for _, l := range listeners {
				for !l.Drained() {
					time.Sleep(100 * time.Microsecond)
				}
			}
		}
		return func() {
			for _, stop := range stops {
				stop()
			}
		}
	}
	for b.Loop() {
		stop := start(0)
		without := heapInUseBytes()
		stop()
		stop = start(handlersPer)
		with := heapInUseBytes()
		stop()
		b.ReportMetric((float64(with)-float64(without))/(informers*handlersPer), "B/handler")
	}
}
