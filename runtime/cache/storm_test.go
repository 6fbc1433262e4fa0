package cache

import (
	"context"
	"fmt"
	"runtime"
	"runtime/metrics"
	"strconv"
	"testing"
	"unsafe"

	"go.uber.org/goleak"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/informer-gen/informer-gen/runtime/cache/cachetest"
	"github.com/informer-gen/informer-gen/runtime/cache/internal/delivery"
)

// stormPayload is the bytes each object version carries of its own (in
// managedFields, which a deep copy copies), so that an object's size is
// dominated by what a real object carries and not by its metadata.
const stormPayload = 1024

// stormHandlers are the handlers each informer of the storm has: one that
// keeps up, two that take one notification per four changes of the
// server, two that take none until the storm ends; of each slow kind, one
// keeps old states (regular) and one is LatestOnly.
var stormHandlers = []struct {
	name       string
	every      int // pace: -1 none, 0 stalled, k: one notification per k changes
	latestOnly bool
}{
	{name: "fast", every: -1},
	{name: "slow", every: 4},
	{name: "slow-latest", every: 4, latestOnly: true},
	{name: "stalled", every: 0},
	{name: "stalled-latest", every: 0, latestOnly: true},
}

// stormSize is one size of the storm.
type stormSize struct {
	keys      int // objects on the server
	rounds    int // each round changes every key once
	informers int
}

// TestInformerHeapStaysBoundedUnderWatchStorm: a server whose objects all
// change, round after round, faster than most handlers take their
// notifications, with several informers watching it and several handlers
// on each (see stormHandlers). The informers' live heap, sampled after a
// forced GC at the end of every round, stays under the bound derived
// below, whatever the number of rounds; once the storm ends and the
// handlers are let go, every handler's view, built from its notifications
// alone, equals the server's final objects.
//
// # The bound
//
// Let n be the number of keys, s the measured heap of one object version
// (built as the server builds one: metadata and its own payload), F the
// in-order buffer of a listener (delivery.DefaultFastCapacity), I the
// informers and, per informer, R listeners that keep old states and Q
// LatestOnly ones. The quiet heap H1 is measured once the informers synced
// and every handler holds the initial objects: it has the server's n
// objects and history, each informer's n cached objects and index, each
// handler's view. What the storm may add on top of H1:
//
//   - the server's history, limited to L = n changes (SetHistoryLimit):
//     L+1 versions no longer current, each in a history record (the
//     server also keeps what an open watch has not sent yet; the
//     Reflectors read their watches as fast as the queue below takes
//     them, so that stays within the same round);
//   - per informer, its queue (DeltaFIFO) between the Reflector and the
//     processing goroutine: that goroutine never waits for a handler
//     (Listener.Push never blocks), so the queue holds at most one round,
//     n deltas, each a version and a record (an assumption the test checks:
//     a queue that grew with the events would break the bound);
//   - per listener, the in-order buffer and the batch being delivered: 2F
//     notifications, each a record, a new version and an old one, where
//     an old one is the new one of an earlier notification of its key or
//     one of the at most min(2F, n) versions the handler held before: 2F
//     records and 2F + min(2F, n) versions;
//   - per listener, the coalesced backlog: one change per key, and as many
//     taken out of it for delivery, so at most 2n changes: a record each,
//     plus for a regular listener the old state it retains (the new one is
//     the version the cache holds, already in H1); a LatestOnly listener
//     retains none.
//
// Every record (history entry, delta, notification, pending change with
// its index slot) is counted as one object version: each is a few words
// (delivery.Notification is unsafe.Sizeof bytes, checked below to be
// smaller than s) and an object is over stormPayload bytes. So, in object
// versions,
//
//	V = 2(L+1) + I·[2n + (R+Q)·(4F + min(2F, n)) + R·4n + Q·2n]
//
// and the bound is H1 + V·s + A, where A is what the program allocated
// while the sampling GC ran (such objects are counted live by that cycle
// whether or not they are). Nothing in it grows with the rounds: a storm
// ten times as long has the same bound.
func TestInformerHeapStaysBoundedUnderWatchStorm(t *testing.T) {
	defer goleak.VerifyNone(t)
	// The informers run as in production: the test binaries' check after
	// each handler call (test_checks.go) would cost a hash of the object
	// per call, 15 listeners times every change, and measure nothing here.
	t.Setenv(testChecksEnv, "false")
	size := stormSize{
		keys:      cachetest.Scale(1000, 10000),
		rounds:    cachetest.Scale(60, 100),
		informers: 3,
	}
	s := objectBytes(t, size.keys)
	if rec := int64(unsafe.Sizeof(delivery.Notification{})); rec >= s {
		t.Fatalf("a notification record (%d bytes) is not smaller than an object (%d bytes): the bound's records-as-objects count does not hold", rec, s)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	storm := startStorm(ctx, t, size)
	defer storm.stop(t)

	quiet, _ := liveHeap()
	bound := int64(quiet) + stormVersions(size)*s
	peak, peakAllowance, peakQueue := storm.run(t)
	t.Logf("keys %d, rounds %d, informers %d, object %d B: quiet heap %d B, peak live heap %d B (GC allowance %d B), bound %d B + allowance; largest queue %d keys",
		size.keys, size.rounds, size.informers, s, quiet, peak, peakAllowance, bound, peakQueue)
	if int64(peak) > bound+int64(peakAllowance) {
		t.Fatalf("live heap %d B during the storm exceeds the bound %d B + %d B allocated during the sampling GC (quiet heap %d B, %d object versions of %d B)",
			peak, bound, peakAllowance, quiet, stormVersions(size), s)
	}
	storm.releaseAndConverge(t)
}

// stormVersions is V of the test's doc comment: the object versions the
// storm may add to the quiet heap.
func stormVersions(size stormSize) int64 {
	n, f := int64(size.keys), int64(delivery.DefaultFastCapacity)
	var regular, latest int64
	for _, h := range stormHandlers {
		if h.latestOnly {
			latest++
		} else {
			regular++
		}
	}
	perListener := 4*f + min(2*f, n)
	perInformer := 2*n + (regular+latest)*perListener + regular*4*n + latest*2*n
	history := n
	return 2*(history+1) + int64(size.informers)*perInformer
}

// storm is the running storm: the server, its informers and their
// handlers.
type storm struct {
	size      stormSize
	srv       *modelServer
	informers []*informerRun
	handlers  []*stormHandler
	paces     []*pace
	present   []bool // by key index: the object exists; the writer's own
}

// startStorm fills the server, starts the informers with their handlers
// and returns once every handler holds the server's objects.
func startStorm(ctx context.Context, t *testing.T, size stormSize) *storm {
	t.Helper()
	st := &storm{size: size, srv: newModelServer(), present: make([]bool, size.keys)}
	st.srv.SetHistoryLimit(size.keys)
	for i := range size.keys {
		st.write(i, 0)
	}
	for range size.informers {
		inf := startInformer(t, st.srv, SharedIndexInformerOptions{}, func(inf *sharedIndexInformer) {
			for _, spec := range stormHandlers {
				var p *pace
				if spec.every >= 0 {
					p = newPace(spec.every)
					st.paces = append(st.paces, p)
				}
				h := newStormHandler(ctx, p, spec.latestOnly)
				st.handlers = append(st.handlers, h)
				mustAdd(t, inf, h, HandlerOptions{Name: spec.name, LatestOnly: spec.latestOnly})
			}
		})
		st.informers = append(st.informers, inf)
	}
	st.waitViews(t, "every handler holds the initial objects")
	return st
}

// write makes the server's change of key i in round r: every seventh key
// (shifting with the round) is deleted, or created again when it is gone;
// every other present key is updated.
func (st *storm) write(i, r int) {
	name := "o" + strconv.Itoa(i)
	switch {
	case !st.present[i]:
		if _, err := st.srv.Add(stormObject(name, r)); err != nil {
			panic(err)
		}
	case (i+r)%7 == 0:
		if _, err := st.srv.Delete("ns", name); err != nil {
			panic(err)
		}
	default:
		if _, err := st.srv.Update(stormObject(name, r)); err != nil {
			panic(err)
		}
	}
	st.present[i] = !st.present[i] || (i+r)%7 != 0
}

// run makes the storm's rounds with the slow handlers held, and returns
// the largest live heap sampled at the end of a round, the GC allowance
// of that sample and the most keys an informer's queue held at a sample.
func (st *storm) run(t *testing.T) (peak, allowance uint64, queue int) {
	t.Helper()
	for _, p := range st.paces {
		p.hold()
	}
	changes := 0
	for r := 1; r <= st.size.rounds; r++ {
		for i := range st.size.keys {
			st.write(i, r)
			changes++
			for _, p := range st.paces {
				p.tick(changes)
			}
		}
		for _, inf := range st.informers {
			queue = max(queue, inf.fifo.Load().Len())
		}
		if live, a := liveHeap(); live > peak {
			peak, allowance = live, a
		}
	}
	return peak, allowance, queue
}

// releaseAndConverge lets the slow handlers go and waits until every
// handler's view is the server's final state, with no inconsistent
// notification on the way.
func (st *storm) releaseAndConverge(t *testing.T) {
	t.Helper()
	for _, p := range st.paces {
		p.release()
	}
	st.waitViews(t, "every handler's view equals the server's final objects")
	for i, h := range st.handlers {
		h.mu.Lock()
		v := h.violation
		h.mu.Unlock()
		if v != "" {
			t.Errorf("handler %s of informer %d: %s", stormHandlers[i%len(stormHandlers)].name, i/len(stormHandlers), v)
		}
	}
}

// waitViews waits until every handler's view equals the server's objects;
// on failure it names the first handler that differs and how.
func (st *storm) waitViews(t *testing.T, what string) {
	t.Helper()
	want := st.srv.state()
	cachetest.EventuallyExplained(t, func() (bool, string) {
		for i, h := range st.handlers {
			if d := h.diff(want); d != "" {
				return false, fmt.Sprintf("%s: handler %s of informer %d: %s", what,
					stormHandlers[i%len(stormHandlers)].name, i/len(stormHandlers), d)
			}
		}
		return true, ""
	})
}

// stop stops the informers.
func (st *storm) stop(t *testing.T) {
	t.Helper()
	for _, p := range st.paces {
		p.mu.Lock()
		select {
		case <-p.free:
		default:
			close(p.free)
		}
		p.mu.Unlock()
	}
	for _, inf := range st.informers {
		inf.stop(t)
	}
}

// stormPattern is what payloads are cut from: 256 + stormPayload bytes
// counting up, so versions of different rounds differ.
var stormPattern = func() []byte {
	p := make([]byte, 256+stormPayload)
	for i := range p {
		p[i] = byte(i)
	}
	return p
}()

// stormObject is version r of the object name: its metadata and
// stormPayload bytes of its own.
func stormObject(name string, r int) *metav1.PartialObjectMetadata {
	o := modelObject(name)
	raw := make([]byte, stormPayload)
	copy(raw, stormPattern[r%256:])
	o.ManagedFields = []metav1.ManagedFieldsEntry{{Manager: "storm", FieldsV1: &metav1.FieldsV1{Raw: raw}}}
	return o
}

// objectBytes measures s: the live heap of one object version as the
// server stores it (a copy with its UID and resourceVersion strings), by
// the live heap n of them add.
func objectBytes(t *testing.T, n int) int64 {
	t.Helper()
	objs := make([]*metav1.PartialObjectMetadata, n)
	before, _ := liveHeap()
	for i := range objs {
		o := stormObject("o"+strconv.Itoa(i), i)
		o.UID = types.UID("uid-" + strconv.Itoa(i))
		o.ResourceVersion = strconv.Itoa(1_000_000 + i)
		objs[i] = o.DeepCopy()
	}
	after, _ := liveHeap()
	runtime.KeepAlive(objs)
	if after <= before {
		t.Fatalf("%d objects added no live heap (%d B before, %d B after)", n, before, after)
	}
	return int64(after-before) / int64(n)
}

// liveHeap forces a GC and returns the live heap it marked and the bytes
// allocated while it ran.
func liveHeap() (live, allocatedDuring uint64) {
	samples := []metrics.Sample{{Name: "/gc/heap/allocs:bytes"}, {Name: "/gc/heap/live:bytes"}}
	metrics.Read(samples[:1])
	before := samples[0].Value.Uint64()
	runtime.GC()
	metrics.Read(samples)
	return samples[1].Value.Uint64(), samples[0].Value.Uint64() - before
}
