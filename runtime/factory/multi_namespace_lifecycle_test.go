package factory

import (
	"context"
	"testing"
	"time"

	"go.uber.org/goleak"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/informer-gen/informer-gen/runtime/cache"
)

// chanDone is a DoneChecker closed by hand.
type chanDone chan struct{}

func (c chanDone) Name() string          { return "part" }
func (c chanDone) Done() <-chan struct{} { return c }

// heldInformer is a fakeInformer that syncs only when the test calls
// markSynced.
type heldInformer struct {
	*fakeInformer
	running chan struct{} // closed when RunWithContext starts
}

func (h *heldInformer) RunWithContext(ctx context.Context) {
	h.runs.Add(1)
	close(h.running)
	<-ctx.Done()
	h.stopped.Store(true)
}

// newHeldMulti returns an informer of namespaces a and b whose
// namespaces' informers sync when the test says.
func newHeldMulti(t *testing.T) (*multiNamespaceInformer, []*heldInformer) {
	t.Helper()
	var parts []*heldInformer
	s := New(WithNamespaces("a", "b"))
	m := s.InformerFor(&metav1.PartialObjectMetadata{}, func(c InformerConfig) cache.SharedIndexInformer {
		h := &heldInformer{fakeInformer: newFakeInformer(c), running: make(chan struct{})}
		parts = append(parts, h)
		return h
	}).(*multiNamespaceInformer)
	return m, parts
}

// runMulti runs m, whose parts are parts, until the returned stop, which
// waits (boundedly) for RunWithContext to return. It returns once every
// part runs.
func runMulti(t *testing.T, m *multiNamespaceInformer, parts []*heldInformer) (stop func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	returned := make(chan struct{})
	go func() {
		defer close(returned)
		m.RunWithContext(ctx)
	}()
	for _, p := range parts {
		mustClose(t, p.running, "namespace "+p.config.Namespace+" to run")
	}
	return func() {
		t.Helper()
		cancel()
		mustClose(t, returned, "RunWithContext to return")
	}
}

// mustClose fails the test when ch is not closed within a generous bound
// (a hang made visible, not a speed assertion).
func mustClose(t *testing.T, ch <-chan struct{}, what string) {
	t.Helper()
	select {
	case <-ch:
	case <-time.After(30 * time.Second):
		t.Fatalf("timed out waiting for %s", what)
	}
}

func TestMultiNamespaceSyncedCheckerIsDoneOnceEveryNamespaceSynced(t *testing.T) {
	m, parts := newHeldMulti(t)
	checker := m.HasSyncedChecker()
	if checker.Done() != m.HasSyncedChecker().Done() {
		t.Fatal("HasSyncedChecker returns another channel on each call")
	}
	stop := runMulti(t, m, parts)
	defer stop()
	parts[0].markSynced()
	if cache.IsDone(checker) {
		t.Fatal("done with namespace b not synced")
	}
	parts[1].markSynced()
	mustClose(t, checker.Done(), "the checker once both namespaces synced")
	if !m.HasSynced() {
		t.Fatal("checker done but HasSynced false")
	}
}

// An informer stopped before it synced leaves no goroutine behind, and
// its checkers stay not done: nothing waits for them any more.
func TestMultiNamespaceStoppedUnsyncedLeavesNothingWaiting(t *testing.T) {
	m, parts := newHeldMulti(t)
	reg, err := m.AddEventHandler(cache.ResourceEventHandlerFuncs{})
	if err != nil {
		t.Fatal(err)
	}
	handler := reg.HasSyncedChecker()
	handler.Done() // before Run: waits once Run starts
	leaks := goleak.IgnoreCurrent()
	stop := runMulti(t, m, parts)
	parts[0].markSynced()
	stop()
	goleak.VerifyNone(t, leaks)
	if cache.IsDone(m.HasSyncedChecker()) || cache.IsDone(handler) {
		t.Fatal("a checker is done although namespace b never synced")
	}
	if again := reg.HasSyncedChecker(); again != handler || cache.IsDone(again) {
		t.Fatal("after the stop, the handler's checker changed or is done")
	}
}

// A handler's checker is done once the handler synced in every
// namespace, whenever it is asked for; it waits only while the informer
// runs, and stops waiting when the handler is removed.
func TestMultiNamespaceHandlerChecker(t *testing.T) {
	tests := []struct {
		name string
		// askBeforeRun calls Done before the informer runs.
		askBeforeRun bool
		// remove removes the handler before the namespaces sync.
		remove bool
	}{
		{"asked before Run: done once both namespaces synced", true, false},
		{"asked while running: done once both namespaces synced", false, false},
		{"removed handler: the wait ends, not done", false, true},
		{"asked before Run, then removed: the wait ends, not done", true, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, parts := newHeldMulti(t)
			reg, err := m.AddEventHandler(cache.ResourceEventHandlerFuncs{})
			if err != nil {
				t.Fatal(err)
			}
			checker := reg.HasSyncedChecker()
			if tt.askBeforeRun {
				leaks := goleak.IgnoreCurrent()
				checker.Done()
				goleak.VerifyNone(t, leaks) // nothing waits before Run
			}
			stop := runMulti(t, m, parts)
			defer stop()
			leaks := goleak.IgnoreCurrent()
			checker.Done()
			parts[0].markSynced()
			if cache.IsDone(checker) {
				t.Fatal("done with namespace b not synced")
			}
			if tt.remove {
				if err := m.RemoveEventHandler(reg); err != nil {
					t.Fatal(err)
				}
				goleak.VerifyNone(t, leaks)
				parts[1].markSynced()
				if cache.IsDone(checker) {
					t.Fatal("a removed handler's checker is done")
				}
				return
			}
			parts[1].markSynced()
			mustClose(t, checker.Done(), "the handler's checker once both namespaces synced")
		})
	}
}

func TestMultiNamespaceControllerViewAndStoreVersions(t *testing.T) {
	m, rec := newMulti(t, obj("a", "x"), obj("b", "x"))
	ctl := m.GetController()
	if ctl.HasSynced() {
		t.Fatal("synced before the parts")
	}
	for _, f := range rec.made {
		f.markSynced()
		f.indexer.Bookmark("rv-" + f.config.Namespace)
	}
	if !ctl.HasSynced() {
		t.Fatal("not synced after every part")
	}
	if got := m.GetIndexer().LastStoreSyncResourceVersion(); got != "rv-a,rv-b" {
		t.Fatalf("LastStoreSyncResourceVersion = %q", got)
	}
	if got := ctl.LastSyncResourceVersion(); got != "rv-a,rv-b" {
		t.Fatalf("controller LastSyncResourceVersion = %q", got)
	}
}
