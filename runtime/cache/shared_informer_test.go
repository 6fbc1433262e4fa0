package cache

import (
	"context"
	"fmt"
	"maps"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/informer-gen/informer-gen/runtime/cache/cachetest"
	"github.com/informer-gen/informer-gen/runtime/cache/internal/delivery"
	"go.uber.org/goleak"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	testingclock "k8s.io/utils/clock/testing"
)

// autoClock is a fake clock that a goroutine keeps stepping while anything
// waits on it, so back-offs and timers of the reflector pass in
// microseconds of real time.
type autoClock struct {
	*testingclock.FakeClock
	stop chan struct{}
	done chan struct{}
}

func newAutoClock(step time.Duration) *autoClock {
	c := &autoClock{FakeClock: testingclock.NewFakeClock(time.Now()), stop: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(c.done)
		for {
			select {
			case <-c.stop:
				return
			default:
			}
			if c.HasWaiters() {
				c.Step(step)
			}
			time.Sleep(50 * time.Microsecond)
		}
	}()
	return c
}

func (c *autoClock) close() {
	close(c.stop)
	<-c.done
}

// informerRun is an informer running on its own goroutine.
type informerRun struct {
	*sharedIndexInformer
	cancel context.CancelFunc
	done   chan struct{}
	clock  *autoClock
}

// startInformer runs a fresh informer over srv, with handlers registered
// before Run; stop it with stop.
func startInformer(t testing.TB, srv *modelServer, opts SharedIndexInformerOptions, setup func(*sharedIndexInformer)) *informerRun {
	t.Helper()
	clk := newAutoClock(100 * time.Millisecond)
	opts.Clock = clk
	inf := NewSharedIndexInformerWithOptions(srv, &metav1.PartialObjectMetadata{}, opts).(*sharedIndexInformer)
	if setup != nil {
		setup(inf)
	}
	ctx, cancel := context.WithCancel(context.Background())
	r := &informerRun{sharedIndexInformer: inf, cancel: cancel, done: make(chan struct{}), clock: clk}
	go func() {
		defer close(r.done)
		inf.RunWithContext(ctx)
	}()
	return r
}

// stop cancels Run and waits for it to return.
func (r *informerRun) stop(t testing.TB) {
	t.Helper()
	r.cancel()
	select {
	case <-r.done:
	case <-time.After(30 * time.Second):
		t.Fatal("Run did not return after cancel")
	}
	r.clock.close()
	if !r.IsStopped() {
		t.Fatal("IsStopped false after Run returned")
	}
}

func mustAdd(t testing.TB, inf SharedInformer, h ResourceEventHandler, opts HandlerOptions) ResourceEventHandlerRegistration {
	t.Helper()
	reg, err := inf.AddEventHandlerWithOptions(h, opts)
	if err != nil {
		t.Fatal(err)
	}
	return reg
}

// convergeStall is how long waitConverged waits without any move towards
// convergence before it fails; convergeCap bounds the whole wait.
const (
	convergeStall = 20 * time.Second
	convergeCap   = 3 * time.Minute
)

// waitConverged waits until the cache equals the server's state and every
// handler's view equals the cache. Each round reads the handlers' views
// before the cache: the informer stores a change before it notifies it,
// so a view may lag the cache but is never ahead of it, and a view ahead
// of the cache is a real inconsistency, not a later snapshot. It fails
// when nothing moved towards convergence (the reflector's resourceVersion,
// the keys the cache has right, the keys each view has right) for
// convergeStall, not after a fixed time: under -race on a loaded machine
// an informer of 100k objects may need longer than any fixed budget to
// drain a burst of updates, and that is no failure.
func waitConverged(t testing.TB, srv *modelServer, inf *informerRun, handlers ...*viewHandler) {
	t.Helper()
	start := time.Now()
	stallDeadline := start.Add(convergeStall)
	var last convergeProgress
	for {
		c := readConvergence(srv, inf, handlers)
		if c.done() {
			return
		}
		if len(c.viewAhead) > 0 {
			t.Fatalf("a handler was notified of objects the cache does not hold (the cache went back in time): %v", c.viewAhead)
		}
		if p := c.progress(inf); p != last {
			last, stallDeadline = p, time.Now().Add(convergeStall)
		}
		if now := time.Now(); now.After(stallDeadline) || now.Sub(start) > convergeCap {
			t.Fatalf("not converged after %v (no progress for %v; server at resourceVersion %s, reflector at %s, %d keys queued): %s",
				time.Since(start).Round(time.Millisecond), time.Since(stallDeadline.Add(-convergeStall)).Round(time.Millisecond),
				srv.ResourceVersion(), inf.LastSyncResourceVersion(), inf.fifo.Load().Len(), c)
		}
		time.Sleep(time.Duration(1+len(c.objs)/1000) * time.Millisecond)
	}
}

// convergence is one reading of the server, the cache and the handlers'
// views, the views read first.
type convergence struct {
	want, got map[string]string // server and cache: key -> uid@rv
	objs      []any             // the cache's objects
	viewDiff  [][]string        // per handler: how its view differs from the cache
	viewRight []int             // per handler: keys whose view is the cached object
	// viewAhead lists, per handler, keys whose view holds a newer object
	// than the cache, read after it: never right (see viewsAheadOfCache).
	viewAhead []string
}

func readConvergence(srv *modelServer, inf *informerRun, handlers []*viewHandler) convergence {
	views := make([]map[string]any, len(handlers))
	for i, h := range handlers {
		views[i] = h.snapshot()
	}
	c := convergence{want: srv.state(), objs: inf.GetStore().List()}
	c.got = storeState(c.objs)
	cache := make(map[string]any, len(c.objs))
	for _, o := range c.objs {
		k, _ := MetaNamespaceKeyFunc(o)
		cache[k] = o
	}
	for i, v := range views {
		for _, k := range viewsAheadOfCache(v, cache) {
			c.viewAhead = append(c.viewAhead, fmt.Sprintf("handler %d: %s", i, k))
		}
		c.viewDiff = append(c.viewDiff, diffViews(v, cache))
		right := 0
		for k, o := range v {
			if cache[k] == o {
				right++
			}
		}
		c.viewRight = append(c.viewRight, right)
	}
	return c
}

// viewsAheadOfCache returns the keys (with both objects) for which view,
// read before cache, holds an object with a higher resourceVersion than
// the cache does. The informer stores every change before it notifies it,
// so a view read first can lag the cache but never lead it; a key for
// which it leads was notified and then lost, or overwritten with an older
// object, by the cache.
func viewsAheadOfCache(view, cache map[string]any) []string {
	var ahead []string
	for k, v := range view {
		c, ok := cache[k]
		if !ok {
			continue // deleted from the cache, delete not yet delivered
		}
		vo, co := v.(*metav1.PartialObjectMetadata), c.(*metav1.PartialObjectMetadata)
		vrv, _ := strconv.ParseInt(vo.ResourceVersion, 10, 64)
		crv, _ := strconv.ParseInt(co.ResourceVersion, 10, 64)
		if vrv > crv {
			ahead = append(ahead, fmt.Sprintf("%s: view @%d, cache @%d", k, vrv, crv))
		}
	}
	sort.Strings(ahead)
	return ahead
}

func (c convergence) done() bool {
	if !maps.Equal(c.got, c.want) {
		return false
	}
	for _, d := range c.viewDiff {
		if len(d) > 0 {
			return false
		}
	}
	return true
}

// convergeProgress is what waitConverged watches move.
type convergeProgress struct {
	resourceVersion string
	cacheRight      int
	viewsRight      string
}

func (c convergence) progress(inf *informerRun) convergeProgress {
	right := 0
	for k, v := range c.want {
		if c.got[k] == v {
			right++
		}
	}
	return convergeProgress{resourceVersion: inf.LastSyncResourceVersion(), cacheRight: right, viewsRight: fmt.Sprint(c.viewRight)}
}

// String describes how the cache differs from the server, and the views
// from the cache, in at most ten lines each.
func (c convergence) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "cache holds %d objects, server %d", len(c.got), len(c.want))
	n := 0
	for k, w := range c.want {
		if g := c.got[k]; g != w {
			if n++; n <= 10 {
				fmt.Fprintf(&b, "\n  %s: cache %q, server %q", k, g, w)
			}
		}
	}
	for k, g := range c.got {
		if _, ok := c.want[k]; !ok {
			if n++; n <= 10 {
				fmt.Fprintf(&b, "\n  %s: cache %q, not on the server", k, g)
			}
		}
	}
	if n > 10 {
		fmt.Fprintf(&b, "\n  ... %d differences in all", n)
	}
	for i, d := range c.viewDiff {
		if len(d) > 0 {
			fmt.Fprintf(&b, "\nhandler %d view vs cache: %v", i, d)
		}
	}
	return b.String()
}

func fill(srv *modelServer, n int) {
	for i := 0; i < n; i++ {
		srv.put("o"+strconv.Itoa(i), false)
	}
}

func TestInformerHandlerAddedAfterStartGetsContentAsInitialAdds(t *testing.T) {
	defer goleak.VerifyNone(t)
	srv := newModelServer()
	fill(srv, 50)
	inf := startInformer(t, srv, SharedIndexInformerOptions{}, nil)
	defer inf.stop(t)
	if !WaitForCacheSyncWithContext(context.Background(), inf.HasSynced) {
		t.Fatal("informer did not sync")
	}
	h := newViewHandler()
	h.gate = make(chan struct{})
	reg := mustAdd(t, inf, h, HandlerOptions{Name: "late"})
	if reg.HasSynced() {
		t.Fatal("registration synced before its handler got the content")
	}
	close(h.gate)
	if !WaitForCacheSyncWithContext(context.Background(), reg.HasSynced) {
		t.Fatal("registration never synced")
	}
	h.mu.Lock()
	adds, initial := h.adds, h.initial
	h.mu.Unlock()
	if adds != 50 || initial != 50 {
		t.Fatalf("got %d adds (%d initial), want 50 initial adds", adds, initial)
	}
	srv.put("late-one", false)
	waitConverged(t, srv, inf, h)
	h.checkViolations(t)
}

func TestInformerRegistrationSyncsOnlyAfterItsHandlerGotTheInitialList(t *testing.T) {
	defer goleak.VerifyNone(t)
	srv := newModelServer()
	fill(srv, 20)
	slow, fast := newViewHandler(), newViewHandler()
	slow.gate = make(chan struct{})
	var slowReg, fastReg ResourceEventHandlerRegistration
	inf := startInformer(t, srv, SharedIndexInformerOptions{}, func(s *sharedIndexInformer) {
		slowReg = mustAdd(t, s, slow, HandlerOptions{Name: "slow"})
		fastReg = mustAdd(t, s, fast, HandlerOptions{Name: "fast"})
	})
	defer inf.stop(t)
	if !WaitForCacheSyncWithContext(context.Background(), inf.HasSynced, fastReg.HasSynced) {
		t.Fatal("no sync")
	}
	if slowReg.HasSynced() {
		t.Fatal("blocked handler's registration reports synced")
	}
	close(slow.gate)
	if !WaitForCacheSyncWithContext(context.Background(), slowReg.HasSynced) {
		t.Fatal("slow registration never synced")
	}
	if slow.initial != 20 {
		t.Fatalf("slow handler got %d initial adds, want 20", slow.initial)
	}
}

func TestInformerStopsWhileInitialListIsBeingProcessed(t *testing.T) {
	defer goleak.VerifyNone(t)
	srv := newModelServer()
	fill(srv, 20000)
	h := newViewHandler()
	inf := startInformer(t, srv, SharedIndexInformerOptions{}, func(s *sharedIndexInformer) {
		mustAdd(t, s, h, HandlerOptions{})
	})
	cachetest.Eventually(t, "processing to start", func() bool { return len(h.snapshot()) > 0 || inf.HasSynced() })
	inf.stop(t)
	if _, err := inf.AddEventHandler(newViewHandler()); err == nil {
		t.Fatal("AddEventHandler succeeded on a stopped informer")
	}
	inf.RunWithContext(context.Background()) // second Run returns at once
}

func TestInformerResumesAfterWatchDropWithoutRelisting(t *testing.T) {
	defer goleak.VerifyNone(t)
	srv := newModelServer()
	fill(srv, 10)
	h := newViewHandler()
	inf := startInformer(t, srv, SharedIndexInformerOptions{}, func(s *sharedIndexInformer) {
		mustAdd(t, s, h, HandlerOptions{})
	})
	defer inf.stop(t)
	waitConverged(t, srv, inf, h)
	for round := 0; round < 3; round++ {
		srv.put("o1", false)
		srv.closeWatches()
		srv.remove("o2")
		srv.put("n"+strconv.Itoa(round), false)
		waitConverged(t, srv, inf, h)
	}
	h.checkViolations(t)
	if lists, _ := srv.counts(); lists != 1 {
		t.Fatalf("%d lists, want 1: a dropped watch resumes from its resourceVersion", lists)
	}
	if h.tombstones != 0 {
		t.Fatalf("%d tombstones, want 0: deletes were seen on the watch", h.tombstones)
	}
}

func TestInformerRelistAfterExpiryDeliversTombstonesWithLastState(t *testing.T) {
	defer goleak.VerifyNone(t)
	srv := newModelServer()
	fill(srv, 5)
	var mu sync.Mutex
	tombstones := map[string]DeletedFinalStateUnknown{}
	h := newViewHandler()
	inf := startInformer(t, srv, SharedIndexInformerOptions{}, func(s *sharedIndexInformer) {
		mustAdd(t, s, h, HandlerOptions{})
		mustAdd(t, s, ResourceEventHandlerFuncs{DeleteFunc: func(obj any) {
			if d, ok := obj.(DeletedFinalStateUnknown); ok {
				mu.Lock()
				tombstones[d.Key] = d
				mu.Unlock()
			}
		}}, HandlerOptions{})
	})
	defer inf.stop(t)
	waitConverged(t, srv, inf, h)
	lastState, _, _ := inf.GetStore().GetByKey("ns/o3")
	srv.partition(func(p *partitionOps) { p.remove("o3"); p.put("o4", false) })
	waitConverged(t, srv, inf, h)
	h.checkViolations(t)
	// Convergence is judged on the first handler; the second one, which
	// records tombstones, runs on its own goroutine.
	cachetest.Eventually(t, "tombstone delivered to the second handler", func() bool {
		mu.Lock()
		defer mu.Unlock()
		return len(tombstones) > 0
	})
	mu.Lock()
	defer mu.Unlock()
	d, ok := tombstones["ns/o3"]
	if !ok || len(tombstones) != 1 {
		t.Fatalf("tombstones %v, want one for ns/o3", tombstones)
	}
	if d.Obj != lastState {
		t.Fatalf("tombstone carries %v, want the last cached state %v", d.Obj, lastState)
	}
}

func TestInformerRelistOfUnchangedObjectsIsSilent(t *testing.T) {
	defer goleak.VerifyNone(t)
	srv := newModelServer()
	fill(srv, 30)
	h := newViewHandler()
	inf := startInformer(t, srv, SharedIndexInformerOptions{ResyncPeriod: time.Hour}, func(s *sharedIndexInformer) {
		mustAdd(t, s, h, HandlerOptions{})
	})
	defer inf.stop(t)
	waitConverged(t, srv, inf, h)
	srv.put("o7", false)
	waitConverged(t, srv, inf, h)
	srv.expire()
	cachetest.Eventually(t, "relist", func() bool { l, _ := srv.counts(); return l == 2 })
	srv.put("o8", false) // a marker behind the relist
	waitConverged(t, srv, inf, h)
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.updates != 2 || h.deletes != 0 || h.adds != 30 || h.resyncs != 0 {
		t.Fatalf("adds %d updates %d deletes %d resyncs %d; want 30, 2 (the real changes), 0, 0", h.adds, h.updates, h.deletes, h.resyncs)
	}
}

func TestInformerRecreatedObjectIsDeleteThenAdd(t *testing.T) {
	tests := []struct {
		name          string
		recreate      func(srv *modelServer)
		wantTombstone bool
	}{
		{"watch", func(srv *modelServer) { srv.put("o1", true) }, false},
		{"relist", func(srv *modelServer) { srv.partition(func(p *partitionOps) { p.put("o1", true) }) }, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			defer goleak.VerifyNone(t)
			srv := newModelServer()
			fill(srv, 3)
			var mu sync.Mutex
			var calls []string
			record := func(s string) { mu.Lock(); calls = append(calls, s); mu.Unlock() }
			h := newViewHandler()
			inf := startInformer(t, srv, SharedIndexInformerOptions{}, func(s *sharedIndexInformer) {
				mustAdd(t, s, h, HandlerOptions{})
				mustAdd(t, s, ResourceEventHandlerFuncs{
					AddFunc: func(obj any) {
						record("add " + string(obj.(*metav1.PartialObjectMetadata).UID))
					},
					UpdateFunc: func(_, obj any) { record("update") },
					DeleteFunc: func(obj any) {
						if d, ok := obj.(DeletedFinalStateUnknown); ok {
							record("tombstone " + string(d.Obj.(*metav1.PartialObjectMetadata).UID))
							return
						}
						record("delete " + string(obj.(*metav1.PartialObjectMetadata).UID))
					},
				}, HandlerOptions{})
			})
			defer inf.stop(t)
			waitConverged(t, srv, inf, h)
			old, _, _ := inf.GetStore().GetByKey("ns/o1")
			oldUID := string(old.(*metav1.PartialObjectMetadata).UID)
			mu.Lock()
			calls = nil
			mu.Unlock()
			tt.recreate(srv)
			waitConverged(t, srv, inf, h)
			h.checkViolations(t)
			cur, _, _ := inf.GetStore().GetByKey("ns/o1")
			newUID := string(cur.(*metav1.PartialObjectMetadata).UID)
			del := "delete "
			if tt.wantTombstone {
				del = "tombstone "
			}
			want := []string{del + oldUID, "add " + newUID}
			mu.Lock()
			defer mu.Unlock()
			if fmt.Sprint(calls) != fmt.Sprint(want) {
				t.Fatalf("calls %v, want %v", calls, want)
			}
		})
	}
}

func TestInformerStalledHandlerIsBoundedAndConverges(t *testing.T) {
	defer goleak.VerifyNone(t)
	// 10,000 keys in the test command, 100,000 in the scale job.
	keys := cachetest.Scale(10000, 100000)
	updates := 2 * keys
	srv := newModelServer()
	fill(srv, keys)
	stalled, healthy := newViewHandler(), newViewHandler()
	stalled.gate = make(chan struct{})
	var stalledReg ResourceEventHandlerRegistration
	inf := startInformer(t, srv, SharedIndexInformerOptions{}, func(s *sharedIndexInformer) {
		stalledReg = mustAdd(t, s, stalled, HandlerOptions{Name: "stalled"})
		mustAdd(t, s, healthy, HandlerOptions{Name: "healthy"})
	})
	defer inf.stop(t)
	// On failure, open the gate before stopping: the stalled handler's
	// goroutine must return for Run to return and leak nothing into the
	// tests that follow.
	gateOpen := false
	defer func() {
		if !gateOpen {
			close(stalled.gate)
		}
	}()
	waitConverged(t, srv, inf, healthy)
	stalledListener := stalledReg.(*registration).listener
	for i := 0; i < updates; i++ {
		name := "o" + strconv.Itoa(i%keys)
		switch {
		case i%97 == 0:
			srv.remove(name)
		case i%89 == 0:
			srv.put(name, true)
		default:
			srv.put(name, false)
		}
	}
	waitConverged(t, srv, inf, healthy)
	// The peak the listener kept of every count it reached, not samples.
	maxPending := stalledListener.PeakPending()
	if bound := keys + delivery.DefaultFastCapacity; maxPending > bound {
		t.Fatalf("stalled handler held %d notifications, want <= %d (distinct keys + buffer)", maxPending, bound)
	}
	t.Logf("stalled handler held at most %d notifications for %d keys and %d updates", maxPending, keys, updates)
	close(stalled.gate)
	gateOpen = true
	waitConverged(t, srv, inf, healthy, stalled)
	stalled.checkViolations(t)
	healthy.checkViolations(t)
}

func TestInformerResyncGoesToOnResyncPerHandlerPeriod(t *testing.T) {
	defer goleak.VerifyNone(t)
	srv := newModelServer()
	fill(srv, 3)
	var mu sync.Mutex
	counts := map[string]int{}
	count := func(what string) func(any) {
		return func(any) { mu.Lock(); counts[what]++; mu.Unlock() }
	}
	second, hour := time.Second, time.Hour
	inf := startInformer(t, srv, SharedIndexInformerOptions{}, func(s *sharedIndexInformer) {
		mustAdd(t, s, ResourceEventHandlerFuncs{
			UpdateFunc: func(any, any) { count("fast update")(nil) },
			ResyncFunc: count("fast resync"),
		}, HandlerOptions{ResyncPeriod: &second})
		mustAdd(t, s, ResourceEventHandlerFuncs{
			UpdateFunc: func(any, any) { count("slow update")(nil) },
			ResyncFunc: count("slow resync"),
		}, HandlerOptions{ResyncPeriod: &hour})
		mustAdd(t, s, ResourceEventHandlerFuncs{
			UpdateFunc: func(any, any) { count("none update")(nil) },
			ResyncFunc: count("none resync"),
		}, HandlerOptions{})
	})
	defer inf.stop(t)
	cachetest.Eventually(t, "three resync rounds", func() bool { mu.Lock(); defer mu.Unlock(); return counts["fast resync"] >= 9 })
	mu.Lock()
	defer mu.Unlock()
	if counts["fast update"]+counts["slow update"]+counts["none update"]+counts["none resync"] != 0 {
		t.Fatalf("counts %v: resyncs must reach only handlers asking for them, as OnResync", counts)
	}
	if counts["slow resync"] >= counts["fast resync"] {
		t.Fatalf("counts %v: the 1h handler resynced as often as the 1s one", counts)
	}
}

func TestInformerRemoveEventHandlerStopsDeliveries(t *testing.T) {
	defer goleak.VerifyNone(t)
	srv := newModelServer()
	fill(srv, 3)
	removed, kept := newViewHandler(), newViewHandler()
	var reg ResourceEventHandlerRegistration
	inf := startInformer(t, srv, SharedIndexInformerOptions{}, func(s *sharedIndexInformer) {
		reg = mustAdd(t, s, removed, HandlerOptions{})
		mustAdd(t, s, kept, HandlerOptions{})
	})
	defer inf.stop(t)
	waitConverged(t, srv, inf, removed, kept)
	if err := inf.RemoveEventHandler(reg); err != nil {
		t.Fatal(err)
	}
	if err := inf.RemoveEventHandler(reg); err != nil {
		t.Fatalf("second removal: %v", err)
	}
	before := len(removed.snapshot())
	removed.mu.Lock()
	calls := removed.calls
	removed.mu.Unlock()
	srv.put("after", false)
	waitConverged(t, srv, inf, kept)
	removed.mu.Lock()
	defer removed.mu.Unlock()
	if removed.calls != calls || len(removed.view) != before {
		t.Fatalf("removed handler got %d more calls", removed.calls-calls)
	}
}

func TestInformerTransformAppliesBeforeCacheAndHandlers(t *testing.T) {
	defer goleak.VerifyNone(t)
	srv := newModelServer()
	fill(srv, 5)
	var mu sync.Mutex
	var untransformed []string
	h := ResourceEventHandlerFuncs{
		AddFunc: func(obj any) {
			if obj.(*metav1.PartialObjectMetadata).Annotations["t"] != "1" {
				mu.Lock()
				untransformed = append(untransformed, "add")
				mu.Unlock()
			}
		},
		UpdateFunc: func(_, obj any) {
			if obj.(*metav1.PartialObjectMetadata).Annotations["t"] != "1" {
				mu.Lock()
				untransformed = append(untransformed, "update")
				mu.Unlock()
			}
		},
	}
	inf := startInformer(t, srv, SharedIndexInformerOptions{}, func(s *sharedIndexInformer) {
		if err := s.SetTransform(func(obj any) (any, error) {
			o := obj.(*metav1.PartialObjectMetadata)
			o.Annotations = map[string]string{"t": "1"}
			return o, nil
		}); err != nil {
			t.Fatal(err)
		}
		mustAdd(t, s, h, HandlerOptions{})
	})
	defer inf.stop(t)
	srv.put("o1", false)
	waitConverged(t, srv, inf)
	if err := inf.SetTransform(nil); err == nil {
		t.Fatal("SetTransform succeeded after start")
	}
	if err := inf.SetWatchErrorHandler(nil); err == nil {
		t.Fatal("SetWatchErrorHandler succeeded after start")
	}
	for _, o := range inf.GetStore().List() {
		if o.(*metav1.PartialObjectMetadata).Annotations["t"] != "1" {
			t.Fatalf("cached object %v not transformed", o)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if len(untransformed) > 0 {
		t.Fatalf("handlers got untransformed objects: %v", untransformed)
	}
}

func TestInformerMutationDetectorCatchesMutatingHandler(t *testing.T) {
	defer goleak.VerifyNone(t)
	srv := newModelServer()
	fill(srv, 3)
	var mu sync.Mutex
	var reports []string
	inf := startInformer(t, srv, SharedIndexInformerOptions{DetectCacheMutations: true}, func(s *sharedIndexInformer) {
		s.detector.Fail = func(msg string) { mu.Lock(); reports = append(reports, msg); mu.Unlock() }
		mustAdd(t, s, ResourceEventHandlerFuncs{AddFunc: func(obj any) {
			if o := obj.(*metav1.PartialObjectMetadata); o.Name == "o1" {
				o.Labels = map[string]string{"mutated": "yes"}
			}
		}}, HandlerOptions{})
	})
	waitConverged(t, srv, inf)
	// The cache converges before the handler is called; the detector
	// checks after the call returns.
	cachetest.Eventually(t, "a mutation report", func() bool { mu.Lock(); defer mu.Unlock(); return len(reports) > 0 })
	inf.stop(t)
	mu.Lock()
	defer mu.Unlock()
	if len(reports) == 0 || !strings.Contains(reports[0], `"ns/o1"`) {
		t.Fatalf("reports %q, want one naming ns/o1", reports)
	}
}

func TestInformerAddIndexersAfterStart(t *testing.T) {
	defer goleak.VerifyNone(t)
	srv := newModelServer()
	fill(srv, 4)
	inf := startInformer(t, srv, SharedIndexInformerOptions{Indexers: Indexers{NamespaceIndex: MetaNamespaceIndexFunc}}, nil)
	defer inf.stop(t)
	waitConverged(t, srv, inf)
	if err := inf.AddIndexers(Indexers{"name": func(obj any) ([]string, error) {
		return []string{obj.(*metav1.PartialObjectMetadata).Name}, nil
	}}); err != nil {
		t.Fatal(err)
	}
	got, err := inf.GetIndexer().ByIndex("name", "o2")
	if err != nil || len(got) != 1 {
		t.Fatalf("ByIndex = %v, %v; want one object", got, err)
	}
	if inf.LastSyncResourceVersion() == "" {
		t.Fatal("empty LastSyncResourceVersion after sync")
	}
}
