package cache

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"testing"
	"time"

	"go.uber.org/goleak"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// listenerModel plays random store changes into a listener the way the
// informer does, and remembers the final content.
type listenerModel struct {
	l     *listener
	store map[string]any
	uid   int
	rv    int
}

func (m *listenerModel) step(r *rand.Rand, keys int) {
	key := "ns/k" + strconv.Itoa(r.IntN(keys))
	_, name, _ := SplitMetaNamespaceKey(key)
	old, present := m.store[key]
	m.rv++
	rv := strconv.Itoa(m.rv)
	switch op := r.IntN(10); {
	case !present:
		m.uid++
		obj := uidObject("ns", name, strconv.Itoa(m.uid), rv)
		m.store[key] = obj
		m.l.push(notification{kind: notifyAdd, key: key, newObj: obj})
	case op < 5:
		obj := uidObject("ns", name, string(old.(*metav1.PartialObjectMetadata).UID), rv)
		m.store[key] = obj
		m.l.push(notification{kind: notifyUpdate, key: key, oldObj: old, newObj: obj})
	case op < 6:
		m.l.push(notification{kind: notifyResync, key: key, newObj: old})
	case op < 8:
		delete(m.store, key)
		var gone any = old
		if op == 7 {
			gone = DeletedFinalStateUnknown{Key: key, Obj: old}
		}
		m.l.push(notification{kind: notifyDelete, key: key, oldObj: gone})
	default: // re-created under the same key
		m.uid++
		obj := uidObject("ns", name, strconv.Itoa(m.uid), rv)
		m.store[key] = obj
		m.l.push(notification{kind: notifyDelete, key: key, oldObj: old})
		m.l.push(notification{kind: notifyAdd, key: key, newObj: obj})
	}
}

func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(time.Millisecond)
	}
}

func TestListenerDeliversInOrderWhenKeepingUp(t *testing.T) {
	defer goleak.VerifyNone(t)
	var got []string
	done := make(chan struct{})
	h := ResourceEventHandlerFuncs{
		AddFunc: func(obj any, _ bool) {
			got = append(got, "add "+obj.(interface{ GetName() string }).GetName())
		},
		DeleteFunc: func(obj any) {
			got = append(got, "delete "+obj.(interface{ GetName() string }).GetName())
			close(done)
		},
	}
	l := newListener(h, "t", 0, nil)
	go l.run()
	l.push(notification{kind: notifyAdd, key: "ns/b", newObj: testObject("ns", "b", "1")})
	l.push(notification{kind: notifyAdd, key: "ns/a", newObj: testObject("ns", "a", "1")})
	l.push(notification{kind: notifyDelete, key: "ns/b", oldObj: testObject("ns", "b", "1")})
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
	for seed := uint64(1); seed <= 20; seed++ {
		t.Run(strconv.FormatUint(seed, 10), func(t *testing.T) {
			r := rand.New(rand.NewPCG(seed, seed))
			h := newViewHandler()
			h.gate = make(chan struct{})
			l := newListener(h, "stalled", fastCap, nil)
			go l.run()
			m := &listenerModel{l: l, store: map[string]any{}}
			for i := 0; i < 5000; i++ {
				m.step(r, keys)
				if n := l.pendingCount(); n > fastCap+keys {
					t.Fatalf("after %d events %d notifications pending, want <= %d", i+1, n, fastCap+keys)
				}
			}
			close(h.gate)
			eventually(t, "listener to drain", func() bool { return l.pendingCount() == 0 && len(diffViews(h.snapshot(), m.store)) == 0 })
			l.stop()
			h.checkViolations(t)
			if d := diffViews(h.snapshot(), m.store); len(d) > 0 {
				t.Fatalf("handler view differs from the store: %v", d)
			}
		})
	}
}

func TestListenerCoalescingCancelsUndeliveredInitialAdd(t *testing.T) {
	defer goleak.VerifyNone(t)
	h := newViewHandler()
	h.gate = make(chan struct{})
	l := newListener(h, "t", 1, nil)
	go l.run()
	// Fill the in-order buffer (and the batch in delivery) so the rest coalesces.
	for i := 0; i < 4; i++ {
		key := "ns/f" + strconv.Itoa(i)
		l.push(notification{kind: notifyAdd, initial: true, key: key, newObj: testObject("ns", "f"+strconv.Itoa(i), "1")})
	}
	l.push(notification{kind: notifyAdd, initial: true, key: "ns/x", newObj: testObject("ns", "x", "1")})
	l.push(notification{kind: notifyDelete, key: "ns/x", oldObj: testObject("ns", "x", "1")})
	close(h.gate)
	eventually(t, "initial adds delivered", func() bool { return l.initialPending.Load() == 0 })
	eventually(t, "listener idle", func() bool { return l.pendingCount() == 0 })
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
		handler func(got chan<- string) ResourceEventHandler
		want    string
	}{
		{"resync handler", func(got chan<- string) ResourceEventHandler {
			return ResourceEventHandlerFuncs{
				UpdateFunc: func(any, any) { got <- "update" },
				ResyncFunc: func(any) { got <- "resync" },
			}
		}, "resync"},
		{"update only", func(got chan<- string) ResourceEventHandler {
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
			l := newListener(tt.handler(got), "t", 0, nil)
			go l.run()
			defer l.stop()
			l.push(notification{kind: notifyResync, key: "ns/a", newObj: obj})
			if g := <-got; g != tt.want {
				t.Fatalf("got %q, want %q", g, tt.want)
			}
		})
	}
}

// plainHandler implements ResourceEventHandler only (no OnResync).
type plainHandler struct{ update func(oldObj, newObj any) }

func (plainHandler) OnAdd(any, bool)               {}
func (h plainHandler) OnUpdate(oldObj, newObj any) { h.update(oldObj, newObj) }
func (plainHandler) OnDelete(any)                  {}
