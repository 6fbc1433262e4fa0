package controller

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
	clienttesting "k8s.io/client-go/testing"

	stablev1 "github.com/informer-gen/informer-gen/examples/crd/apis/stable/v1"
	"github.com/informer-gen/informer-gen/examples/crd/pkg/generated/clientset/versioned/fake"
	"github.com/informer-gen/informer-gen/examples/crd/pkg/generated/informers/externalversions"
	"github.com/informer-gen/informer-gen/runtime/cache/cachetest"
	"github.com/informer-gen/informer-gen/runtime/workqueue"
)

// testTimeout bounds every wait so that a bug fails the test instead of
// hanging it. It is never asserted as a speed.
const testTimeout = 30 * time.Second

// fastRetries keeps retry delays short so that retry tests finish quickly.
func fastRetries() workqueue.RateLimiter[string] {
	return workqueue.NewExponentialBackoff[string](time.Millisecond, 20*time.Millisecond)
}

func widget(namespace, name string, generation int64, size int32) *stablev1.Widget {
	return &stablev1.Widget{
		ObjectMeta: metav1.ObjectMeta{Namespace: namespace, Name: name, Generation: generation},
		Spec:       stablev1.WidgetSpec{Size: size, Color: "red"},
	}
}

// newFakeClientset returns a fake clientset holding objs, and a channel that
// receives a value each time a Widget watch has been established (the fake
// only delivers changes made after that).
func newFakeClientset(objs ...runtime.Object) (*fake.Clientset, <-chan struct{}) {
	cs := fake.NewSimpleClientset(objs...)
	watching := make(chan struct{}, 64)
	cs.PrependWatchReactor("widgets", func(action clienttesting.Action) (bool, watch.Interface, error) {
		var opts metav1.ListOptions
		if wa, ok := action.(clienttesting.WatchActionImpl); ok {
			opts = wa.ListOptions
		}
		w, err := cs.Tracker().Watch(action.GetResource(), action.GetNamespace(), opts)
		if err == nil {
			select {
			case watching <- struct{}{}:
			default:
			}
		}
		return true, w, err
	})
	return cs, watching
}

// running is a controller whose Run executes on its own goroutine.
type running struct {
	*Controller
	cancel context.CancelFunc
	done   chan error
}

// startController builds a controller on cs, starts its informer factory
// and runs it with workers until the test ends; the test fails if Run
// returns an error or does not return after cancellation.
func startController(t *testing.T, cs *fake.Clientset, workers int, opts Options, factoryOpts ...externalversions.SharedInformerOption) *running {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	informers := externalversions.NewSharedInformerFactoryWithOptions(cs, 0, factoryOpts...)
	c := New(cs, informers, opts)
	informers.StartWithContext(ctx)
	r := &running{Controller: c, cancel: cancel, done: make(chan error, 1)}
	go func() { r.done <- c.Run(ctx, workers) }()
	t.Cleanup(func() {
		cancel()
		select {
		case err := <-r.done:
			if err != nil {
				t.Errorf("Run returned %v after cancellation, want nil", err)
			}
		case <-time.After(testTimeout):
			t.Errorf("Run did not return within %v of cancellation", testTimeout)
		}
		informers.Shutdown()
	})
	return r
}

// converged reports whether every Widget the fake server holds in the
// namespaces has the status DesiredStatus computes for it.
func converged(cs *fake.Clientset, namespaces ...string) func() (bool, string) {
	return func() (bool, string) {
		pending := 0
		var example string
		for _, ns := range namespaces {
			list, err := cs.StableV1().Widgets(ns).List(context.Background(), metav1.ListOptions{})
			if err != nil {
				return false, err.Error()
			}
			for i := range list.Items {
				w := &list.Items[i]
				if want := DesiredStatus(w); w.Status != want {
					pending++
					example = fmt.Sprintf("%s/%s has %+v, want %+v", w.Namespace, w.Name, w.Status, want)
				}
			}
		}
		return pending == 0, fmt.Sprintf("%d widgets not converged, e.g. %s", pending, example)
	}
}

// statusWrites counts the status updates the fake clientset received.
func statusWrites(cs *fake.Clientset) int {
	n := 0
	for _, a := range cs.Actions() {
		if a.GetVerb() == "update" && a.GetSubresource() == "status" {
			n++
		}
	}
	return n
}

func TestRunWritesTheStatusOfEveryWidget(t *testing.T) {
	namespaces := []string{"alpha", "beta", "gamma"}
	var objs []runtime.Object
	for i := range 90 {
		objs = append(objs, widget(namespaces[i%3], fmt.Sprintf("w-%03d", i), int64(1+i%4), int32(i%5-1)))
	}
	cs, _ := newFakeClientset(objs...)
	c := startController(t, cs, 4, Options{})

	cachetest.EventuallyExplained(t, converged(cs, namespaces...))
	// Every Widget started without a status, so each needed exactly one
	// write; later reconciles (of the controller's own updates) are no-ops.
	cachetest.EventuallyExplained(t, func() (bool, string) {
		s := c.Stats()
		return s.StatusUpdates == 90, fmt.Sprintf("stats %+v", s)
	})
	if got := statusWrites(cs); got != 90 {
		t.Errorf("%d status writes reached the server, want 90", got)
	}
	if s := c.Stats(); s.Failures != 0 || s.Conflicts != 0 {
		t.Errorf("stats %+v: want no failures or conflicts", s)
	}
}

func TestUpToDateWidgetIsNotWritten(t *testing.T) {
	w := widget("ns", "done", 5, 2)
	w.Status = DesiredStatus(w)
	cs, _ := newFakeClientset(w)
	c := startController(t, cs, 1, Options{})

	cachetest.EventuallyExplained(t, func() (bool, string) {
		s := c.Stats()
		return s.Reconciles >= 1, fmt.Sprintf("stats %+v", s)
	})
	if got := statusWrites(cs); got != 0 {
		t.Errorf("%d status writes for an up-to-date Widget, want 0", got)
	}
}

func TestSpecChangeAfterSyncIsReconciled(t *testing.T) {
	cs, watching := newFakeClientset(widget("ns", "w", 1, 3))
	startController(t, cs, 2, Options{})
	cachetest.EventuallyExplained(t, converged(cs, "ns"))
	select {
	case <-watching:
	case <-time.After(testTimeout):
		t.Fatal("the informer never started watching")
	}

	ctx := t.Context()
	w, err := cs.StableV1().Widgets("ns").Get(ctx, "w", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	w.Spec.Size = 0
	w.Generation = 2 // the fake server does not bump generations itself
	if _, err := cs.StableV1().Widgets("ns").Update(ctx, w, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}

	want := stablev1.WidgetStatus{ObservedGeneration: 2, Phase: PhaseEmpty}
	cachetest.EventuallyExplained(t, func() (bool, string) {
		got, err := cs.StableV1().Widgets("ns").Get(ctx, "w", metav1.GetOptions{})
		if err != nil {
			return false, err.Error()
		}
		return got.Status == want, fmt.Sprintf("status %+v, want %+v", got.Status, want)
	})
}

// failStatusUpdates makes the first n status updates of the fake clientset
// fail with the error errFor returns, and counts them in failed.
func failStatusUpdates(cs *fake.Clientset, n int64, errFor func(name string) error) *atomic.Int64 {
	var failed atomic.Int64
	cs.PrependReactor("update", "widgets", func(action clienttesting.Action) (bool, runtime.Object, error) {
		if action.GetSubresource() != "status" {
			return false, nil, nil
		}
		if failed.Add(1) > n {
			failed.Add(-1)
			return false, nil, nil
		}
		name := action.(clienttesting.UpdateAction).GetObject().(*stablev1.Widget).Name
		return true, nil, errFor(name)
	})
	return &failed
}

func TestFailedStatusUpdatesAreRetriedUntilTheyStick(t *testing.T) {
	tests := []struct {
		name      string
		err       func(name string) error
		wantStats func(Stats) bool
	}{
		{
			name: "conflicts are counted as conflicts",
			err: func(name string) error {
				return apierrors.NewConflict(stablev1.Resource("widgets"), name, errors.New("stale resourceVersion"))
			},
			wantStats: func(s Stats) bool { return s.Conflicts == 3 && s.Failures == 0 },
		},
		{
			name:      "other errors are counted as failures",
			err:       func(string) error { return apierrors.NewInternalError(errors.New("etcd hiccup")) },
			wantStats: func(s Stats) bool { return s.Failures == 3 && s.Conflicts == 0 },
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cs, _ := newFakeClientset(widget("ns", "w", 1, 1))
			failed := failStatusUpdates(cs, 3, tt.err)
			c := startController(t, cs, 1, Options{RateLimiter: fastRetries()})

			cachetest.EventuallyExplained(t, converged(cs, "ns"))
			if got := failed.Load(); got != 3 {
				t.Errorf("%d status updates were failed, want 3", got)
			}
			// The write is on the server before the worker counts it.
			cachetest.EventuallyExplained(t, func() (bool, string) {
				s := c.Stats()
				return s.StatusUpdates == 1, fmt.Sprintf("stats %+v, want one status update", s)
			})
			if s := c.Stats(); !tt.wantStats(s) {
				t.Errorf("stats %+v", s)
			}
			cachetest.EventuallyExplained(t, func() (bool, string) {
				n := c.queue.NumRequeues("ns/w")
				return n == 0, fmt.Sprintf("NumRequeues = %d after success, want 0 (Forget)", n)
			})
		})
	}
}

func TestDeletedWidgetIsForgottenWithoutRetries(t *testing.T) {
	w := widget("ns", "gone", 1, 1)
	w.Status = DesiredStatus(w)
	cs, watching := newFakeClientset(w)
	c := startController(t, cs, 1, Options{RateLimiter: fastRetries()})
	cachetest.EventuallyExplained(t, func() (bool, string) {
		s := c.Stats()
		return s.Reconciles == 1, fmt.Sprintf("stats %+v, want the add reconciled", s)
	})
	select {
	case <-watching:
	case <-time.After(testTimeout):
		t.Fatal("the informer never started watching")
	}

	if err := cs.StableV1().Widgets("ns").Delete(t.Context(), "gone", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	cachetest.EventuallyExplained(t, func() (bool, string) {
		s := c.Stats()
		return s.Reconciles == 2, fmt.Sprintf("stats %+v, want the delete reconciled", s)
	})
	if s := c.Stats(); s.Failures != 0 || s.StatusUpdates != 0 {
		t.Errorf("stats %+v: a deleted Widget needs no write and no retry", s)
	}
	if n := c.queue.NumRequeues("ns/gone"); n != 0 {
		t.Errorf("NumRequeues = %d for a deleted Widget, want 0", n)
	}
}

func TestControllerOnlyTouchesWatchedNamespaces(t *testing.T) {
	cs, _ := newFakeClientset(
		widget("in-a", "w1", 1, 1), widget("in-b", "w2", 1, 0), widget("out", "w3", 1, 1),
	)
	// One worker: once the queue is empty and both watched Widgets are
	// written, a key from "out" could only still be in flight if it had
	// been queued, which the namespace filter forbids.
	c := startController(t, cs, 1, Options{}, externalversions.WithNamespaces("in-a", "in-b"))
	cachetest.EventuallyExplained(t, converged(cs, "in-a", "in-b"))
	cachetest.EventuallyExplained(t, func() (bool, string) {
		s := c.Stats()
		return s.Reconciles >= 4 && c.QueueLen() == 0, fmt.Sprintf("stats %+v, queue %d", s, c.QueueLen())
	})
	for _, a := range cs.Actions() {
		if a.GetNamespace() == "out" && a.GetVerb() == "update" {
			t.Errorf("controller wrote to an unwatched namespace: %v", a)
		}
	}
	got, err := cs.StableV1().Widgets("out").Get(t.Context(), "w3", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got.Status != (stablev1.WidgetStatus{}) {
		t.Errorf("Widget in unwatched namespace has status %+v, want none", got.Status)
	}
}

func TestRunFailsWhenCachesNeverSync(t *testing.T) {
	cs, _ := newFakeClientset()
	informers := externalversions.NewSharedInformerFactory(cs, 0)
	defer informers.Shutdown()
	c := New(cs, informers, Options{})
	// The factory is never started, so the informer cannot sync.
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	err := c.Run(ctx, 2)
	if err == nil || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Run = %v, want an error wrapping context.DeadlineExceeded", err)
	}
	if !strings.Contains(err.Error(), "did not sync") {
		t.Errorf("Run error %q does not say what did not happen", err)
	}
}

func TestRunTwiceIsAnError(t *testing.T) {
	cs, _ := newFakeClientset()
	informers := externalversions.NewSharedInformerFactory(cs, 0)
	defer informers.Shutdown()
	c := New(cs, informers, Options{})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := c.Run(ctx, 1); err == nil || errors.Is(err, errRunTwice) {
		t.Fatalf("first Run with a cancelled context = %v, want a sync error", err)
	}
	if err := c.Run(t.Context(), 1); !errors.Is(err, errRunTwice) {
		t.Fatalf("second Run = %v, want errRunTwice", err)
	}
}
