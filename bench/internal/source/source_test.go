package source

import (
	"context"
	"testing"
	"time"

	"go.uber.org/goleak"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/watch"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func events(n int) []watch.Event {
	evs := make([]watch.Event, n)
	for i := range evs {
		evs[i] = watch.Event{Type: watch.Modified, Object: &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{ResourceVersion: string(rune('a' + i))}}}
	}
	return evs
}

// waitLimit bounds every wait of these tests; only a broken Source
// reaches it.
const waitLimit = 10 * time.Second

// receive returns the event numbered i (from 0) of w, failing the test if
// w ends or sends nothing within waitLimit.
func receive(t *testing.T, w watch.Interface, i int) watch.Event {
	t.Helper()
	select {
	case ev, ok := <-w.ResultChan():
		if !ok {
			t.Fatalf("the watch ended before event %d", i)
		}
		return ev
	case <-time.After(waitLimit):
		t.Fatalf("event %d not sent within %v", i, waitLimit)
		return watch.Event{}
	}
}

// drain reads w until its channel is closed, failing the test if that
// takes longer than waitLimit.
func drain(t *testing.T, w watch.Interface) {
	t.Helper()
	timeout := time.After(waitLimit)
	for {
		select {
		case _, ok := <-w.ResultChan():
			if !ok {
				return
			}
		case <-timeout:
			t.Fatalf("the watch's channel not closed within %v", waitLimit)
		}
	}
}

func TestWatchSendsNothingBeforeStartThenEveryEventInOrder(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	list := &corev1.ConfigMapList{}
	evs := events(3 * feedBuffer)
	s := New(list, evs)
	if got, err := s.List(ctx, metav1.ListOptions{Limit: 10}); err != nil || got != list {
		t.Fatalf("List = %v, %v; want the list, whole", got, err)
	}
	w, err := s.Watch(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	if err := s.WaitWatching(ctx); err != nil {
		t.Fatal(err)
	}
	select {
	case ev := <-w.ResultChan():
		t.Fatalf("got %v before Start", ev)
	case <-time.After(20 * time.Millisecond):
	}
	s.Start()
	for i := range 3 * feedBuffer {
		ev := receive(t, w, i)
		if want := string(rune('a' + i)); ev.Object.(*corev1.ConfigMap).ResourceVersion != want {
			t.Fatalf("event %d has resourceVersion %q, want %q", i, ev.Object.(*corev1.ConfigMap).ResourceVersion, want)
		}
	}
	// Once the feed has ended (its channel closed), no sent event may be
	// referenced by the source any more.
	w.Stop()
	drain(t, w)
	for i, ev := range evs {
		if ev.Object != nil {
			t.Fatalf("event %d still referenced by the source after it was sent", i)
		}
	}
}

func TestStopAndCancelCloseEveryWatch(t *testing.T) {
	for _, tc := range []struct {
		name string
		end  func(cancel context.CancelFunc, w watch.Interface)
	}{
		{"stop", func(_ context.CancelFunc, w watch.Interface) { w.Stop(); w.Stop() }},
		{"cancel", func(cancel context.CancelFunc, _ watch.Interface) { cancel() }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			s := New(&corev1.ConfigMapList{}, events(2*feedBuffer))
			first, _ := s.Watch(ctx, metav1.ListOptions{})
			second, _ := s.Watch(ctx, metav1.ListOptions{})
			s.Start()
			receive(t, first, 0) // the feed is running
			tc.end(cancel, first)
			if tc.name == "stop" {
				second.Stop()
			}
			for _, w := range []watch.Interface{first, second} {
				drain(t, w)
			}
		})
	}
}

func TestListHandsOutTheListOnceOnlyWhenReleasing(t *testing.T) {
	list := &corev1.ConfigMapList{}
	for _, tc := range []struct {
		name       string
		src        *Source
		secondFail bool
	}{
		{"New serves the list every time", New(list, nil), false},
		{"NewReleasing serves it once", NewReleasing(list), true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := tc.src.List(context.Background(), metav1.ListOptions{})
			if err != nil || got != list {
				t.Fatalf("first List = %v, %v; want the list", got, err)
			}
			got, err = tc.src.List(context.Background(), metav1.ListOptions{})
			if failed := err != nil; failed != tc.secondFail || !failed && got != list {
				t.Errorf("second List = %v, %v; want failure %t", got, err, tc.secondFail)
			}
		})
	}
}
