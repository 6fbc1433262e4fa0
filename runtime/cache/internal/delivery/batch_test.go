package delivery

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/informer-gen/informer-gen/runtime/cache/cachetest"
	testingclock "k8s.io/utils/clock/testing"
)

// recorder is a handler that records its calls as "kind name".
type recorder struct {
	mu    sync.Mutex
	calls []string
}

func (r *recorder) note(kind string, obj any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.calls = append(r.calls, kind+" "+keyOf(obj))
}

func (r *recorder) OnAdd(obj any, _ bool)  { r.note("add", obj) }
func (r *recorder) OnUpdate(_, newObj any) { r.note("update", newObj) }
func (r *recorder) OnDelete(obj any)       { r.note("delete", obj) }
func (r *recorder) OnResync(obj any)       { r.note("resync", obj) }

func (r *recorder) snapshot() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.calls...)
}

// TestBatchHoldsARelistUntilEndAndResyncsOnlyDueListeners pins the
// Batch contract: a relist's notifications reach no listener before End,
// then all of them in order; other batches push at once; a Resync goes
// only to the listeners ShouldResync marked due.
func TestBatchHoldsARelistUntilEndAndResyncsOnlyDueListeners(t *testing.T) {
	tests := []struct {
		name       string
		relist     bool
		wantBefore int // pending at the resyncing listener before End
	}{
		{"watch batch", false, 3},
		{"relist", true, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			clk := testingclock.NewFakeClock(time.Now())
			p := NewProcessor(clk)
			due, other := &recorder{}, &recorder{}
			ld := NewListener(ListenerConfig{Handler: due, Name: "due", HasKey: hasKey, Resync: time.Second})
			lo := NewListener(ListenerConfig{Handler: other, Name: "other", HasKey: hasKey})
			for _, l := range []*Listener{ld, lo} {
				if err := p.Add(l, time.Second); err != nil {
					t.Fatal(err)
				}
			}
			clk.Step(time.Second)
			if !p.ShouldResync() {
				t.Fatal("ShouldResync = false after the resync period")
			}
			a, b := testObject("ns", "a", "1"), testObject("ns", "b", "1")
			out := p.Begin(tt.relist)
			out.Distribute(Notification{Kind: Add, Key: "ns/a", New: a})
			out.Distribute(Notification{Kind: Resync, Key: "ns/b", New: b})
			out.Distribute(Notification{Kind: Delete, Key: "ns/a", Old: a})
			if got := ld.Pending(); got != tt.wantBefore {
				t.Fatalf("%d notifications pending before End, want %d", got, tt.wantBefore)
			}
			out.End()
			if got, want := ld.Pending(), 3; got != want {
				t.Fatalf("due listener: %d pending after End, want %d", got, want)
			}
			if got, want := lo.Pending(), 2; got != want {
				t.Fatalf("other listener: %d pending after End, want %d", got, want)
			}
			for _, l := range []*Listener{ld, lo} {
				go l.run()
				defer l.stop()
			}
			cachetest.Eventually(t, "both listeners to drain", func() bool { return ld.Drained() && lo.Drained() })
			wantDue := []string{"add ns/a", "resync ns/b", "delete ns/a"}
			wantOther := []string{"add ns/a", "delete ns/a"}
			if got := due.snapshot(); fmt.Sprint(got) != fmt.Sprint(wantDue) {
				t.Errorf("due listener got %v, want %v", got, wantDue)
			}
			if got := other.snapshot(); fmt.Sprint(got) != fmt.Sprint(wantOther) {
				t.Errorf("other listener got %v, want %v", got, wantOther)
			}
		})
	}
}
