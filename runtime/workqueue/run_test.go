package workqueue

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	clocktesting "k8s.io/utils/clock/testing"
)

func TestRunRetriesFailuresWithBackoffAndForgetsSuccesses(t *testing.T) {
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
		for !clk.HasWaiters() { // the failed attempt has been rate-limited
			time.Sleep(time.Millisecond)
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
	deadline := time.Now().Add(testTimeout)
	for q.NumRequeues("flaky") != 0 {
		if time.Now().After(deadline) {
			t.Fatal("NumRequeues(flaky) never returned to 0 after success")
		}
		time.Sleep(time.Millisecond)
	}

	cancel()
	waitFor(t, runDone, "Run returning after cancel")
	if !q.ShuttingDown() {
		t.Fatal("queue not shut down after Run returned")
	}
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
