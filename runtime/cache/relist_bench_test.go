package cache

import (
	"context"
	"runtime/metrics"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
)

// BenchmarkRelistPeakHeap measures what a relist costs in heap: an
// informer with one handler caches 50,000 objects, then some objects
// change behind a compacted history, so the informer relists and stores
// the new list atomically. It reports the informer's steady heap (live,
// after GC, the in-process server's own objects subtracted) and the peak
// of the heap's object bytes sampled during the relist (garbage not yet
// collected included, as a process's memory sees it, so it depends on the
// GC's pacing: with GOGC=100 the heap may grow to twice the live heap
// before a collection), as a ratio; and the peak of the live heap that the
// collections during the relist found (/gc/heap/live:bytes), the memory
// the relist needs.
//
// The managedFields cases serve every object with about 1 KiB of
// managedFields, freshly allocated for each list and watch as a decoder
// would, and strip them in the informer's transform, as a factory does by
// default: the cache holds far less than the server sends.
func BenchmarkRelistPeakHeap(b *testing.B) {
	const n = 50_000
	for _, bc := range []struct {
		name          string
		changed       int
		managedFields bool
	}{
		{"all-changed", n, false},
		{"all-changed/managedFields-stripped", n, true},
		{"1pct-changed/managedFields-stripped", n / 100, true},
	} {
		b.Run(bc.name, func(b *testing.B) {
			for b.Loop() {
				relistPeak(b, n, bc.changed, bc.managedFields)
			}
		})
	}
}

func relistPeak(b *testing.B, n, changed int, managedFields bool) {
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}, {Name: "/gc/heap/live:bytes"}}
	read := func() (objects, live uint64) {
		metrics.Read(sample)
		return sample[0].Value.Uint64(), sample[1].Value.Uint64()
	}
	srv := newModelServer()
	fill(srv, n)
	serverOnly := heapInUseBytes()
	var lw ListerWatcher = srv
	opts := SharedIndexInformerOptions{Clock: newAutoClock(100 * time.Millisecond)}
	if managedFields {
		lw = newFatLW(srv)
	}
	inf := NewSharedIndexInformerWithOptions(lw, &metav1.PartialObjectMetadata{}, opts).(*sharedIndexInformer)
	if managedFields {
		if err := inf.SetTransform(stripManagedFields); err != nil {
			b.Fatal(err)
		}
	}
	h := &countingHandler{}
	mustAdd(b, inf, h, HandlerOptions{})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); inf.RunWithContext(ctx) }()
	defer func() { cancel(); <-done; opts.Clock.(*autoClock).close() }()
	for h.n.Load() < int64(n) {
		time.Sleep(time.Millisecond)
	}
	steady := heapInUseBytes() - serverOnly

	var peak, livePeak atomic.Uint64
	stop := make(chan struct{})
	sampled := make(chan struct{})
	go func() {
		defer close(sampled)
		for {
			objects, live := read()
			if objects > peak.Load() {
				peak.Store(objects)
			}
			if live > livePeak.Load() {
				livePeak.Store(live)
			}
			select {
			case <-stop:
				return
			case <-time.After(200 * time.Microsecond):
			}
		}
	}()
	srv.partition(func(p *partitionOps) {
		for i := range changed {
			p.put("o"+strconv.Itoa(i), false)
		}
	})
	for h.n.Load() < int64(n+changed) {
		time.Sleep(time.Millisecond)
	}
	close(stop)
	<-sampled
	b.ReportMetric(float64(steady)/float64(n), "steady-B/obj")
	b.ReportMetric(float64(peak.Load()-serverOnly)/float64(steady), "relist-peak/steady")
	b.ReportMetric(float64(livePeak.Load()-serverOnly)/float64(steady), "relist-live-peak/steady")
}

// fatLW serves srv's objects with about 1 KiB of managedFields each,
// allocated afresh for every list page and watch event, and pages lists
// as a server does for a limited list (the model server sends lists
// whole).
type fatLW struct {
	srv *modelServer
	// snapshot is the list being paged; the continue token is the offset
	// of the next page in it.
	snapshot *atomic.Pointer[metav1.PartialObjectMetadataList]
}

func newFatLW(srv *modelServer) fatLW {
	return fatLW{srv: srv, snapshot: new(atomic.Pointer[metav1.PartialObjectMetadataList])}
}

func fatten(o *metav1.PartialObjectMetadata) *metav1.PartialObjectMetadata {
	o = o.DeepCopy()
	for _, m := range []string{"kube-controller-manager", "kube-scheduler", "kubelet"} {
		raw := make([]byte, 340)
		for i := range raw {
			raw[i] = 'f'
		}
		o.ManagedFields = append(o.ManagedFields, metav1.ManagedFieldsEntry{Manager: m, Operation: metav1.ManagedFieldsOperationUpdate, FieldsType: "FieldsV1", FieldsV1: &metav1.FieldsV1{Raw: raw}})
	}
	return o
}

func (f fatLW) ListWithContext(ctx context.Context, opts metav1.ListOptions) (runtime.Object, error) {
	offset := 0
	if opts.Continue == "" {
		obj, err := f.srv.ListWithContext(ctx, opts)
		if err != nil {
			return nil, err
		}
		f.snapshot.Store(obj.(*metav1.PartialObjectMetadataList))
	} else {
		offset, _ = strconv.Atoi(opts.Continue)
	}
	list := f.snapshot.Load()
	end := len(list.Items)
	if opts.Limit > 0 {
		end = min(end, offset+int(opts.Limit))
	}
	out := &metav1.PartialObjectMetadataList{ListMeta: metav1.ListMeta{ResourceVersion: list.ResourceVersion}, Items: make([]metav1.PartialObjectMetadata, 0, end-offset)}
	for i := offset; i < end; i++ {
		out.Items = append(out.Items, *fatten(&list.Items[i]))
	}
	if end < len(list.Items) {
		out.Continue = strconv.Itoa(end)
	} else {
		f.snapshot.Store(nil)
	}
	return out, nil
}

func (f fatLW) WatchWithContext(ctx context.Context, opts metav1.ListOptions) (watch.Interface, error) {
	w, err := f.srv.WatchWithContext(ctx, opts)
	if err != nil {
		return nil, err
	}
	return watch.Filter(w, func(ev watch.Event) (watch.Event, bool) {
		if o, ok := ev.Object.(*metav1.PartialObjectMetadata); ok && ev.Type != watch.Bookmark {
			ev.Object = fatten(o)
		}
		return ev, true
	}), nil
}

// stripManagedFields is factory.StripManagedFields for PartialObjectMetadata.
func stripManagedFields(obj any) (any, error) {
	if o, ok := obj.(*metav1.PartialObjectMetadata); ok {
		o.ManagedFields = nil
	}
	return obj, nil
}

func (f fatLW) List(opts metav1.ListOptions) (runtime.Object, error) {
	return f.ListWithContext(context.Background(), opts)
}

func (f fatLW) Watch(opts metav1.ListOptions) (watch.Interface, error) {
	return f.WatchWithContext(context.Background(), opts)
}
