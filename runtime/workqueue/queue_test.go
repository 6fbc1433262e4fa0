package workqueue

import (
	"slices"
	"sync"
	"testing"
	"testing/synctest"
	"time"
)

func TestAddDeduplicatesAndKeepsFirstAddOrder(t *testing.T) {
	tests := []struct {
		name string
		adds []string
		want []string
	}{
		{"single", []string{"a"}, []string{"a"}},
		{"distinct items keep FIFO order", []string{"a", "b", "c"}, []string{"a", "b", "c"}},
		{"repeats are absorbed", []string{"a", "a", "a"}, []string{"a"}},
		{"re-adding does not move an item back", []string{"a", "b", "a", "c", "b"}, []string{"a", "b", "c"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q := New(Config[string]{})
			defer q.ShutDown()
			for _, item := range tt.adds {
				q.Add(item)
			}
			if got := q.Len(); got != len(tt.want) {
				t.Fatalf("Len() = %d, want %d", got, len(tt.want))
			}
			var got []string
			for range tt.want {
				item, shutdown := getOrFail(t, q)
				if shutdown {
					t.Fatal("Get reported shutdown")
				}
				got = append(got, item)
				q.Done(item)
			}
			if !slices.Equal(got, tt.want) {
				t.Fatalf("Get order = %v, want %v", got, tt.want)
			}
			if q.Len() != 0 {
				t.Fatalf("Len() = %d after draining, want 0", q.Len())
			}
		})
	}
}

func TestFIFOSurvivesRingBufferGrowth(t *testing.T) {
	q := New(Config[int]{})
	defer q.ShutDown()
	// Interleave adds and gets so the ring buffer wraps before it grows.
	next := 0
	for i := 0; i < 10; i++ {
		q.Add(i)
	}
	for i := 0; i < 5; i++ {
		item, _ := getOrFail(t, q)
		if item != next {
			t.Fatalf("got %d, want %d", item, next)
		}
		next++
		q.Done(item)
	}
	for i := 10; i < 100; i++ {
		q.Add(i)
	}
	for next < 100 {
		item, _ := getOrFail(t, q)
		if item != next {
			t.Fatalf("got %d, want %d", item, next)
		}
		next++
		q.Done(item)
	}
}

func TestReAddWhileProcessingRequeuesAfterDone(t *testing.T) {
	q := New(Config[string]{})
	defer q.ShutDown()

	q.Add("a")
	item, _ := getOrFail(t, q)
	if item != "a" {
		t.Fatalf("got %q, want a", item)
	}
	q.Add("b")
	q.Add("a") // while processing: held back, not handed out
	q.Add("a") // still deduplicated

	if got := q.Len(); got != 1 {
		t.Fatalf("Len() while a is processing = %d, want 1 (only b)", got)
	}
	b, _ := getOrFail(t, q)
	if b != "b" {
		t.Fatalf("got %q, want b", b)
	}
	if got := q.Len(); got != 0 {
		t.Fatalf("Len() = %d before Done(a), want 0", got)
	}
	q.Done("a")
	if got := q.Len(); got != 1 {
		t.Fatalf("Len() after Done(a) = %d, want 1", got)
	}
	again, _ := getOrFail(t, q)
	if again != "a" {
		t.Fatalf("got %q after Done, want a", again)
	}
	q.Done("a")
	q.Done("b")
	if got := q.Len(); got != 0 {
		t.Fatalf("Len() = %d at the end, want 0", got)
	}
}

func TestDoneForItemNotBeingProcessedIsNoOp(t *testing.T) {
	q := New(Config[string]{})
	defer q.ShutDown()
	q.Add("a")
	q.Done("a") // a is queued, not processing: must not be queued twice
	q.Done("x")
	if got := q.Len(); got != 1 {
		t.Fatalf("Len() = %d, want 1", got)
	}
}

func TestNoItemIsProcessedByTwoWorkersAtOnce(t *testing.T) {
	const (
		workers = 8
		keys    = 4
		adds    = 2000
	)
	q := New(Config[int]{})
	var (
		mu       sync.Mutex
		inFlight = map[int]bool{}
		overlap  int
		handled  int
	)
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for {
				item, shutdown := q.Get()
				if shutdown {
					return
				}
				mu.Lock()
				if inFlight[item] {
					overlap++
				}
				inFlight[item] = true
				handled++
				mu.Unlock()
				time.Sleep(time.Microsecond) // widen the window for a second Get
				mu.Lock()
				inFlight[item] = false
				mu.Unlock()
				q.Done(item)
			}
		})
	}
	for i := range adds {
		q.Add(i % keys)
	}
	q.ShutDownWithDrain()
	wg.Wait()
	if overlap != 0 {
		t.Fatalf("%d times an item was handed to a second worker while being processed", overlap)
	}
	if handled == 0 {
		t.Fatal("no item was handled")
	}
}

func TestShutDownHandsOutQueuedItemsThenReportsShutdown(t *testing.T) {
	q := New(Config[string]{})
	q.Add("a")
	q.Add("b")
	q.ShutDown()
	if !q.ShuttingDown() {
		t.Fatal("ShuttingDown() = false after ShutDown")
	}
	q.Add("c") // ignored
	if got := q.Len(); got != 2 {
		t.Fatalf("Len() = %d, want 2", got)
	}
	for _, want := range []string{"a", "b"} {
		item, shutdown := getOrFail(t, q)
		if shutdown || item != want {
			t.Fatalf("Get() = %q, %v; want %q, false", item, shutdown, want)
		}
		q.Done(item)
	}
	if item, shutdown := getOrFail(t, q); !shutdown || item != "" {
		t.Fatalf("Get() = %q, %v; want \"\", true", item, shutdown)
	}
	q.ShutDown() // idempotent
}

func TestShutDownWakesBlockedGets(t *testing.T) {
	q := New(Config[string]{})
	const workers = 4
	done := make(chan struct{})
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			if _, shutdown := q.Get(); !shutdown {
				t.Error("Get returned an item from an empty queue")
			}
		})
	}
	go func() { wg.Wait(); close(done) }()
	q.ShutDown()
	waitFor(t, done, "blocked Gets returning after ShutDown")
}

func TestShutDownWithDrainWaitsForDone(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		q := New(Config[string]{})
		q.Add("a")
		q.Add("b")
		a, _ := getOrFail(t, q)

		drained := make(chan struct{})
		go func() {
			q.ShutDownWithDrain()
			close(drained)
		}()
		synctest.Wait() // ShutDownWithDrain has started and waits for a and b
		if !q.ShuttingDown() {
			t.Fatal("not shutting down while ShutDownWithDrain waits")
		}
		q.Add("c") // refused once shutting down

		// The queued item is still handed out, then Get reports shutdown.
		b, shutdown := getOrFail(t, q)
		if shutdown || b != "b" {
			t.Fatalf("Get() = %q, %v; want b, false", b, shutdown)
		}
		q.Done(b)
		synctest.Wait()
		select {
		case <-drained:
			t.Fatal("ShutDownWithDrain returned while a was still being processed")
		default:
		}
		if _, shutdown := getOrFail(t, q); !shutdown {
			t.Fatal("Get did not report shutdown once the queue was empty")
		}
		q.Done(a)
		waitFor(t, drained, "ShutDownWithDrain returning after the last Done")
		if _, shutdown := getOrFail(t, q); !shutdown {
			t.Fatal("Get did not report shutdown after drain")
		}
	})
}

func TestShutDownReleasesShutDownWithDrain(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		q := New(Config[string]{})
		q.Add("a")
		item, _ := getOrFail(t, q)
		drained := make(chan struct{})
		go func() {
			q.ShutDownWithDrain()
			close(drained)
		}()
		synctest.Wait() // ShutDownWithDrain waits for item
		if !q.ShuttingDown() {
			t.Fatal("not shutting down while ShutDownWithDrain waits")
		}
		q.ShutDown()
		waitFor(t, drained, "ShutDownWithDrain returning after ShutDown")
		q.Done(item)
	})
}

func TestShutDownWithDrainWithNothingInFlightReturns(t *testing.T) {
	q := New(Config[string]{})
	done := make(chan struct{})
	go func() { q.ShutDownWithDrain(); close(done) }()
	waitFor(t, done, "ShutDownWithDrain on an idle queue returning")
}
