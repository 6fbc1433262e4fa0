package cache

import (
	"context"
	"runtime/metrics"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/watch"
)

// BenchmarkRelistPeakHeap measures what a relist costs in heap: an
// informer with one handler caches 50,000 objects, then some objects
// change behind a compacted history, so the informer relists (in pages of
// 500) and stores the new list atomically. It reports the informer's
// steady heap (live, after GC, the server's own objects subtracted) and,
// as ratios to it, the peak of the heap's object bytes sampled during the
// relist (garbage not yet collected included, as a process's memory sees
// it, so it depends on the GC's pacing: with GOGC=100 the heap may grow to
// twice the live heap before a collection) and the peak of the live heap
// that the collections during the relist found (/gc/heap/live:bytes), the
// memory the relist needs.
//
// The server is relistServer, which holds one pointer per object and
// makes every listed object afresh, as a decoder would; in the
// managedFields cases each carries about 1 KiB of managedFields, which the
// informer's transform strips, as a factory does by default: the cache
// holds far less than the server sends.
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
	srv := newRelistServer(n, managedFields)
	serverOnly := heapInUseBytes()
	opts := SharedIndexInformerOptions{Clock: newAutoClock(100 * time.Millisecond)}
	inf := NewSharedIndexInformerWithOptions(srv, &metav1.PartialObjectMetadata{}, opts).(*sharedIndexInformer)
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
	srv.changeBehindCompaction(changed)
	for h.n.Load() < int64(n+changed) {
		time.Sleep(time.Millisecond)
	}
	close(stop)
	<-sampled
	b.ReportMetric(float64(steady)/float64(n), "steady-B/obj")
	b.ReportMetric(float64(peak.Load()-serverOnly)/float64(steady), "relist-peak/steady")
	b.ReportMetric(float64(livePeak.Load()-serverOnly)/float64(steady), "relist-live-peak/steady")
}

// relistServer serves n objects, lists in pages (a consistent snapshot per
// list), and watches that see nothing until changeBehindCompaction cuts
// them and compacts the history, so the informer relists. Every listed
// object is made afresh, with about 1 KiB of managedFields when fat.
type relistServer struct {
	fat bool

	mu        sync.Mutex
	objects   []*metav1.PartialObjectMetadata
	rv        int
	compacted int
	snapshot  []*metav1.PartialObjectMetadata // the list being paged
	watches   []*watch.FakeWatcher
}

func newRelistServer(n int, fat bool) *relistServer {
	s := &relistServer{fat: fat, rv: 1, objects: make([]*metav1.PartialObjectMetadata, n)}
	for i := range s.objects {
		s.objects[i] = &metav1.PartialObjectMetadata{ObjectMeta: metav1.ObjectMeta{
			Namespace: "ns", Name: "o" + strconv.Itoa(i), UID: types.UID("uid-" + strconv.Itoa(i)), ResourceVersion: "1"}}
	}
	return s
}

// changeBehindCompaction gives the first changed objects a new
// resourceVersion, compacts the history past it and ends every watch.
func (s *relistServer) changeBehindCompaction(changed int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i := range changed {
		s.rv++
		o := s.objects[i].DeepCopy()
		o.ResourceVersion = strconv.Itoa(s.rv)
		s.objects[i] = o
	}
	s.compacted = s.rv
	for _, w := range s.watches {
		w.Stop()
	}
	s.watches = nil
}

// served is what a decoder would hand the client for o.
func (s *relistServer) served(o *metav1.PartialObjectMetadata) metav1.PartialObjectMetadata {
	out := *o.DeepCopy()
	if s.fat {
		for _, m := range []string{"kube-controller-manager", "kube-scheduler", "kubelet"} {
			raw := make([]byte, 340)
			for i := range raw {
				raw[i] = 'f'
			}
			out.ManagedFields = append(out.ManagedFields, metav1.ManagedFieldsEntry{Manager: m, Operation: metav1.ManagedFieldsOperationUpdate, FieldsType: "FieldsV1", FieldsV1: &metav1.FieldsV1{Raw: raw}})
		}
	}
	return out
}

func (s *relistServer) ListWithContext(_ context.Context, opts metav1.ListOptions) (runtime.Object, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	offset := 0
	if opts.Continue == "" {
		s.snapshot = append(s.snapshot[:0], s.objects...)
	} else {
		offset, _ = strconv.Atoi(opts.Continue)
	}
	end := len(s.snapshot)
	if opts.Limit > 0 {
		end = min(end, offset+int(opts.Limit))
	}
	out := &metav1.PartialObjectMetadataList{ListMeta: metav1.ListMeta{ResourceVersion: strconv.Itoa(s.rv)}, Items: make([]metav1.PartialObjectMetadata, 0, end-offset)}
	for _, o := range s.snapshot[offset:end] {
		out.Items = append(out.Items, s.served(o))
	}
	if end < len(s.snapshot) {
		out.Continue = strconv.Itoa(end)
	}
	return out, nil
}

func (s *relistServer) WatchWithContext(ctx context.Context, opts metav1.ListOptions) (watch.Interface, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if rv, err := strconv.Atoi(opts.ResourceVersion); err == nil && rv < s.compacted {
		return nil, apierrors.NewResourceExpired("compacted")
	}
	w := watch.NewFake()
	s.watches = append(s.watches, w)
	context.AfterFunc(ctx, w.Stop)
	return w, nil
}

func (s *relistServer) List(opts metav1.ListOptions) (runtime.Object, error) {
	return s.ListWithContext(context.Background(), opts)
}

func (s *relistServer) Watch(opts metav1.ListOptions) (watch.Interface, error) {
	return s.WatchWithContext(context.Background(), opts)
}

// stripManagedFields is factory.StripManagedFields for PartialObjectMetadata.
func stripManagedFields(obj any) (any, error) {
	if o, ok := obj.(*metav1.PartialObjectMetadata); ok {
		o.ManagedFields = nil
	}
	return obj, nil
}
