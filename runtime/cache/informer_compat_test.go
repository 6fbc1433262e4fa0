package cache

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/informer-gen/informer-gen/runtime/cache/cachetest"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/watch"
)

func TestInformerDoneCheckersAndControllerViewFollowTheSync(t *testing.T) {
	srv := newModelServer()
	srv.put("a", false)
	var reg ResourceEventHandlerRegistration
	inf := startInformer(t, srv, SharedIndexInformerOptions{}, func(s *sharedIndexInformer) {
		reg = mustAdd(t, s, ResourceEventHandlerFuncs{}, HandlerOptions{Name: "h"})
	})
	defer inf.stop(t)
	ctl := inf.GetController()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if !WaitFor(ctx, "informer and handler", inf.HasSyncedChecker(), reg.HasSyncedChecker(), ctl.HasSyncedChecker()) {
		t.Fatal("done checkers never closed")
	}
	if !ctl.HasSynced() || ctl.LastSyncResourceVersion() != inf.LastSyncResourceVersion() {
		t.Fatalf("controller view: synced %v rv %q, informer rv %q", ctl.HasSynced(), ctl.LastSyncResourceVersion(), inf.LastSyncResourceVersion())
	}
	cachetest.Eventually(t, "the cache's resourceVersion", func() bool { return inf.GetStore().LastStoreSyncResourceVersion() != "" })
}

func TestRunWithAStopChannelStopsTheInformer(t *testing.T) {
	srv := newModelServer()
	inf := NewSharedIndexInformer(srv, &metav1.PartialObjectMetadata{}, 0, Indexers{})
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() { defer close(done); inf.Run(stop) }()
	if !WaitForCacheSync(stop, inf.HasSynced) {
		t.Fatal("not synced")
	}
	close(stop)
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("Run did not return after stopCh closed")
	}
	if !inf.IsStopped() {
		t.Fatal("IsStopped false after Run returned")
	}
}

// failingLW fails every list with err.
type failingLW struct{ err error }

func (f failingLW) List(metav1.ListOptions) (runtime.Object, error)   { return nil, f.err }
func (f failingLW) Watch(metav1.ListOptions) (watch.Interface, error) { return nil, f.err }

func TestWatchErrorHandlersReceiveTheReflectorAndTheError(t *testing.T) {
	boom := errors.New("boom")
	tests := []struct {
		name    string
		install func(SharedIndexInformer, func(ctx context.Context, r *Reflector, err error)) error
	}{
		{"SetWatchErrorHandler", func(s SharedIndexInformer, h func(context.Context, *Reflector, error)) error {
			return s.SetWatchErrorHandler(func(r *Reflector, err error) { h(nil, r, err) })
		}},
		{"SetWatchErrorHandlerWithContext", func(s SharedIndexInformer, h func(context.Context, *Reflector, error)) error {
			return s.SetWatchErrorHandlerWithContext(h)
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			inf := NewSharedIndexInformerWithOptions(failingLW{boom}, &metav1.PartialObjectMetadata{}, SharedIndexInformerOptions{ObjectDescription: "things"})
			got := make(chan string, 10)
			if err := tt.install(inf, func(_ context.Context, r *Reflector, err error) {
				if r != nil && errors.Is(err, boom) {
					got <- r.Name()
				}
			}); err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan struct{})
			go func() { defer close(done); inf.RunWithContext(ctx) }()
			defer func() { cancel(); <-done }()
			select {
			case name := <-got:
				if name != "things" {
					t.Fatalf("handler got reflector %q, want the informer's", name)
				}
			case <-time.After(30 * time.Second):
				t.Fatal("handler never called")
			}
		})
	}
}

// gauge records the last value set.
type gauge struct {
	mu  sync.Mutex
	set bool
	v   float64
}

func (g *gauge) Set(v float64)   { g.mu.Lock(); g.set, g.v = true, v; g.mu.Unlock() }
func (g *gauge) Observe(float64) {}
func (g *gauge) value() (float64, bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.v, g.set
}

type provider struct{ queued, rv, latency *gauge }

func (p provider) NewQueuedItemMetric(InformerNameAndResource) GaugeMetric { return p.queued }
func (p provider) NewProcessingLatencyMetric(InformerNameAndResource) HistogramMetric {
	return p.latency
}
func (p provider) NewStoreResourceVersionMetric(InformerNameAndResource) GaugeMetric { return p.rv }

func TestInformerPublishesThroughTheMetricsProviderOfAReservedIdentifier(t *testing.T) {
	defer ResetInformerNamesForTesting()
	name, err := NewInformerName("factory")
	if err != nil {
		t.Fatal(err)
	}
	gvr := schema.GroupVersionResource{Version: "v1", Resource: "things"}
	for _, reserved := range []bool{true, false} {
		// The second identifier for the same resource is not reserved.
		id := name.WithResource(gvr)
		if id.Reserved() != reserved {
			t.Fatalf("Reserved() = %v, want %v", id.Reserved(), reserved)
		}
		p := provider{&gauge{}, &gauge{}, &gauge{}}
		srv := newModelServer()
		srv.put("a", false)
		inf := startInformer(t, srv, SharedIndexInformerOptions{Identifier: id, InformerMetricsProvider: p}, nil)
		cachetest.Eventually(t, "sync", inf.HasSynced)
		inf.stop(t)
		rv, set := p.rv.value()
		if set != reserved {
			t.Fatalf("reserved=%v: resourceVersion published=%v", reserved, set)
		}
		if reserved && rv <= 0 {
			t.Fatalf("published resourceVersion %v", rv)
		}
		if _, set := p.queued.value(); set != reserved {
			t.Fatalf("reserved=%v: queue depth published=%v", reserved, set)
		}
	}
}

func TestInformerNamesAreUniqueUntilReleased(t *testing.T) {
	defer ResetInformerNamesForTesting()
	if _, err := NewInformerName(""); err == nil {
		t.Fatal("empty name accepted")
	}
	n, err := NewInformerName("x")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := NewInformerName("x"); err == nil {
		t.Fatal("duplicate name accepted")
	}
	id := n.WithResource(schema.GroupVersionResource{Resource: "r"})
	if !id.Reserved() || id.Name() != "x" || id.GroupVersionResource().Resource != "r" {
		t.Fatalf("identifier = %+v", id)
	}
	n.Release()
	if id.Reserved() {
		t.Fatal("identifier still reserved after Release")
	}
	if _, err := NewInformerName("x"); err != nil {
		t.Fatalf("released name not reusable: %v", err)
	}
	var none *InformerName
	if none.Name() != "" || none.WithResource(schema.GroupVersionResource{}).Reserved() {
		t.Fatal("nil InformerName names something")
	}
}
