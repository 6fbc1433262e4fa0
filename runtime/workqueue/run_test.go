package workqueue

import (
	"context"
	"errors"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	clocktesting "k8s.io/utils/clock/testing"
)

func TestRunRetriesFailuresWithBackoffAndForgetsSuccesses(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		clk := clocktesting.NewFakeClock(time.Unix(0, 0))
		q := New(Config[string]{
			Clock:       clk,
			RateLimiter: NewExponentialBackoff[string](time.Second, time.Minute),
		})
		ctx, cancel := context.WithCancel(context.Background())

		var (
			mu       sync.Mutex
			attempts = map[string]int{}
		)
		succeeded := make(chan string, 10)
		process := func(_ context.Context, item string) error {
			mu.Lock()
			attempts[item]++
			n := attempts[item]
			mu.Unlock()
			if item == "flaky" && n < 3 {
				return errors.New("not yet")
			}
			succeeded <- item
			return nil
		}
		runDone := make(chan struct{})
		go func() {
			q.Run(ctx, 2, process)
			close(runDone)
		}()

		q.Add("ok")
		q.Add("flaky")
		if got := <-succeeded; got != "ok" {
			t.Fatalf("first success = %q, want ok", got)
		}
		// flaky fails twice: retried after 1s, then after 2s.
		for _, d := range []time.Duration{time.Second, 2 * time.Second} {
			synctest.Wait()
			if !clk.HasWaiters() {
				t.Fatal("the failed attempt was not rate-limited")
			}
			clk.Step(d)
		}
		var got string
		select {
		case got = <-succeeded:
		case <-time.After(testTimeout):
			t.Fatal("flaky never succeeded")
		}
		if got != "flaky" {
			t.Fatalf("second success = %q, want flaky", got)
		}
		mu.Lock()
		if attempts["flaky"] != 3 {
			t.Errorf("flaky attempted %d times, want 3", attempts["flaky"])
		}
		mu.Unlock()
		// Done and Forget happen after process returns; wait for them.
		synctest.Wait()
		if n := q.NumRequeues("flaky"); n != 0 {
			t.Fatalf("NumRequeues(flaky) = %d after success, want 0", n)
		}

		cancel()
		waitFor(t, runDone, "Run returning after cancel")
		if !q.ShuttingDown() {
			t.Fatal("queue not shut down after Run returned")
		}
	})
}

func TestRunReturnsWhenQueueIsShutDownElsewhere(t *testing.T) {
	q := New(Config[int]{})
	runDone := make(chan struct{})
	go func() {
		q.Run(context.Background(), 3, func(context.Context, int) error { return nil })
		close(runDone)
	}()
	q.ShutDown()
	waitFor(t, runDone, "Run returning after ShutDown")
}

// TestRunStopsAfterTheCurrentItemsWhenContextEnds pins that, once ctx is
// done, Run's workers finish the items they hold and process no queued
// item with the cancelled ctx.
func TestRunStopsAfterTheCurrentItemsWhenContextEnds(t *testing.T) {
	q := New(Config[int]{})
	for i := range 100 {
		q.Add(i)
	}
	ctx, cancel := context.WithCancel(context.Background())
	started := make(chan struct{})
	var mu sync.Mutex
	var processed []int
	runDone := make(chan struct{})
	go func() {
		defer close(runDone)
		q.Run(ctx, 1, func(ctx context.Context, item int) error {
			mu.Lock()
			processed = append(processed, item)
			mu.Unlock()
			if item == 0 {
				close(started)
				<-ctx.Done() // cancelled while holding item 0
			}
			return nil
		})
	}()
	<-started
	cancel()
	waitFor(t, runDone, "Run returning after cancel")
	mu.Lock()
	defer mu.Unlock()
	if len(processed) != 1 || processed[0] != 0 {
		t.Fatalf("processed %v after the cancel, want only the item held (0)", processed)
	}
}

// TestRunDrainsQueuedItemsOnShutDownWithDrain pins that draining stays
// available: ShutDownWithDrain, called while ctx is live, lets Run's
// workers process every queued item before they exit.
func TestRunDrainsQueuedItemsOnShutDownWithDrain(t *testing.T) {
	q := New(Config[int]{})
	for i := range 100 {
		q.Add(i)
	}
	var mu sync.Mutex
	processed := 0
	gate := make(chan struct{})
	runDone := make(chan struct{})
	go func() {
		defer close(runDone)
		q.Run(context.Background(), 2, func(context.Context, int) error {
			<-gate
			mu.Lock()
			processed++
			mu.Unlock()
			return nil
		})
	}()
	drained := make(chan struct{})
	go func() {
		defer close(drained)
		q.ShutDownWithDrain()
	}()
	close(gate)
	waitFor(t, drained, "ShutDownWithDrain returning")
	waitFor(t, runDone, "Run returning after the drain")
	mu.Lock()
	defer mu.Unlock()
	if processed != 100 {
		t.Fatalf("processed %d items, want all 100", processed)
	}
}
