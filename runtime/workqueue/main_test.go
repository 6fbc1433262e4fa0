package workqueue

import (
	"testing"
	"time"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

// testTimeout bounds every wait in these tests so that a bug shows up as a
// failure rather than a hung test binary. It is never asserted as a speed.
const testTimeout = 10 * time.Second

// getOrFail calls q.Get and fails the test if it does not return within
// testTimeout (the queue is then shut down to release the blocked Get).
func getOrFail[T comparable](t *testing.T, q *Queue[T]) (T, bool) {
	t.Helper()
	type result struct {
		item     T
		shutdown bool
	}
	ch := make(chan result, 1)
	go func() {
		item, shutdown := q.Get()
		ch <- result{item, shutdown}
	}()
	select {
	case r := <-ch:
		return r.item, r.shutdown
	case <-time.After(testTimeout):
		q.ShutDown()
		<-ch
		t.Fatalf("Get did not return within %v", testTimeout)
		var zero T
		return zero, false
	}
}

// waitFor fails the test if done is not closed within testTimeout.
func waitFor(t *testing.T, done <-chan struct{}, what string) {
	t.Helper()
	select {
	case <-done:
	case <-time.After(testTimeout):
		t.Fatalf("%s did not happen within %v", what, testTimeout)
	}
}
