package cache

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/informer-gen/informer-gen/runtime/cache/cachetest"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/watch"
)

func initialEventsEnd(rv string) *metav1.PartialObjectMetadata {
	o := testObject("", "", rv)
	o.Annotations = map[string]string{metav1.InitialEventsAnnotationKey: "true"}
	return o
}

func TestWatchListReplacesStoreAtEndBookmarkAndKeepsWatching(t *testing.T) {
	verifyNoLeaks(t)
	lw := newFakeLW()
	h := startReflector(t, lw, lw, ReflectorOptions{UseWatchList: true})
	w := lw.nextWatcher(t)
	if w.opts.SendInitialEvents == nil || !*w.opts.SendInitialEvents ||
		w.opts.ResourceVersionMatch != metav1.ResourceVersionMatchNotOlderThan ||
		!w.opts.AllowWatchBookmarks || w.opts.ResourceVersion != "" {
		t.Fatalf("watch list options = %+v", w.opts)
	}
	w.Send(ev(watch.Added, testObject("a", "x", "20")))
	w.Send(ev(watch.Added, testObject("a", "y", "25")))
	w.Send(ev(watch.Bookmark, testObject("", "", "27"))) // a plain bookmark: not the end
	w.Send(ev(watch.Added, testObject("a", "z", "28")))
	w.Send(ev(watch.Bookmark, initialEventsEnd("30")))
	ops := h.store.waitOps(t, 2)
	if ops[0] != (storeOp{kind: "replace", rv: "30", n: 3}) || ops[1] != (storeOp{kind: "rv", rv: "30"}) {
		t.Fatalf("store ops = %+v, want replace of 3 at 30 then rv 30", ops)
	}
	if rv := h.r.LastSyncResourceVersion(); rv != "30" {
		t.Fatalf("LastSyncResourceVersion = %q, want 30", rv)
	}
	// The same watch goes on delivering changes.
	w.Send(ev(watch.Modified, testObject("a", "y", "31")))
	ops = h.store.waitOps(t, 3)
	if ops[2] != (storeOp{kind: "update", key: "a/y", rv: "31"}) {
		t.Fatalf("store op = %+v, want update of a/y", ops[2])
	}
	if n := len(lw.lists()); n != 0 {
		t.Fatalf("%d lists, want none", n)
	}
	if n := len(lw.watches()); n != 1 {
		t.Fatalf("%d watches, want 1", n)
	}
}

func TestWatchListFallsBackToList(t *testing.T) {
	tests := []struct {
		name string
		// fail makes the watch list fail, given the first watch (nil
		// when the Watch call itself fails).
		reject bool
		fail   func(t *testing.T, h *reflectorHarness, w *fakeWatcher)
		// retries: later relists try the watch list again (the failure
		// does not show the server lacks support).
		retries bool
	}{
		{
			name: "end bookmark never arrives",
			fail: func(t *testing.T, h *reflectorHarness, w *fakeWatcher) {
				w.Send(ev(watch.Added, testObject("a", "x", "20")))
				h.waitSleeping(t)
				h.clock.Step(time.Minute)
			},
		},
		{
			name: "stream closes before the end bookmark",
			fail: func(t *testing.T, h *reflectorHarness, w *fakeWatcher) {
				w.Send(ev(watch.Added, testObject("a", "x", "20")))
				w.Close()
			},
			retries: true,
		},
		{
			name:   "server rejects sendInitialEvents",
			reject: true,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			verifyNoLeaks(t)
			lw := newFakeLW()
			lw.ListFunc = listReturning(objectList("40", "", testObject("a", "listed", "40")))
			if tc.reject {
				lw.WatchFunc = func(_ context.Context, opts metav1.ListOptions) (watch.Interface, error) {
					if opts.SendInitialEvents != nil {
						return nil, apierrors.NewBadRequest("sendInitialEvents is forbidden")
					}
					w := newFakeWatcher(opts)
					lw.watchers <- w
					return w, nil
				}
			}
			h := startReflector(t, lw, lw, ReflectorOptions{UseWatchList: true, WatchListTimeout: time.Minute, IdleTimeout: time.Hour})
			var first *fakeWatcher
			if !tc.reject {
				first = lw.nextWatcher(t)
				tc.fail(t, h, first)
			}
			w := lw.nextWatcher(t)
			if w.opts.SendInitialEvents != nil || w.opts.ResourceVersion != "40" {
				t.Fatalf("watch after fallback = %+v, want a plain watch at 40", w.opts)
			}
			if first != nil && !first.isStopped() {
				t.Fatal("the failed watch list was not stopped")
			}
			ops := h.store.waitOps(t, 1)
			if ops[0] != (storeOp{kind: "replace", rv: "40", n: 1}) {
				t.Fatalf("store op = %+v, want the LIST result only", ops[0])
			}
			if errs := h.errors(); len(errs) != 1 {
				t.Fatalf("reported %v, want the watch-list failure once", errs)
			}
			// Later relists go straight to LIST, unless the failure was
			// of that attempt only.
			w.Send(statusEvent(expiredErr))
			h.waitErrors(t, 2)
			h.waitSleeping(t)
			h.clock.Step(defaultBackoffMax)
			w2 := lw.nextWatcher(t)
			if tc.retries {
				if w2.opts.SendInitialEvents == nil {
					t.Fatalf("relist after a cut stream = %+v, want a watch list again", w2.opts)
				}
				if n := len(lw.lists()); n != 1 {
					t.Fatalf("%d lists, want 1", n)
				}
				return
			}
			if w2.opts.SendInitialEvents != nil {
				t.Fatalf("relist used a watch list again: %+v", w2.opts)
			}
			if n := len(lw.lists()); n != 2 {
				t.Fatalf("%d lists, want 2", n)
			}
		})
	}
}

func TestWatchListRestartsFromScratchWhenResourceVersionExpired(t *testing.T) {
	verifyNoLeaks(t)
	lw := newFakeLW()
	h := startReflector(t, lw, lw, ReflectorOptions{UseWatchList: true})
	w := lw.nextWatcher(t)
	w.Send(ev(watch.Bookmark, initialEventsEnd("30")))
	w.Send(statusEvent(expiredErr))
	h.waitErrors(t, 1)
	h.waitSleeping(t)
	h.clock.Step(defaultBackoffMax)
	w2 := lw.nextWatcher(t)
	if w2.opts.SendInitialEvents == nil || w2.opts.ResourceVersion != "" {
		t.Fatalf("watch list after expiry = %+v, want one from RV \"\"", w2.opts)
	}
	w2.Send(ev(watch.Bookmark, initialEventsEnd("90")))
	cachetest.Eventually(t, "resourceVersion 90", func() bool { return h.r.LastSyncResourceVersion() == "90" })
	if errs := h.errors(); !errors.Is(errs[0], expiredErr) && !isExpiredError(errs[0]) {
		t.Fatalf("reported %v, want the expiry", errs[0])
	}
}

// TestWatchListExpiryFallsBackToPagedList pins that a watch list refused
// for its resourceVersion (410, or one the server has not reached) is not
// retried in a loop: the reflector falls back to a paged LIST from "" at
// once, then watches from the list.
func TestWatchListExpiryFallsBackToPagedList(t *testing.T) {
	tooLarge := apierrors.NewTimeoutError("Too large resource version", 1)
	tests := []struct {
		name string
		// callErr fails the Watch call itself; eventErr ends the stream.
		callErr, eventErr *apierrors.StatusError
	}{
		{name: "410 on the watch call", callErr: expiredErr},
		{name: "410 in the stream", eventErr: expiredErr},
		{name: "too large resource version on the watch call", callErr: tooLarge},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			verifyNoLeaks(t)
			lw := newFakeLW()
			lw.ListFunc = listReturning(objectList("40", "", testObject("a", "listed", "40")))
			lw.WatchFunc = func(_ context.Context, opts metav1.ListOptions) (watch.Interface, error) {
				w := newFakeWatcher(opts)
				if opts.SendInitialEvents != nil {
					if tc.callErr != nil {
						return nil, tc.callErr
					}
					go func() {
						w.Send(statusEvent(tc.eventErr))
						w.Close()
					}()
					return w, nil
				}
				lw.watchers <- w
				return w, nil
			}
			h := startReflector(t, lw, lw, ReflectorOptions{UseWatchList: true})
			w := lw.nextWatcher(t)
			if w.opts.SendInitialEvents != nil || w.opts.ResourceVersion != "40" {
				t.Fatalf("watch after the fallback = %+v, want a plain watch at 40", w.opts)
			}
			watchLists := 0
			for _, o := range lw.watches() {
				if o.SendInitialEvents != nil {
					watchLists++
				}
			}
			if watchLists != 1 {
				t.Fatalf("%d watch-list calls, want 1 then the fallback", watchLists)
			}
			lists := lw.lists()
			if len(lists) != 1 || lists[0].ResourceVersion != "" || lists[0].Limit != defaultPageSize {
				t.Fatalf("lists = %+v, want one paged LIST from \"\"", lists)
			}
			if ops := h.store.waitOps(t, 1); ops[0] != (storeOp{kind: "replace", rv: "40", n: 1}) {
				t.Fatalf("store op = %+v, want the LIST result", ops[0])
			}
		})
	}
}
