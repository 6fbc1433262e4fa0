package delivery

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/informer-gen/informer-gen/runtime/cache/cachetest"
	"go.uber.org/goleak"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// listenerModel plays random store changes into a listener the way the
// informer does, and remembers the final content.
type listenerModel struct {
	l     *Listener
	store map[string]any
	uid   int
	rv    int
}

func (m *listenerModel) step(r *rand.Rand, keys int) {
	name := "k" + strconv.Itoa(r.IntN(keys))
	key := "ns/" + name
	old, present := m.store[key]
	m.rv++
	rv := strconv.Itoa(m.rv)
	switch op := r.IntN(10); {
	case !present:
		m.uid++
		obj := uidObject("ns", name, strconv.Itoa(m.uid), rv)
		m.store[key] = obj
		m.l.Push(Notification{Kind: Add, Key: key, New: obj})
	case op < 5:
		obj := uidObject("ns", name, string(old.(*metav1.PartialObjectMetadata).UID), rv)
		m.store[key] = obj
		m.l.Push(Notification{Kind: Update, Key: key, Old: old, New: obj})
	case op < 6:
		m.l.Push(Notification{Kind: Resync, Key: key, New: old})
	case op < 8:
		delete(m.store, key)
		var gone any = old
		if op == 7 {
			gone = tombstone{Key: key, Obj: old}
		}
		m.l.Push(Notification{Kind: Delete, Key: key, Old: gone})
	default: // re-created under the same key
		m.uid++
		obj := uidObject("ns", name, strconv.Itoa(m.uid), rv)
		m.store[key] = obj
		m.l.Push(Notification{Kind: Delete, Key: key, Old: old})
		m.l.Push(Notification{Kind: Add, Key: key, New: obj})
	}
}

func TestListenerDeliversInOrderWhenKeepingUp(t *testing.T) {
	defer goleak.VerifyNone(t)
	var got []string
	done := make(chan struct{})
	h := funcs{
		add: func(obj any, _ bool) {
			got = append(got, "add "+obj.(interface{ GetName() string }).GetName())
		},
		delete: func(obj any) {
			got = append(got, "delete "+obj.(interface{ GetName() string }).GetName())
			close(done)
		},
	}
	l := newListener(h, "t", 0)
	go l.run()
	l.Push(Notification{Kind: Add, Key: "ns/b", New: testObject("ns", "b", "1")})
	l.Push(Notification{Kind: Add, Key: "ns/a", New: testObject("ns", "a", "1")})
	l.Push(Notification{Kind: Delete, Key: "ns/b", Old: testObject("ns", "b", "1")})
	<-done
	l.stop()
	want := []string{"add b", "add a", "delete b"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("got %v, want %v", got, want)
	}
}

func TestListenerStalledHandlerHoldsAtMostOneEntryPerKeyAndConverges(t *testing.T) {
	defer goleak.VerifyNone(t)
	const fastCap, keys = 8, 50
	for _, latestOnly := range []bool{false, true} {
		for seed := uint64(1); seed <= 20; seed++ {
			t.Run(fmt.Sprintf("latestOnly=%v/%d", latestOnly, seed), func(t *testing.T) {
				testStalledListenerConverges(t, seed, fastCap, keys, latestOnly)
			})
		}
	}
}

// testStalledListenerConverges plays random changes into a listener
// whose handler keeps up, stalls the handler, plays 5000 more, then
// releases it and checks that the handler ends with the store's content,
// having been given only consistent calls.
func testStalledListenerConverges(t *testing.T, seed uint64, fastCap, keys int, latestOnly bool) {
	r := rand.New(rand.NewPCG(seed, seed))
	h := newViewHandler()
	h.nilOld = latestOnly
	l := newListener(h, "stalled", fastCap)
	l.latestOnly = latestOnly
	go l.run()
	defer l.stop()
	m := &listenerModel{l: l, store: map[string]any{}}
	for i := 0; i < 3*keys; i++ {
		m.step(r, keys)
	}
	cachetest.Eventually(t, "handler to keep up", func() bool { return l.Pending() == 0 && len(diffViews(h.snapshot(), m.store)) == 0 })
	gate := h.stall()
	for i := 0; i < 5000; i++ {
		m.step(r, keys)
		if n := l.Pending(); n > fastCap+keys {
			t.Fatalf("after %d events %d notifications pending, want <= %d", i+1, n, fastCap+keys)
		}
	}
	close(gate)
	cachetest.Eventually(t, "listener to drain", func() bool { return l.Pending() == 0 && len(diffViews(h.snapshot(), m.store)) == 0 })
	h.checkViolations(t)
	if d := diffViews(h.snapshot(), m.store); len(d) > 0 {
		t.Fatalf("handler view differs from the store: %v", d)
	}
	h.mu.Lock()
	nilOlds := h.nilOlds
	h.mu.Unlock()
	if nilOlds > 0 && !latestOnly {
		t.Fatalf("%d updates with a nil old object, want none", nilOlds)
	}
}

func TestListenerCoalescedUpdateCarriesLastGivenStateOrNilWhenLatestOnly(t *testing.T) {
	defer goleak.VerifyNone(t)
	a1, b1, c1 := testObject("ns", "a", "1"), testObject("ns", "b", "1"), testObject("ns", "c", "1")
	a2, b2, c2, c3 := testObject("ns", "a", "2"), testObject("ns", "b", "2"), testObject("ns", "c", "2"), testObject("ns", "c", "3")
	tests := []struct {
		name       string
		latestOnly bool
		wantOld    any
	}{
		{"exact old by default", false, c1},
		{"nil old when latestOnly", true, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newViewHandler()
			h.nilOld = tt.latestOnly
			var mu sync.Mutex
			var gotOld, gotNew []any
			l := newListener(funcs{
				add: h.OnAdd,
				update: func(oldObj, newObj any) {
					h.OnUpdate(oldObj, newObj)
					if newObj.(*metav1.PartialObjectMetadata).Name == "c" {
						mu.Lock()
						gotOld, gotNew = append(gotOld, oldObj), append(gotNew, newObj)
						mu.Unlock()
					}
				},
			}, "t", 1)
			l.latestOnly = tt.latestOnly
			go l.run()
			defer l.stop()
			for _, o := range []any{a1, b1, c1} {
				l.Push(Notification{Kind: Add, Key: keyOf(o), New: o})
			}
			cachetest.Eventually(t, "adds delivered", func() bool { return len(h.snapshot()) == 3 && l.Pending() == 0 })
			gate := h.stall()
			// a blocks the handler or fills the one-slot buffer, b fills it
			// or coalesces: either way c's updates coalesce.
			l.Push(Notification{Kind: Update, Key: "ns/a", Old: a1, New: a2})
			l.Push(Notification{Kind: Update, Key: "ns/b", Old: b1, New: b2})
			l.Push(Notification{Kind: Update, Key: "ns/c", Old: c1, New: c2})
			l.Push(Notification{Kind: Update, Key: "ns/c", Old: c2, New: c3})
			close(gate)
			cachetest.Eventually(t, "c delivered", func() bool { mu.Lock(); defer mu.Unlock(); return len(gotNew) > 0 })
			cachetest.Eventually(t, "listener drained", l.Drained)
			h.checkViolations(t)
			mu.Lock()
			defer mu.Unlock()
			if len(gotNew) != 1 || gotNew[0] != c3 || gotOld[0] != tt.wantOld {
				t.Fatalf("updates of c: old %v new %v, want one OnUpdate(%v, %v)", gotOld, gotNew, tt.wantOld, c3)
			}
		})
	}
}

func TestListenerCoalescingCancelsUndeliveredInitialAdd(t *testing.T) {
	defer goleak.VerifyNone(t)
	h := newViewHandler()
	h.gate = make(chan struct{})
	l := newListener(h, "t", 1)
	go l.run()
	// Fill the in-order buffer (and the batch in delivery) so the rest coalesces.
	for i := 0; i < 4; i++ {
		key := "ns/f" + strconv.Itoa(i)
		l.Push(Notification{Kind: Add, Initial: true, Key: key, New: testObject("ns", "f"+strconv.Itoa(i), "1")})
	}
	l.Push(Notification{Kind: Add, Initial: true, Key: "ns/x", New: testObject("ns", "x", "1")})
	l.Push(Notification{Kind: Delete, Key: "ns/x", Old: testObject("ns", "x", "1")})
	close(h.gate)
	cachetest.Eventually(t, "initial adds delivered", func() bool { return l.initialPending.Load() == 0 })
	cachetest.Eventually(t, "listener idle", func() bool { return l.Pending() == 0 })
	l.stop()
	h.checkViolations(t)
	if _, ok := h.snapshot()["ns/x"]; ok {
		t.Fatal("cancelled add delivered")
	}
}

func TestListenerResyncGoesToOnResyncOrOnUpdate(t *testing.T) {
	defer goleak.VerifyNone(t)
	obj := testObject("ns", "a", "1")
	tests := []struct {
		name    string
		handler func(got chan<- string) Handler
		want    string
	}{
		{"resync handler", func(got chan<- string) Handler {
			return funcs{
				update: func(any, any) { got <- "update" },
				resync: func(any) { got <- "resync" },
			}
		}, "resync"},
		{"update only", func(got chan<- string) Handler {
			return plainHandler{update: func(o, n any) {
				if o == n {
					got <- "update same"
				}
			}}
		}, "update same"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := make(chan string, 1)
			l := newListener(tt.handler(got), "t", 0)
			go l.run()
			defer l.stop()
			l.Push(Notification{Kind: Resync, Key: "ns/a", New: obj})
			if g := <-got; g != tt.want {
				t.Fatalf("got %q, want %q", g, tt.want)
			}
		})
	}
}

// plainHandler implements Handler only (no OnResync).
type plainHandler struct{ update func(oldObj, newObj any) }

func (plainHandler) OnAdd(any, bool)               {}
func (h plainHandler) OnUpdate(oldObj, newObj any) { h.update(oldObj, newObj) }
func (plainHandler) OnDelete(any)                  {}

// BenchmarkListenerStalledHeap measures what a listener whose handler is
// stalled keeps alive while 200k updates over 100k objects arrive, beyond
// the latest version of each object (which the cache holds anyway): its
// backlog and the versions the handler was last given, unless latestOnly.
// kept-after-drain-bytes shows that a drained listener gives it all back.
func BenchmarkListenerStalledHeap(b *testing.B) {
	const keys, updates = 100000, 200000
	for _, mode := range []struct {
		name       string
		latestOnly bool
	}{{"exact-old", false}, {"latest-only", true}} {
		b.Run(mode.name, func(b *testing.B) {
			for b.Loop() {
				var gate atomic.Pointer[chan struct{}]
				var delivered atomic.Int64
				h := funcs{
					add: func(any, bool) { delivered.Add(1) },
					update: func(any, any) {
						if g := gate.Load(); g != nil {
							<-*g
						}
						delivered.Add(1)
					},
				}
				l := newListener(h, "stalled", 0)
				l.latestOnly = mode.latestOnly
				go l.run()
				cache := make([]*metav1.PartialObjectMetadata, keys)
				names := make([]string, keys)
				for i := range cache {
					names[i] = "o" + strconv.Itoa(i)
					cache[i] = testObject("ns", names[i], "1")
					l.Push(Notification{Kind: Add, Key: "ns/" + names[i], New: cache[i]})
				}
				for !l.Drained() {
					time.Sleep(100 * time.Microsecond)
				}
				g := make(chan struct{})
				gate.Store(&g)
				before := heapInUseBytes()
				for i := range updates {
					k := i % keys
					obj := testObject("ns", names[k], strconv.Itoa(2+i))
					l.Push(Notification{Kind: Update, Key: "ns/" + names[k], Old: cache[k], New: obj})
					cache[k] = obj
				}
				during := heapInUseBytes()
				close(g)
				for !l.Drained() {
					time.Sleep(100 * time.Microsecond)
				}
				after := heapInUseBytes()
				runtime.KeepAlive(cache)
				l.stop()
				b.ReportMetric(float64(during)-float64(after), "stall-held-bytes")
				b.ReportMetric(float64(after)-float64(before), "kept-after-drain-bytes")
			}
		})
	}
}

// BenchmarkListenerCoalescingPush measures push into a lagging listener:
// every notification goes through the per-key backlog (10k keys).
func BenchmarkListenerCoalescingPush(b *testing.B) {
	const keys = 10000
	gate := make(chan struct{})
	l := newListener(funcs{add: func(any, bool) { <-gate }}, "stalled", 1)
	go l.run()
	defer func() { close(gate); l.stop() }()
	objs := make([]*metav1.PartialObjectMetadata, keys)
	keyOf := make([]string, keys)
	for i := range objs {
		objs[i] = testObject("ns", "o"+strconv.Itoa(i), "1")
		keyOf[i] = "ns/o" + strconv.Itoa(i)
		l.Push(Notification{Kind: Add, Key: keyOf[i], New: objs[i]})
	}
	b.ResetTimer()
	i := 0
	for b.Loop() {
		k := i % keys
		l.Push(Notification{Kind: Update, Key: keyOf[k], Old: objs[k], New: objs[k]})
		i++
	}
}
