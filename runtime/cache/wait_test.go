package cache

import (
	"context"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"go.uber.org/goleak"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
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

// The informer's and a handler's DoneCheckers close their channels when
// the informer synced and when the handler was handed its initial list:
// in a bubble, nothing polls, so each is done as soon as every goroutine
// is blocked after the event. A checker of an informer stopped before it
// synced stays open and its goroutine ends.
func TestHasSyncedCheckersCloseWithoutPolling(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	synctest.Test(t, func(t *testing.T) {
		lw := &ListWatch{
			ListWithContextFunc: func(context.Context, metav1.ListOptions) (runtime.Object, error) {
				return objectList("10", "", testObject("ns", "a", "5"), testObject("ns", "b", "6")), nil
			},
			WatchFuncWithContext: func(context.Context, metav1.ListOptions) (watch.Interface, error) { return watch.NewFake(), nil },
		}
		inf := NewSharedIndexInformer(lw, &metav1.PartialObjectMetadata{}, 0, Indexers{})
		gate := make(chan struct{})
		reg, err := inf.AddEventHandler(ResourceEventHandlerFuncs{AddFunc: func(any) { <-gate }})
		if err != nil {
			t.Fatal(err)
		}
		informerDone, handlerDone := inf.HasSyncedChecker(), reg.HasSyncedChecker()
		if reg.HasSyncedChecker() != handlerDone {
			t.Fatal("a registration hands out more than one checker")
		}
		handlerDone.Done()
		ctx, cancel := context.WithCancel(t.Context())
		done := make(chan struct{})
		go func() {
			defer close(done)
			inf.RunWithContext(ctx)
		}()
		synctest.Wait() // the handler is blocked on its first add
		if !IsDone(informerDone) || IsDone(handlerDone) {
			t.Fatalf("informer done %t, handler done %t; want true, false while the handler holds its initial adds", IsDone(informerDone), IsDone(handlerDone))
		}
		close(gate)
		synctest.Wait()
		if !IsDone(handlerDone) {
			t.Fatal("the handler's checker is not done once its initial adds were delivered")
		}
		cancel()
		<-done

		never := NewSharedIndexInformer(&ListWatch{
			ListWithContextFunc: func(ctx context.Context, _ metav1.ListOptions) (runtime.Object, error) {
				<-ctx.Done()
				return nil, ctx.Err()
			},
			WatchFuncWithContext: func(context.Context, metav1.ListOptions) (watch.Interface, error) { return watch.NewFake(), nil },
		}, &metav1.PartialObjectMetadata{}, 0, Indexers{})
		reg, err = never.AddEventHandler(ResourceEventHandlerFuncs{})
		if err != nil {
			t.Fatal(err)
		}
		stopped, stop := context.WithCancel(t.Context())
		go func() {
			synctest.Wait()
			stop()
		}()
		never.RunWithContext(stopped)
		synctest.Wait()
		if IsDone(reg.HasSyncedChecker()) || IsDone(never.HasSyncedChecker()) {
			t.Fatal("checkers of an informer that never synced are done")
		}
	})
}
