package cache

import (
	"context"
	"errors"
	"strconv"
	"testing"
	"time"

	"github.com/informer-gen/informer-gen/runtime/cache/cachetest"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/watch"
)

// TestReflectorHandlesQueuedEventsInOrderAndResumesFromTheLastOne queues
// more events than one burst holds before the reflector reads any, then
// ends the watch, and checks that every event reached the store in order
// and that the watch resumes from the last event's resourceVersion.
func TestReflectorHandlesQueuedEventsInOrderAndResumesFromTheLastOne(t *testing.T) {
	const queued = 2*maxBurst + 10
	tests := []struct {
		name    string
		end     *watch.Event // nil: the server closes the watch
		backoff bool
	}{
		{name: "clean close"},
		{name: "retriable error event", end: &watch.Event{Type: watch.Error, Object: &apierrors.NewInternalError(errors.New("etcd hiccup")).ErrStatus}, backoff: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			verifyNoLeaks(t)
			lw := newFakeLW()
			lw.ListFunc = listReturning(objectList("10", ""))
			first := true
			lw.WatchFunc = func(_ context.Context, opts metav1.ListOptions) (watch.Interface, error) {
				w := newFakeWatcher(opts)
				if first {
					first = false
					// Everything is waiting in the channel before the
					// reflector reads.
					w.result = make(chan watch.Event, queued+1)
					for i := 0; i < queued; i++ {
						typ := watch.Modified
						if i%3 == 0 {
							typ = watch.Added
						}
						w.result <- ev(typ, testObject("ns", "o"+strconv.Itoa(i%7), strconv.Itoa(11+i)))
					}
					if tt.end != nil {
						w.result <- *tt.end
					} else {
						close(w.result)
					}
				}
				lw.watchers <- w
				return w, nil
			}
			h := startReflector(t, lw, lw, ReflectorOptions{})
			w1 := lw.nextWatcher(t)
			if tt.backoff {
				h.waitErrors(t, 1)
			}
			// Every event was handled at once: the watch closed right
			// after it opened, so the reflector backs off either way.
			cachetest.Eventually(t, "the first watch to end", w1.isStopped)
			h.waitSleeping(t)
			h.clock.Step(defaultBackoffMax)
			w2 := lw.nextWatcher(t)
			if want := strconv.Itoa(11 + queued - 1); w2.opts.ResourceVersion != want {
				t.Fatalf("rewatch RV = %q, want %s (the last queued event's)", w2.opts.ResourceVersion, want)
			}
			if rv, want := h.r.LastSyncResourceVersion(), strconv.Itoa(11+queued-1); rv != want {
				t.Fatalf("LastSyncResourceVersion = %q, want %s", rv, want)
			}
			// The list, then each event followed by the store's
			// UpdateResourceVersion to the event's resourceVersion.
			ops, _ := h.store.snapshot()
			if len(ops) != 1+2*queued {
				t.Fatalf("%d store operations, want the list and %d events, each with its resourceVersion update", len(ops), queued)
			}
			for i := 0; i < queued; i++ {
				want := strconv.Itoa(11 + i)
				if op, rv := ops[1+2*i], ops[2+2*i]; op.rv != want || rv != (storeOp{kind: "rv", rv: want}) {
					t.Fatalf("store operations %d: %+v then %+v, want the event and the update at %s (events reordered or lost)", i, op, rv, want)
				}
			}
		})
	}
}

// rvCheckingStore is a recordingStore that notes, at each
// UpdateResourceVersion, the reflector's LastSyncResourceVersion.
type rvCheckingStore struct {
	*recordingStore
	r    func() *Reflector
	seen chan [2]string // {event RV, LastSyncResourceVersion then}
}

func (s *rvCheckingStore) UpdateResourceVersion(rv string) {
	s.recordingStore.UpdateResourceVersion(rv)
	s.seen <- [2]string{rv, s.r().LastSyncResourceVersion()}
}

// TestReflectorPublishesABookmarksVersionBeforeTellingTheStore pins that an
// event in the middle of a burst, a bookmark included, moves
// LastSyncResourceVersion before the store hears of its resourceVersion.
func TestReflectorPublishesABookmarksVersionBeforeTellingTheStore(t *testing.T) {
	verifyNoLeaks(t)
	lw := newFakeLW()
	lw.ListFunc = listReturning(objectList("10", ""))
	var r *Reflector
	store := &rvCheckingStore{recordingStore: newRecordingStore(), r: func() *Reflector { return r }, seen: make(chan [2]string, 3)}
	w := newFakeWatcher(metav1.ListOptions{})
	w.result = make(chan watch.Event, 3)
	w.result <- ev(watch.Added, testObject("ns", "a", "11"))
	w.result <- ev(watch.Bookmark, testObject("", "", "15"))
	w.result <- ev(watch.Modified, testObject("ns", "a", "16"))
	lw.WatchFunc = func(context.Context, metav1.ListOptions) (watch.Interface, error) { return w, nil }
	r = NewReflectorWithOptions(lw, nil, store, ReflectorOptions{})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		r.RunWithContext(ctx)
	}()
	defer func() { cancel(); <-done }()
	for _, want := range []string{"11", "15", "16"} {
		select {
		case got := <-store.seen:
			if got != [2]string{want, want} {
				t.Fatalf("store told of %s while LastSyncResourceVersion was %s, want %s and %s", got[0], got[1], want, want)
			}
		case <-time.After(waitLimit):
			t.Fatalf("the store was never told of resourceVersion %s", want)
		}
	}
	cachetest.Eventually(t, "resourceVersion 16", func() bool { return r.LastSyncResourceVersion() == "16" })
}
