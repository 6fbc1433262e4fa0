package cache

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
)

// An informer tells the functions registered with AfterSyncError of each
// failure it records, after SyncError returns it, until they are stopped.
func TestAfterSyncErrorTellsFailuresUntilStopped(t *testing.T) {
	verifyNoLeaks(t)
	lw := &ListWatch{
		ListWithContextFunc: func(context.Context, metav1.ListOptions) (runtime.Object, error) {
			return nil, forbidden(podsGVR.GroupResource(), "list", "")
		},
		WatchFuncWithContext: ignoringWatch(),
	}
	inf := NewSharedIndexInformerWithOptions(lw, &metav1.PartialObjectMetadata{}, SharedIndexInformerOptions{
		Identifier: (*InformerName)(nil).WithResource(podsGVR),
	})
	n, ok := inf.(SyncErrorNotifier)
	if !ok {
		t.Fatalf("%T is not a SyncErrorNotifier", inf)
	}
	heard := make(chan error, 1)
	var toldEarly atomic.Bool // f ran before SyncError returned the failure
	stop := n.AfterSyncError(func(err error) {
		if n.SyncError() == nil {
			toldEarly.Store(true)
		}
		select {
		case heard <- err:
		default:
		}
	})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); inf.RunWithContext(ctx) }()
	defer func() { cancel(); <-done }()

	select {
	case err := <-heard:
		var syncErr *InformerSyncError
		if !errors.As(err, &syncErr) || syncErr.Resource != podsGVR || !apierrors.IsForbidden(err) {
			t.Fatalf("told %v, want an *InformerSyncError of pods wrapping the 403", err)
		}
	case <-time.After(waitLimit):
		t.Fatal("not told of the failing list")
	}
	if toldEarly.Load() {
		t.Error("told before SyncError returned the failure")
	}
	if !stop() {
		t.Error("first stop reported that f was not registered")
	}
	if stop() {
		t.Error("second stop reported that it removed f")
	}
}

// syncErrorSubscribers calls every registered function, without holding
// its lock (a function may stop itself), and none once stopped.
func TestSyncErrorSubscribersCallUntilStopped(t *testing.T) {
	var subs syncErrorSubscribers
	var a, b int
	boom := errors.New("boom")
	var stopB func() bool
	stopA := subs.add(func(err error) {
		if err != boom {
			t.Errorf("a told %v, want %v", err, boom)
		}
		a++
	})
	stopB = subs.add(func(error) {
		b++
		stopB() // stopping itself while being told must not deadlock
	})
	subs.notify(boom)
	subs.notify(boom)
	if a != 2 || b != 1 {
		t.Fatalf("told a %d and b %d times, want 2 and 1 (b stopped itself)", a, b)
	}
	stopA()
	subs.notify(boom)
	if a != 2 {
		t.Fatalf("a told %d times after stop, want 2", a)
	}
}

// A watch list refused (403) is followed at once by a list: its failure
// is recorded, but AfterSyncError's functions hear only of failures the
// informer waits after, so a list that then succeeds is no failure to
// them.
func TestAfterSyncErrorIsNotToldOfAWatchListThatFallsBack(t *testing.T) {
	verifyNoLeaks(t)
	var watchLists atomic.Int32
	lw := &ListWatch{
		ListWithContextFunc: func(context.Context, metav1.ListOptions) (runtime.Object, error) {
			return objectList("10", "", testObject("ns", "a", "1")), nil
		},
		WatchFuncWithContext: func(ctx context.Context, opts metav1.ListOptions) (watch.Interface, error) {
			if opts.SendInitialEvents != nil && *opts.SendInitialEvents {
				watchLists.Add(1)
				return nil, forbidden(podsGVR.GroupResource(), "watch", "")
			}
			return ignoringWatch()(ctx, opts)
		},
	}
	inf := NewSharedIndexInformerWithOptions(lw, &metav1.PartialObjectMetadata{}, SharedIndexInformerOptions{
		Identifier:   (*InformerName)(nil).WithResource(podsGVR),
		UseWatchList: true,
	})
	var told atomic.Int32
	stop := inf.(SyncErrorNotifier).AfterSyncError(func(error) { told.Add(1) })
	defer stop()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); inf.RunWithContext(ctx) }()
	defer func() { cancel(); <-done }()
	if !WaitFor(ctxWithin(t, waitLimit), "", inf.HasSyncedChecker()) {
		t.Fatal("the informer did not sync by its list")
	}
	if watchLists.Load() == 0 {
		t.Fatal("no watch list was tried")
	}
	if n := told.Load(); n != 0 {
		t.Errorf("told of %d failures, want none: the watch list's was followed at once by a list that succeeded", n)
	}
}

// ctxWithin is a context that ends after d or with the test.
func ctxWithin(t *testing.T, d time.Duration) context.Context {
	ctx, cancel := context.WithTimeout(t.Context(), d)
	t.Cleanup(cancel)
	return ctx
}
