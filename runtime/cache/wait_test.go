package cache

import (
	"context"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"go.uber.org/goleak"
)

func TestWaitForCacheSyncForms(t *testing.T) {
	var flag atomic.Bool
	synced := func() bool { return flag.Load() }
	tests := []struct {
		name string
		wait func(stop <-chan struct{}, ctx context.Context) bool
	}{
		{"WaitForCacheSync", func(stop <-chan struct{}, _ context.Context) bool { return WaitForCacheSync(stop, synced) }},
		{"WaitForNamedCacheSync", func(stop <-chan struct{}, _ context.Context) bool { return WaitForNamedCacheSync("test", stop, synced) }},
		{"WaitForCacheSyncWithContext", func(_ <-chan struct{}, ctx context.Context) bool { return WaitForCacheSyncWithContext(ctx, synced) }},
		{"WaitForNamedCacheSyncWithContext", func(_ <-chan struct{}, ctx context.Context) bool {
			return WaitForNamedCacheSyncWithContext(ctx, synced)
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			flag.Store(false)
			stop := make(chan struct{})
			ctx, cancel := context.WithCancel(context.Background())
			result := make(chan bool, 1)
			go func() { result <- tt.wait(stop, ctx) }()
			close(stop)
			cancel()
			if <-result {
				t.Fatal("reported synced after being stopped before syncing")
			}
			stop, ctx = make(chan struct{}), context.Background()
			go func() { result <- tt.wait(stop, ctx) }()
			flag.Store(true)
			if !<-result {
				t.Fatal("reported not synced although it synced")
			}
		})
	}
}

// fakeDone is a DoneChecker closed by hand.
type fakeDone struct {
	name string
	ch   chan struct{}
}

func (f fakeDone) Name() string          { return f.name }
func (f fakeDone) Done() <-chan struct{} { return f.ch }

func TestWaitForReportsWhetherEveryCheckerIsDone(t *testing.T) {
	a, b := fakeDone{"a", make(chan struct{})}, fakeDone{"b", make(chan struct{})}
	close(a.ch)
	if !IsDone(a) || IsDone(b) {
		t.Fatalf("IsDone(a)=%v IsDone(b)=%v, want true false", IsDone(a), IsDone(b))
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if WaitFor(ctx, "caches", a, b) {
		t.Fatal("WaitFor reported done with b pending")
	}
	close(b.ch)
	if !WaitFor(context.Background(), "caches", a, b) {
		t.Fatal("WaitFor reported not done with both closed")
	}
}

func TestPollingDoneCheckerClosesWhenTheConditionHoldsOrGivesUp(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	// In a bubble the poll period passes on the fake clock, at once.
	synctest.Test(t, func(t *testing.T) {
		var flag atomic.Bool
		abandon := make(chan struct{})
		c := newPollingDoneChecker("x", flag.Load, abandon)
		done := c.Done()
		if IsDone(c) {
			t.Fatal("done before the condition held")
		}
		flag.Store(true)
		select {
		case <-done:
		case <-time.After(30 * time.Second):
			t.Fatal("not done after the condition held")
		}
		gaveUp := newPollingDoneChecker("y", func() bool { return false }, abandon)
		gaveUp.Done()
		time.Sleep(3 * syncPollPeriod) // polls that find the condition false
		if IsDone(gaveUp) {
			t.Fatal("done before the condition held")
		}
		close(abandon) // its goroutine ends; the channel stays open
		synctest.Wait()
		time.Sleep(3 * syncPollPeriod)
		if IsDone(gaveUp) {
			t.Fatal("done although the condition never held")
		}
	})
}
