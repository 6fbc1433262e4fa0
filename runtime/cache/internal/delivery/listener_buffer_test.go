package delivery

import (
	"strconv"
	"sync"
	"testing"

	"github.com/informer-gen/informer-gen/runtime/cache/cachetest"
)

// TestListenerBuffersGrowOnDemandAndShrinkWhenIdle pins that a handler's
// in-order buffers start small, grow for a burst, and are released once the
// burst is delivered and the listener idles.
func TestListenerBuffersGrowOnDemandAndShrinkWhenIdle(t *testing.T) {
	gate := make(chan struct{})
	var gateOnce sync.Once
	release := func() { gateOnce.Do(func() { close(gate) }) }
	entered := make(chan struct{}, 1)
	var calls sync.WaitGroup
	l := newListener(onAdd(func(any, bool) {
		select {
		case entered <- struct{}{}:
		default:
		}
		<-gate
		calls.Done()
	}), "h", 0)
	buffers := func() (fast, spare int) {
		l.mu.Lock()
		defer l.mu.Unlock()
		return cap(l.fast), cap(l.spare)
	}
	if f, s := buffers(); f+s > 0 {
		t.Fatalf("new listener holds buffers of %d and %d notifications, want none", f, s)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		l.run()
	}()
	defer func() {
		release()
		l.stop()
		<-done
	}()
	const burst = 1000
	calls.Add(burst + 1)
	// The handler holds the first notification: the burst piles up in the
	// in-order buffer.
	l.Push(Notification{Kind: Add, Key: "ns/first", New: testObject("ns", "first", "1")})
	<-entered
	for i := range burst {
		l.Push(Notification{Kind: Add, Key: "ns/o" + strconv.Itoa(i), New: testObject("ns", "o"+strconv.Itoa(i), "1")})
	}
	if f, _ := buffers(); f < burst {
		t.Fatalf("buffer of %d notifications during a burst of %d, want it grown", f, burst)
	}
	release()
	calls.Wait()
	cachetest.Eventually(t, "the listener to idle", l.Drained)
	if f, s := buffers(); f > initialFastCapacity || s > initialFastCapacity {
		t.Fatalf("idle listener holds buffers of %d and %d notifications, want at most %d", f, s, initialFastCapacity)
	}
}
