package cache

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"testing/synctest"
	"time"

	"github.com/informer-gen/informer-gen/runtime/cache/cachetest"
	"go.uber.org/goleak"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/watch"
	testingclock "k8s.io/utils/clock/testing"
)

// storeOp is one call a recordingStore received.
type storeOp struct {
	kind string // add, update, delete, replace, rv
	key  string // object key, for add/update/delete
	rv   string
	n    int // number of objects, for replace
}

// recordingStore is a ReflectorStore and ResourceVersionUpdater that
// records every call and keeps the resulting content.
type recordingStore struct {
	mu      sync.Mutex
	ops     []storeOp
	content Store
	resyncs int
}

func newRecordingStore() *recordingStore {
	return &recordingStore{content: NewStore(MetaNamespaceKeyFunc)}
}

func (s *recordingStore) record(kind string, obj any, rv string, n int) {
	op := storeOp{kind: kind, rv: rv, n: n}
	if obj != nil {
		op.key, _ = MetaNamespaceKeyFunc(obj)
		op.rv = obj.(metav1.Object).GetResourceVersion()
	}
	s.ops = append(s.ops, op)
}

func (s *recordingStore) Add(obj any) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.record("add", obj, "", 0)
	return s.content.Add(obj)
}

func (s *recordingStore) Update(obj any) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.record("update", obj, "", 0)
	return s.content.Update(obj)
}

func (s *recordingStore) Delete(obj any) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.record("delete", obj, "", 0)
	return s.content.Delete(obj)
}

func (s *recordingStore) Replace(list []any, rv string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.record("replace", nil, rv, len(list))
	return s.content.Replace(list, rv)
}

func (s *recordingStore) Resync() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.resyncs++
	return nil
}

func (s *recordingStore) UpdateResourceVersion(rv string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.record("rv", nil, rv, 0)
}

func (s *recordingStore) snapshot() ([]storeOp, int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]storeOp(nil), s.ops...), s.resyncs
}

// waitOps waits until at least n operations were recorded and returns them.
func (s *recordingStore) waitOps(t *testing.T, n int) []storeOp {
	t.Helper()
	var ops []storeOp
	cachetest.Eventually(t, fmt.Sprintf("%d store operations", n), func() bool {
		ops, _ = s.snapshot()
		return len(ops) >= n
	})
	return ops
}

// reflectorHarness runs a Reflector on a fake clock and collects the
// errors it reports.
type reflectorHarness struct {
	lw     *fakeLW
	store  *recordingStore
	clock  *testingclock.FakeClock
	r      *Reflector
	cancel context.CancelFunc
	done   chan struct{}

	mu   sync.Mutex
	errs []error
}

// verifyNoLeaks checks, after every cleanup registered later has run, that
// the test left no goroutine behind.
func verifyNoLeaks(t *testing.T) {
	t.Cleanup(func() { goleak.VerifyNone(t) })
}

func startReflector(t *testing.T, lw ListerWatcher, fake *fakeLW, opts ReflectorOptions) *reflectorHarness {
	t.Helper()
	h := &reflectorHarness{
		lw:    fake,
		store: newRecordingStore(),
		clock: testingclock.NewFakeClock(time.Unix(1_000_000, 0)),
		done:  make(chan struct{}),
	}
	opts.Clock = h.clock
	opts.WatchErrorHandler = func(_ context.Context, _ *Reflector, err error) {
		h.mu.Lock()
		defer h.mu.Unlock()
		h.errs = append(h.errs, err)
	}
	h.r = NewReflectorWithOptions(lw, nil, h.store, opts)
	ctx, cancel := context.WithCancel(context.Background())
	h.cancel = cancel
	go func() {
		defer close(h.done)
		h.r.RunWithContext(ctx)
	}()
	t.Cleanup(h.stop(t))
	return h
}

func (h *reflectorHarness) stop(t *testing.T) func() {
	return func() {
		h.cancel()
		select {
		case <-h.done:
		case <-time.After(waitLimit):
			t.Error("Run did not return after its context was cancelled")
		}
	}
}

func (h *reflectorHarness) errors() []error {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]error(nil), h.errs...)
}

// waitErrors waits until n errors were reported and returns them.
func (h *reflectorHarness) waitErrors(t *testing.T, n int) []error {
	t.Helper()
	cachetest.Eventually(t, fmt.Sprintf("%d reported errors", n), func() bool { return len(h.errors()) >= n })
	return h.errors()
}

// waitSleeping waits until the reflector blocks on a fake-clock timer.
func (h *reflectorHarness) waitSleeping(t *testing.T) {
	t.Helper()
	cachetest.Eventually(t, "the reflector to wait on the clock", h.clock.HasWaiters)
}

func ev(typ watch.EventType, obj runtime.Object) watch.Event {
	return watch.Event{Type: typ, Object: obj}
}

func statusEvent(err *apierrors.StatusError) watch.Event {
	return watch.Event{Type: watch.Error, Object: &err.ErrStatus}
}

func listReturning(l *metav1.PartialObjectMetadataList) func(context.Context, metav1.ListOptions) (runtime.Object, error) {
	return func(context.Context, metav1.ListOptions) (runtime.Object, error) { return l, nil }
}

var expiredErr = apierrors.NewResourceExpired("too old resource version: 5 (10)")

func TestReflectorListsThenWatchesFromListResourceVersion(t *testing.T) {
	verifyNoLeaks(t)
	lw := newFakeLW()
	lw.ListFunc = listReturning(objectList("10", "", testObject("a", "x", "8"), testObject("a", "y", "10")))
	h := startReflector(t, lw, lw, ReflectorOptions{MinWatchTimeout: time.Minute})

	w := lw.nextWatcher(t)
	lists := lw.lists()
	if len(lists) != 1 || lists[0].ResourceVersion != "0" || lists[0].Limit != defaultPageSize {
		t.Fatalf("first list options = %+v, want RV 0 and limit %d", lists, defaultPageSize)
	}
	if w.opts.ResourceVersion != "10" || !w.opts.AllowWatchBookmarks || w.opts.TimeoutSeconds == nil {
		t.Fatalf("watch options = %+v, want RV 10 with bookmarks and a timeout", w.opts)
	}
	if ts := *w.opts.TimeoutSeconds; ts < 60 || ts >= 120 {
		t.Fatalf("watch timeoutSeconds = %d, want in [60, 120)", ts)
	}
	if h.r.LastSyncResourceVersion() != "10" {
		t.Fatalf("LastSyncResourceVersion = %q after list, want 10", h.r.LastSyncResourceVersion())
	}
	w.Send(ev(watch.Added, testObject("a", "z", "11")))
	w.Send(ev(watch.Modified, testObject("a", "x", "12")))
	w.Send(ev(watch.Deleted, testObject("a", "y", "13")))
	// Each event is followed, as in client-go, by the store's
	// UpdateResourceVersion (recordingStore is a ResourceVersionUpdater).
	ops := h.store.waitOps(t, 7)
	want := []storeOp{
		{kind: "replace", rv: "10", n: 2},
		{kind: "add", key: "a/z", rv: "11"},
		{kind: "rv", rv: "11"},
		{kind: "update", key: "a/x", rv: "12"},
		{kind: "rv", rv: "12"},
		{kind: "delete", key: "a/y", rv: "13"},
		{kind: "rv", rv: "13"},
	}
	for i := range want {
		if ops[i] != want[i] {
			t.Fatalf("store op %d = %+v, want %+v", i, ops[i], want[i])
		}
	}
	cachetest.Eventually(t, "resourceVersion 13", func() bool { return h.r.LastSyncResourceVersion() == "13" })
	if keys := h.store.content.ListKeys(); len(keys) != 2 {
		t.Fatalf("store keys = %v, want a/x and a/z", keys)
	}
}

func TestReflectorListPaging(t *testing.T) {
	pages := map[string]*metav1.PartialObjectMetadataList{
		"":   objectList("20", "c1", testObject("a", "1", "1"), testObject("a", "2", "2")),
		"c1": objectList("20", "c2", testObject("a", "3", "3"), testObject("a", "4", "4")),
		"c2": objectList("20", "", testObject("a", "5", "5")),
	}
	tests := []struct {
		name      string
		pageSize  int64
		noChunks  bool
		expireAt  string // continue token whose request fails with 410
		wantCalls []metav1.ListOptions
		wantN     int
	}{
		{
			name:     "follows continue tokens without resourceVersion",
			pageSize: 2,
			wantCalls: []metav1.ListOptions{
				{ResourceVersion: "0", Limit: 2},
				{Continue: "c1", Limit: 2},
				{Continue: "c2", Limit: 2},
			},
			wantN: 5,
		},
		{
			name:      "DisableChunking lists in one request",
			noChunks:  true,
			wantCalls: []metav1.ListOptions{{ResourceVersion: "0"}},
			wantN:     2, // the fake ignores the missing limit; the reflector must not follow the token
		},
		{
			name:     "expired continue token restarts the list with a consistent read",
			pageSize: 2,
			expireAt: "c2",
			wantCalls: []metav1.ListOptions{
				{ResourceVersion: "0", Limit: 2},
				{Continue: "c1", Limit: 2},
				{Continue: "c2", Limit: 2},
				{Limit: 2},
				{Continue: "c1", Limit: 2},
				{Continue: "c2", Limit: 2},
			},
			wantN: 5,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			verifyNoLeaks(t)
			lw := newFakeLW()
			var expired atomic.Bool
			lw.ListFunc = func(_ context.Context, opts metav1.ListOptions) (runtime.Object, error) {
				if opts.Continue != "" && opts.Continue == tc.expireAt && expired.CompareAndSwap(false, true) {
					return nil, apierrors.NewResourceExpired("continue token expired")
				}
				return pages[opts.Continue], nil
			}
			var target ListerWatcher = lw
			if tc.noChunks {
				target = &ListWatch{ListWithContextFunc: lw.ListWithContext, WatchFuncWithContext: lw.WatchWithContext, DisableChunking: true}
			}
			h := startReflector(t, target, lw, ReflectorOptions{PageSize: tc.pageSize})
			lw.nextWatcher(t)
			calls := lw.lists()
			if len(calls) != len(tc.wantCalls) {
				t.Fatalf("list calls = %+v, want %+v", calls, tc.wantCalls)
			}
			for i := range calls {
				if calls[i].ResourceVersion != tc.wantCalls[i].ResourceVersion || calls[i].Continue != tc.wantCalls[i].Continue || calls[i].Limit != tc.wantCalls[i].Limit {
					t.Fatalf("list call %d = %+v, want %+v", i, calls[i], tc.wantCalls[i])
				}
			}
			ops := h.store.waitOps(t, 1)
			if ops[0] != (storeOp{kind: "replace", rv: "20", n: tc.wantN}) {
				t.Fatalf("store op = %+v, want replace of %d at 20", ops[0], tc.wantN)
			}
		})
	}
}

// A watch that can no longer resume is followed by a consistent read. The
// relist backs off when the watch started at the list's own position (a
// server that 410s every watch must not be relisted in a hot loop), and
// follows at once when the watch resumed from a position a watch reached
// (the server compacted past it: the normal end of a long disconnection).
func TestReflectorRelistsWithConsistentReadWhenWatchExpires(t *testing.T) {
	tests := []struct {
		name    string
		expire  func(h *reflectorHarness, lw *fakeLW, w *fakeWatcher)
		backoff bool
	}{
		{
			name:    "error event in the watch from the list's position: back off",
			expire:  func(_ *reflectorHarness, _ *fakeLW, w *fakeWatcher) { w.Send(statusEvent(expiredErr)) },
			backoff: true,
		},
		{
			name: "Watch call resuming from a watch's position fails with 410: relist at once",
			expire: func(h *reflectorHarness, lw *fakeLW, w *fakeWatcher) {
				lw.mu.Lock()
				lw.WatchFunc = func(context.Context, metav1.ListOptions) (watch.Interface, error) {
					lw.mu.Lock()
					lw.WatchFunc = nil
					lw.mu.Unlock()
					// Servers still answer 410 with reason Gone; the reflector must relist on it as on Expired.
					return nil, apierrors.NewGone("gone")
				}
				lw.mu.Unlock()
				w.Send(ev(watch.Added, testObject("a", "n", "11")))
				h.clock.Step(veryShortWatch) // a watch that lived: resumed at once
				w.Close()
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			verifyNoLeaks(t)
			lw := newFakeLW()
			lw.ListFunc = func(_ context.Context, opts metav1.ListOptions) (runtime.Object, error) {
				if opts.ResourceVersion == "" {
					return objectList("50", "", testObject("a", "fresh", "50")), nil
				}
				return objectList("10", ""), nil
			}
			h := startReflector(t, lw, lw, ReflectorOptions{})
			w := lw.nextWatcher(t)
			tc.expire(h, lw, w)
			errs := h.waitErrors(t, 1)
			if !isExpiredError(errs[0]) {
				t.Fatalf("reported error = %v, want an expired error", errs[0])
			}
			if tc.backoff {
				h.waitSleeping(t)
				if n := len(lw.lists()); n != 1 {
					t.Fatalf("relisted (%d lists) before backing off", n)
				}
				h.clock.Step(defaultBackoffInitial * 2)
			}
			w2 := lw.nextWatcher(t)
			lists := lw.lists()
			if len(lists) != 2 || lists[1].ResourceVersion != "" {
				t.Fatalf("lists = %+v, want a second list at RV \"\"", lists)
			}
			if w2.opts.ResourceVersion != "50" {
				t.Fatalf("rewatch RV = %q, want 50", w2.opts.ResourceVersion)
			}
		})
	}
}

func TestReflectorRelistRetriesExpiredResourceVersionFromScratch(t *testing.T) {
	verifyNoLeaks(t)
	lw := newFakeLW()
	lw.ListFunc = func(_ context.Context, opts metav1.ListOptions) (runtime.Object, error) {
		switch opts.ResourceVersion {
		case "0":
			return objectList("10", ""), nil
		case "10":
			return nil, expiredErr
		}
		return objectList("60", ""), nil
	}
	h := startReflector(t, lw, lw, ReflectorOptions{})
	w := lw.nextWatcher(t)
	// A failure that is neither transient nor an expiry forces a relist
	// at the last resourceVersion.
	w.Send(statusEvent(apierrors.NewForbidden(schema.GroupResource{Resource: "configmaps"}, "", errors.New("denied"))))
	h.waitErrors(t, 1)
	h.waitSleeping(t)
	h.clock.Step(defaultBackoffInitial * 2)
	lw.nextWatcher(t)
	lists := lw.lists()
	if len(lists) != 3 {
		t.Fatalf("lists = %+v, want 3", lists)
	}
	if lists[1].ResourceVersion != "10" || lists[1].Limit != 0 {
		t.Fatalf("relist = %+v, want RV 10 unpaged (served by the watch cache)", lists[1])
	}
	if lists[2].ResourceVersion != "" || lists[2].Limit != defaultPageSize {
		t.Fatalf("retry after expiry = %+v, want RV \"\" paged", lists[2])
	}
	if rv := h.r.LastSyncResourceVersion(); rv != "60" {
		t.Fatalf("LastSyncResourceVersion = %q, want 60", rv)
	}
}

func TestReflectorRewatchesWithoutRelistWhenWatchClosesCleanly(t *testing.T) {
	verifyNoLeaks(t)
	lw := newFakeLW()
	lw.ListFunc = listReturning(objectList("10", ""))
	h := startReflector(t, lw, lw, ReflectorOptions{})
	w := lw.nextWatcher(t)
	w.Send(ev(watch.Added, testObject("a", "x", "11")))
	h.clock.Step(veryShortWatch) // a watch that lived: resumed at once
	w.Close()
	w2 := lw.nextWatcher(t)
	if w2.opts.ResourceVersion != "11" {
		t.Fatalf("rewatch RV = %q, want 11", w2.opts.ResourceVersion)
	}
	if n := len(lw.lists()); n != 1 {
		t.Fatalf("%d lists, want 1", n)
	}
	if !w.isStopped() {
		t.Fatal("the closed watch was not stopped")
	}
	if errs := h.errors(); len(errs) != 0 {
		t.Fatalf("a clean close reported errors: %v", errs)
	}
}

func TestReflectorBacksOffWhenWatchClosesImmediately(t *testing.T) {
	verifyNoLeaks(t)
	lw := newFakeLW()
	lw.ListFunc = listReturning(objectList("10", ""))
	h := startReflector(t, lw, lw, ReflectorOptions{})
	lw.nextWatcher(t).Close()
	errs := h.waitErrors(t, 1)
	if want := (&VeryShortWatchError{Name: h.r.Name()}); errs[0].Error() != want.Error() || !isVeryShortWatch(errs[0]) {
		t.Fatalf("reported %v, want %v", errs[0], want)
	}
	h.waitSleeping(t)
	if n := len(lw.watches()); n != 1 {
		t.Fatalf("%d watch calls while backing off, want 1", n)
	}
	h.clock.Step(defaultBackoffInitial * 2)
	if w := lw.nextWatcher(t); w.opts.ResourceVersion != "10" {
		t.Fatalf("rewatch RV = %q, want 10", w.opts.ResourceVersion)
	}
	if n := len(lw.lists()); n != 1 {
		t.Fatalf("%d lists, want 1", n)
	}
}

func TestReflectorBacksOffAndRewatchesOnTransientWatchErrors(t *testing.T) {
	tests := []struct {
		name string
		err  error
	}{
		{"connection refused", fmt.Errorf("dial tcp 127.0.0.1:6443: %w", syscall.ECONNREFUSED)},
		{"too many requests", apierrors.NewTooManyRequests("slow down", 1)},
		{"internal error", apierrors.NewInternalError(errors.New("etcd hiccup"))},
		{"service unavailable", apierrors.NewServiceUnavailable("restarting")},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			verifyNoLeaks(t)
			lw := newFakeLW()
			lw.ListFunc = listReturning(objectList("10", ""))
			var failures atomic.Int32
			lw.WatchFunc = func(_ context.Context, opts metav1.ListOptions) (watch.Interface, error) {
				if failures.Add(1) <= 3 {
					return nil, tc.err
				}
				w := newFakeWatcher(opts)
				lw.watchers <- w
				return w, nil
			}
			h := startReflector(t, lw, lw, ReflectorOptions{})
			for attempt := 1; attempt <= 3; attempt++ {
				h.waitErrors(t, attempt)
				h.waitSleeping(t)
				// Blocked on the back-off timer: no further attempt until
				// the clock moves.
				if n := len(lw.watches()); n != attempt {
					t.Fatalf("attempt %d: %d watch calls, want %d", attempt, n, attempt)
				}
				h.clock.Step(defaultBackoffMax)
			}
			w := lw.nextWatcher(t)
			if w.opts.ResourceVersion != "10" {
				t.Fatalf("watch resumed at RV %q, want 10", w.opts.ResourceVersion)
			}
			if n := len(lw.lists()); n != 1 {
				t.Fatalf("%d lists, want 1: transient watch errors must not relist", n)
			}
			for _, err := range h.errors() {
				if !errors.Is(err, tc.err) && err.Error() == "" {
					t.Fatalf("reported error %v does not wrap %v", err, tc.err)
				}
			}
		})
	}
}

func TestReflectorBacksOffAndRelistsAfterListError(t *testing.T) {
	verifyNoLeaks(t)
	lw := newFakeLW()
	var calls atomic.Int32
	boom := apierrors.NewInternalError(errors.New("boom"))
	lw.ListFunc = func(context.Context, metav1.ListOptions) (runtime.Object, error) {
		if calls.Add(1) == 1 {
			return nil, boom
		}
		return objectList("10", ""), nil
	}
	h := startReflector(t, lw, lw, ReflectorOptions{})
	if errs := h.waitErrors(t, 1); !apierrors.IsInternalError(errs[0]) {
		t.Fatalf("reported %v, want the list error", errs[0])
	}
	h.waitSleeping(t)
	if n := len(lw.lists()); n != 1 {
		t.Fatalf("%d lists before the back-off elapsed, want 1", n)
	}
	h.clock.Step(defaultBackoffInitial * 2)
	lw.nextWatcher(t)
	if n := len(lw.lists()); n != 2 {
		t.Fatalf("%d lists, want 2", n)
	}
}

func TestReflectorBookmarksMoveResourceVersion(t *testing.T) {
	verifyNoLeaks(t)
	lw := newFakeLW()
	lw.ListFunc = listReturning(objectList("10", ""))
	h := startReflector(t, lw, lw, ReflectorOptions{})
	w := lw.nextWatcher(t)
	w.Send(ev(watch.Bookmark, testObject("", "", "25")))
	ops := h.store.waitOps(t, 2)
	if ops[1] != (storeOp{kind: "rv", rv: "25"}) {
		t.Fatalf("store op = %+v, want a resourceVersion update to 25", ops[1])
	}
	if rv := h.r.LastSyncResourceVersion(); rv != "25" {
		t.Fatalf("LastSyncResourceVersion = %q, want 25", rv)
	}
	w.Send(ev(watch.Added, testObject("a", "x", "26")))
	h.clock.Step(veryShortWatch) // a watch that lived: resumed at once
	w.Close()
	if w2 := lw.nextWatcher(t); w2.opts.ResourceVersion != "26" {
		t.Fatalf("rewatch RV = %q, want 26", w2.opts.ResourceVersion)
	}
}

func TestReflectorRestartsSilentWatchAfterIdleTimeout(t *testing.T) {
	verifyNoLeaks(t)
	lw := newFakeLW()
	lw.ListFunc = listReturning(objectList("10", ""))
	h := startReflector(t, lw, lw, ReflectorOptions{IdleTimeout: time.Minute})
	w := lw.nextWatcher(t)
	h.waitSleeping(t) // the idle timer is armed
	h.clock.Step(30 * time.Second)
	w.Send(ev(watch.Added, testObject("a", "x", "11")))
	h.store.waitOps(t, 2)          // the reflector noted the event's time before storing it
	h.clock.Step(45 * time.Second) // 75 s since start, 45 s since the event
	h.waitSleeping(t)              // re-armed for the 15 s left
	if w.isStopped() {
		t.Fatal("a watch that delivered an event 45 s ago was stopped by a 1 min idle timeout")
	}
	h.clock.Step(20 * time.Second)
	w2 := lw.nextWatcher(t)
	if !w.isStopped() {
		t.Fatal("the idle watch was not stopped")
	}
	if w2.opts.ResourceVersion != "11" {
		t.Fatalf("rewatch RV = %q, want 11", w2.opts.ResourceVersion)
	}
	if errs := h.errors(); len(errs) != 1 || !errors.Is(errs[0], errWatchIdle) {
		t.Fatalf("reported %v, want one errWatchIdle", errs)
	}
	if n := len(lw.lists()); n != 1 {
		t.Fatalf("%d lists, want 1", n)
	}
}

func TestReflectorDropsObjectsOfUnexpectedType(t *testing.T) {
	verifyNoLeaks(t)
	lw := newFakeLW()
	lw.ListFunc = listReturning(objectList("10", ""))
	h := startReflector(t, lw, lw, ReflectorOptions{ExpectedType: &metav1.PartialObjectMetadata{}})
	if h.r.Name() != "*v1.PartialObjectMetadata" {
		t.Fatalf("default name = %q, want it derived from the expected type", h.r.Name())
	}
	w := lw.nextWatcher(t)
	w.Send(ev(watch.Added, &otherObject{ObjectMeta: metav1.ObjectMeta{Namespace: "a", Name: "bad", ResourceVersion: "50"}}))
	w.Send(ev(watch.Added, testObject("a", "good", "11")))
	ops := h.store.waitOps(t, 3)
	if len(ops) != 3 || ops[1].key != "a/good" || ops[2] != (storeOp{kind: "rv", rv: "11"}) {
		t.Fatalf("store ops = %+v, want only the well-typed object added", ops)
	}
	cachetest.Eventually(t, "resourceVersion 11", func() bool { return h.r.LastSyncResourceVersion() == "11" })
}

func TestReflectorStopsPromptlyWhenContextIsCancelled(t *testing.T) {
	blockUntilDone := func(ctx context.Context, _ metav1.ListOptions) (runtime.Object, error) {
		<-ctx.Done()
		return nil, ctx.Err()
	}
	tests := []struct {
		name  string
		setup func(lw *fakeLW)
		reach func(t *testing.T, h *reflectorHarness)
	}{
		{
			name:  "while listing",
			setup: func(lw *fakeLW) { lw.ListFunc = blockUntilDone },
			reach: func(t *testing.T, h *reflectorHarness) {
				cachetest.Eventually(t, "a list call", func() bool { return len(h.lw.lists()) == 1 })
			},
		},
		{
			name: "while opening a watch",
			setup: func(lw *fakeLW) {
				lw.WatchFunc = func(ctx context.Context, _ metav1.ListOptions) (watch.Interface, error) {
					<-ctx.Done()
					return nil, ctx.Err()
				}
			},
			reach: func(t *testing.T, h *reflectorHarness) {
				cachetest.Eventually(t, "a watch call", func() bool { return len(h.lw.watches()) == 1 })
			},
		},
		{
			name:  "while watching",
			setup: func(*fakeLW) {},
			reach: func(t *testing.T, h *reflectorHarness) { h.lw.nextWatcher(t) },
		},
		{
			name: "while backing off",
			setup: func(lw *fakeLW) {
				lw.ListFunc = func(context.Context, metav1.ListOptions) (runtime.Object, error) {
					return nil, errors.New("down")
				}
			},
			reach: func(t *testing.T, h *reflectorHarness) {
				h.waitErrors(t, 1)
				h.waitSleeping(t)
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			verifyNoLeaks(t)
			lw := newFakeLW()
			tc.setup(lw)
			h := startReflector(t, lw, lw, ReflectorOptions{ResyncPeriod: time.Hour})
			tc.reach(t, h)
			h.cancel()
			select {
			case <-h.done:
			case <-time.After(waitLimit):
				t.Fatal("Run did not return after cancellation")
			}
			for _, err := range h.errors() {
				if errors.Is(err, context.Canceled) {
					t.Fatalf("cancellation was reported as a failure: %v", err)
				}
			}
		})
	}
}

func TestReflectorResyncsOnPeriodWhenAllowed(t *testing.T) {
	verifyNoLeaks(t)
	lw := newFakeLW()
	var allow atomic.Bool
	var asked atomic.Int32
	h := startReflector(t, lw, lw, ReflectorOptions{
		ResyncPeriod: time.Minute,
		ShouldResync: func() bool { asked.Add(1); return allow.Load() },
	})
	lw.nextWatcher(t)
	cachetest.Eventually(t, "the resync and idle timers", func() bool { return h.clock.Waiters() == 2 })
	h.clock.Step(time.Minute)
	cachetest.Eventually(t, "ShouldResync to be asked", func() bool { return asked.Load() == 1 })
	cachetest.Eventually(t, "the resync timer to be re-armed", func() bool { return h.clock.Waiters() == 2 })
	if _, resyncs := h.store.snapshot(); resyncs != 0 {
		t.Fatalf("resynced %d times while ShouldResync was false", resyncs)
	}
	allow.Store(true)
	h.clock.Step(time.Minute)
	cachetest.Eventually(t, "a resync", func() bool { _, n := h.store.snapshot(); return n == 1 })
}

// recordingMetrics counts the Metrics calls a reflector makes.
type recordingMetrics struct {
	mu           sync.Mutex
	lists        []int
	watchStarts  int
	watchEnds    []int
	watchEndErrs []error
	rvs          []string
}

func (m *recordingMetrics) ListDone(items int, _ time.Duration, err error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if err == nil {
		m.lists = append(m.lists, items)
	}
}
func (m *recordingMetrics) WatchStarted() { m.mu.Lock(); m.watchStarts++; m.mu.Unlock() }
func (m *recordingMetrics) WatchEnded(events int, err error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.watchEnds = append(m.watchEnds, events)
	m.watchEndErrs = append(m.watchEndErrs, err)
}
func (m *recordingMetrics) ResourceVersion(rv string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.rvs = append(m.rvs, rv)
}
func (m *recordingMetrics) QueueDepth(int)         {}
func (m *recordingMetrics) EventsProcessed(int)    {}
func (m *recordingMetrics) HandlerLag(string, int) {}
func (m *recordingMetrics) HandlerPanicked(string) {}

func TestReflectorReportsMetrics(t *testing.T) {
	verifyNoLeaks(t)
	lw := newFakeLW()
	lw.ListFunc = listReturning(objectList("10", "", testObject("a", "x", "9"), testObject("a", "y", "10")))
	m := &recordingMetrics{}
	h := startReflector(t, lw, lw, ReflectorOptions{Metrics: m})
	w := lw.nextWatcher(t)
	w.Send(ev(watch.Added, testObject("a", "z", "11")))
	h.clock.Step(veryShortWatch) // a watch that lived: resumed at once
	w.Close()
	lw.nextWatcher(t)
	// The reflector reports WatchStarted after Watch returns.
	cachetest.Eventually(t, "second WatchStarted", func() bool {
		m.mu.Lock()
		defer m.mu.Unlock()
		return m.watchStarts == 2
	})
	m.mu.Lock()
	defer m.mu.Unlock()
	if len(m.lists) != 1 || m.lists[0] != 2 {
		t.Errorf("ListDone items = %v, want [2]", m.lists)
	}
	if m.watchStarts != 2 {
		t.Errorf("WatchStarted called %d times, want 2", m.watchStarts)
	}
	if len(m.watchEnds) != 1 || m.watchEnds[0] != 1 || m.watchEndErrs[0] != nil {
		t.Errorf("WatchEnded = %v %v, want one clean end after 1 event", m.watchEnds, m.watchEndErrs)
	}
	if len(m.rvs) != 2 || m.rvs[0] != "10" || m.rvs[1] != "11" {
		t.Errorf("ResourceVersion calls = %v, want [10 11]", m.rvs)
	}
}

func TestReflectorRunTwiceReturnsAtOnce(t *testing.T) {
	verifyNoLeaks(t)
	lw := newFakeLW()
	h := startReflector(t, lw, lw, ReflectorOptions{})
	lw.nextWatcher(t)
	done := make(chan struct{})
	go func() {
		defer close(done)
		h.r.RunWithContext(context.Background())
	}()
	select {
	case <-done:
	case <-time.After(waitLimit):
		t.Fatal("second Run did not return")
	}
}

// TestReflectorBacksOffWhenWatchesKeepClosingAfterOneEvent pins that a
// server closing every watch right after one event (a bookmark) does not
// get the watch re-opened in a hot loop: the reflector waits on its
// back-off (a fake clock that does not move) before each new watch.
func TestReflectorBacksOffWhenWatchesKeepClosingAfterOneEvent(t *testing.T) {
	verifyNoLeaks(t)
	// In a bubble, "no second watch" is checked once every goroutine
	// is blocked, not over a bounded interval of real time.
	synctest.Test(t, func(t *testing.T) {
		lw := newFakeLW()
		lw.ListFunc = listReturning(objectList("10", ""))
		var rv atomic.Int64
		rv.Store(10)
		var mu sync.Mutex
		var watchers []*fakeWatcher
		lastStopped := func() bool {
			mu.Lock()
			defer mu.Unlock()
			return len(watchers) > 0 && watchers[len(watchers)-1].isStopped()
		}
		lw.WatchFunc = func(_ context.Context, opts metav1.ListOptions) (watch.Interface, error) {
			w := newFakeWatcher(opts)
			mu.Lock()
			watchers = append(watchers, w)
			mu.Unlock()
			go func() {
				w.Send(ev(watch.Bookmark, testObject("", "", strconv.FormatInt(rv.Add(1), 10))))
				w.Close()
			}()
			return w, nil
		}
		h := startReflector(t, lw, lw, ReflectorOptions{})
		cachetest.Eventually(t, "the first watch", func() bool { return len(lw.watches()) >= 1 })
		// Every goroutine waits, the reflector on its back-off: the
		// clock does not move, so there is no second watch.
		synctest.Wait()
		if n := len(lw.watches()); n != 1 {
			t.Fatalf("%d watch calls without the clock moving, want 1", n)
		}
		for want := 2; want <= 4; want++ {
			// Once the watch is stopped, the only timer left is the back-off.
			cachetest.Eventually(t, "the watch to end", lastStopped)
			h.waitSleeping(t)
			h.clock.Step(defaultBackoffMax)
			cachetest.Eventually(t, fmt.Sprintf("watch %d", want), func() bool { return len(lw.watches()) >= want })
		}
		if n := len(lw.lists()); n != 1 {
			t.Fatalf("%d lists, want 1: a cleanly closed watch resumes without relisting", n)
		}
		if w := lw.watches()[3]; w.ResourceVersion == "" || w.ResourceVersion == "10" {
			t.Fatalf("watch resumed at %q, want the last bookmark's resourceVersion", w.ResourceVersion)
		}
	})
}

// TestReflectorIgnoresBookmarksWithoutResourceVersion pins that a
// bookmark carrying no resourceVersion does not move the watch position:
// the reflector resumes from the last real one.
func TestReflectorIgnoresBookmarksWithoutResourceVersion(t *testing.T) {
	verifyNoLeaks(t)
	lw := newFakeLW()
	lw.ListFunc = listReturning(objectList("10", ""))
	h := startReflector(t, lw, lw, ReflectorOptions{})
	w := lw.nextWatcher(t)
	w.Send(ev(watch.Added, testObject("a", "x", "11")))
	w.Send(ev(watch.Bookmark, testObject("", "", "")))
	w.Send(ev(watch.Bookmark, testObject("", "", "")))
	// Sent is not yet handled: the burst's resourceVersion is published
	// once its last event is.
	cachetest.Eventually(t, "LastSyncResourceVersion 11", func() bool { return h.r.LastSyncResourceVersion() == "11" })
	h.clock.Step(veryShortWatch) // a watch that lived: resumed at once
	w.Close()
	if w2 := lw.nextWatcher(t); w2.opts.ResourceVersion != "11" {
		t.Fatalf("rewatch RV = %q, want 11", w2.opts.ResourceVersion)
	}
	ops, _ := h.store.snapshot()
	for _, op := range ops {
		if op.kind == "rv" && op.rv == "" {
			t.Fatalf("store told of an empty resourceVersion: %+v", ops)
		}
	}
}

// client-go's REST client retries a watch whose connection ends with EOF for
// several seconds inside Watch, then hands back an empty, closed watch and no
// error (behind a proxy or load balancer that accepts and drops
// connections). That watch delivered nothing: it is a very short watch,
// reported and backed off, however long the Watch call itself took.
func TestReflectorReportsEmptyWatchAfterSlowWatchCallAsVeryShort(t *testing.T) {
	verifyNoLeaks(t)
	lw := newFakeLW()
	lw.ListFunc = listReturning(objectList("10", ""))
	started := make(chan *testingclock.FakeClock, 1)
	lw.WatchFunc = func(ctx context.Context, _ metav1.ListOptions) (watch.Interface, error) {
		var clk *testingclock.FakeClock
		select {
		case clk = <-started:
			started <- clk
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		clk.Step(10 * time.Second) // the REST client's retries inside Watch
		return watch.NewEmptyWatch(), nil
	}
	h := startReflector(t, lw, lw, ReflectorOptions{})
	started <- h.clock
	if errs := h.waitErrors(t, 1); !isVeryShortWatch(errs[0]) {
		t.Fatalf("reported %v, want a *VeryShortWatchError", errs[0])
	}
	h.waitSleeping(t)
	if n := len(lw.watches()); n != 1 {
		t.Fatalf("%d watch calls while backing off, want 1", n)
	}
}
