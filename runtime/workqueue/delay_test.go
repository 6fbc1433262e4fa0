package workqueue

import (
	"slices"
	"testing"
	"testing/synctest"
	"time"

	clocktesting "k8s.io/utils/clock/testing"
)

func newFakeQueue[T comparable]() (*Queue[T], *clocktesting.FakeClock) {
	clk := clocktesting.NewFakeClock(time.Unix(1_000_000, 0))
	return New(Config[T]{Clock: clk}), clk
}

// getN gets n items, marking each Done, and returns them in order.
func getN[T comparable](t *testing.T, q *Queue[T], n int) []T {
	t.Helper()
	var got []T
	for range n {
		item, shutdown := getOrFail(t, q)
		if shutdown {
			t.Fatal("Get reported shutdown")
		}
		got = append(got, item)
		q.Done(item)
	}
	return got
}

func TestAddAfterReleasesItemsInReadyTimeOrder(t *testing.T) {
	type add struct {
		item  string
		delay time.Duration
	}
	tests := []struct {
		name  string
		adds  []add
		steps []time.Duration
		// want[i] lists the items that must come out after steps[i].
		want [][]string
	}{
		{
			name:  "released in ready-time order, not call order",
			adds:  []add{{"a", 30 * time.Millisecond}, {"b", 10 * time.Millisecond}, {"c", 20 * time.Millisecond}},
			steps: []time.Duration{30 * time.Millisecond},
			want:  [][]string{{"b", "c", "a"}},
		},
		{
			name:  "released one step at a time",
			adds:  []add{{"a", 30 * time.Millisecond}, {"b", 10 * time.Millisecond}, {"c", 20 * time.Millisecond}},
			steps: []time.Duration{10 * time.Millisecond, 10 * time.Millisecond, 10 * time.Millisecond},
			want:  [][]string{{"b"}, {"c"}, {"a"}},
		},
		{
			name:  "zero and negative delays add at once",
			adds:  []add{{"a", 0}, {"b", -time.Second}},
			steps: []time.Duration{0},
			want:  [][]string{{"a", "b"}},
		},
		{
			name:  "repeated AddAfter keeps the earliest time (earlier second)",
			adds:  []add{{"a", time.Hour}, {"b", 20 * time.Millisecond}, {"a", 10 * time.Millisecond}},
			steps: []time.Duration{10 * time.Millisecond, 10 * time.Millisecond},
			want:  [][]string{{"a"}, {"b"}},
		},
		{
			name:  "repeated AddAfter keeps the earliest time (later second)",
			adds:  []add{{"a", 10 * time.Millisecond}, {"b", 20 * time.Millisecond}, {"a", time.Hour}},
			steps: []time.Duration{10 * time.Millisecond, 10 * time.Millisecond},
			want:  [][]string{{"a"}, {"b"}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q, clk := newFakeQueue[string]()
			defer q.ShutDown()
			for _, a := range tt.adds {
				q.AddAfter(a.item, a.delay)
			}
			for i, step := range tt.steps {
				clk.Step(step)
				got := getN(t, q, len(tt.want[i]))
				if !slices.Equal(got, tt.want[i]) {
					t.Fatalf("after step %d: got %v, want %v", i, got, tt.want[i])
				}
				if n := q.Len(); n != 0 {
					t.Fatalf("after step %d: Len() = %d, want 0 (nothing else due)", i, n)
				}
			}
		})
	}
}

func TestAddAfterWaitsForTheDelay(t *testing.T) {
	q, clk := newFakeQueue[string]()
	defer q.ShutDown()
	q.AddAfter("a", 50*time.Millisecond)
	if n := q.Len(); n != 0 {
		t.Fatalf("Len() = %d right after AddAfter, want 0", n)
	}
	clk.Step(49 * time.Millisecond)
	if n := q.Len(); n != 0 {
		t.Fatalf("Len() = %d before the delay passed, want 0", n)
	}
	clk.Step(time.Millisecond)
	if got := getN(t, q, 1); got[0] != "a" {
		t.Fatalf("got %v, want a", got)
	}
}

func TestAddAfterEarliestWinsLeavesOneEntry(t *testing.T) {
	q, clk := newFakeQueue[string]()
	defer q.ShutDown()
	q.AddAfter("a", 30*time.Millisecond)
	q.AddAfter("a", 10*time.Millisecond)
	q.AddAfter("a", 20*time.Millisecond)
	q.mu.Lock()
	waiting := q.delay.waiting.Len()
	q.mu.Unlock()
	if waiting != 1 {
		t.Fatalf("%d heap entries for one item, want 1", waiting)
	}
	clk.Step(10 * time.Millisecond)
	getN(t, q, 1)
	clk.Step(time.Hour)
	if n := q.Len(); n != 0 {
		t.Fatalf("Len() = %d after the later times passed, want 0 (they were merged)", n)
	}
	if clk.HasWaiters() {
		t.Fatal("a timer is still armed with nothing waiting")
	}
}

func TestAddAfterOfItemAlreadyQueuedIsDeduplicated(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		q, clk := newFakeQueue[string]()
		defer q.ShutDown()
		q.Add("a")
		q.AddAfter("a", time.Millisecond)
		clk.Step(time.Millisecond)
		// Every goroutine blocked: the delayed add has been applied.
		synctest.Wait()
		q.mu.Lock()
		waiting := q.delay.waiting.Len()
		q.mu.Unlock()
		if waiting != 0 || clk.HasWaiters() {
			t.Fatalf("%d items still waiting (timer armed: %t), want none", waiting, clk.HasWaiters())
		}
		if n := q.Len(); n != 1 {
			t.Fatalf("Len() = %d, want 1", n)
		}
	})
}

func TestShutDownStopsDelayLoopAndDropsWaitingItems(t *testing.T) {
	q, clk := newFakeQueue[string]()
	q.AddAfter("a", time.Second)
	q.ShutDown() // returns only after the delay goroutine exited (goleak checks)
	if clk.HasWaiters() {
		t.Fatal("ShutDown left a timer armed on the clock")
	}
	q.AddAfter("b", time.Second) // ignored, starts nothing
	clk.Step(time.Hour)
	if item, shutdown := getOrFail(t, q); !shutdown {
		t.Fatalf("Get() = %q, false; want shutdown (delayed items are dropped)", item)
	}
}

func TestShutDownWithDrainStopsDelayLoop(t *testing.T) {
	q, clk := newFakeQueue[string]()
	q.AddAfter("a", time.Second)
	q.ShutDownWithDrain()
	if clk.HasWaiters() {
		t.Fatal("ShutDownWithDrain left a timer armed on the clock")
	}
}

func TestAddAfterWithRealClock(t *testing.T) {
	q := New(Config[string]{})
	defer q.ShutDown()
	start := time.Now()
	q.AddAfter("a", 20*time.Millisecond)
	q.AddAfter("b", time.Millisecond)
	if got := getN(t, q, 2); !slices.Equal(got, []string{"b", "a"}) {
		t.Fatalf("got %v, want [b a]", got)
	}
	if elapsed := time.Since(start); elapsed < 20*time.Millisecond {
		t.Fatalf("a came out after %v, before its 20ms delay", elapsed)
	}
}
