package factory

import (
	"testing"
	"time"

	"github.com/informer-gen/informer-gen/runtime/cache"
)

// chanDone is a DoneChecker closed by hand.
type chanDone chan struct{}

func (c chanDone) Name() string          { return "part" }
func (c chanDone) Done() <-chan struct{} { return c }

func TestAllDoneWaitsForEveryPart(t *testing.T) {
	a, b := make(chanDone), make(chanDone)
	all := newAllDone("both", []cache.DoneChecker{a, b})
	done := all.Done()
	close(a)
	select {
	case <-done:
		t.Fatal("done with one part pending")
	case <-time.After(20 * time.Millisecond):
	}
	close(b)
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("not done after every part")
	}
}

func TestMultiNamespaceControllerViewAndStoreVersions(t *testing.T) {
	m, rec := newMulti(t, obj("a", "x"), obj("b", "x"))
	ctl := m.GetController()
	if ctl.HasSynced() {
		t.Fatal("synced before the parts")
	}
	for _, f := range rec.made {
		f.synced.Store(true)
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
