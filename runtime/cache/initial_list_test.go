package cache

import (
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/informer-gen/informer-gen/runtime/cache/cachetest"
	"github.com/informer-gen/informer-gen/runtime/cache/internal/controller"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// addRecorder records every add a handler receives with its
// isInInitialList flag, as "key uid initial".
type addRecorder struct {
	mu   sync.Mutex
	adds []string
}

func (r *addRecorder) OnAdd(obj any, isInInitialList bool) {
	m := obj.(metav1.Object)
	r.mu.Lock()
	defer r.mu.Unlock()
	r.adds = append(r.adds, m.GetNamespace()+"/"+m.GetName()+" "+string(m.GetUID())+" "+strconv.FormatBool(isInInitialList))
}
func (r *addRecorder) OnUpdate(_, _ any) {}
func (r *addRecorder) OnDelete(any)      {}

func (r *addRecorder) snapshot() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.adds...)
}

// TestInformerInitialListFlagBelongsToTheChange pins that only the changes
// of the first list are reported as initial: a listed key that a watch
// deletes and re-creates while its entry still waits in the queue is
// added first as initial (the listed object), then as not initial (the
// re-created one), as client-go's in-order queue reports it.
func TestInformerInitialListFlagBelongsToTheChange(t *testing.T) {
	srv := newModelServer()
	// More keys than one applied batch, so some are still queued while
	// the first batch is held up by the gate.
	fill(srv, controller.MaxBatch+100)
	gate := make(chan struct{})
	var gateOnce sync.Once
	release := func() { gateOnce.Do(func() { close(gate) }) }
	defer release()
	rec := &addRecorder{}
	inf := startInformer(t, srv, SharedIndexInformerOptions{
		Indexers: Indexers{"gate": func(any) ([]string, error) {
			<-gate // holds the first applied batch until released
			return nil, nil
		}},
	}, func(s *sharedIndexInformer) { mustAdd(t, s, rec, HandlerOptions{}) })
	defer inf.stop(t)

	// A key of the list still queued behind the held batch.
	var key string
	cachetest.Eventually(t, "the list to be queued behind the held batch", func() bool {
		f := inf.fifo.Load()
		if f == nil {
			return false
		}
		s := f.q.Snapshot()
		if !s.Populated || !s.Processing || s.Queued == 0 {
			return false
		}
		key = s.LastKey
		return true
	})
	_, name, _ := SplitMetaNamespaceKey(key)
	listed := srv.state()[key]
	srv.remove(name)
	srv.put(name, false) // a new object: new UID
	recreated := srv.state()[key]
	cachetest.Eventually(t, "the delete and the add to join the queued entry", func() bool {
		return inf.fifo.Load().q.QueuedDeltas(key) == 3
	})
	release()

	uidOf := func(state string) string { return state[:strings.IndexByte(state, '@')] }
	want := []string{key + " " + uidOf(listed) + " true", key + " " + uidOf(recreated) + " false"}
	cachetest.Eventually(t, "both adds of "+key, func() bool {
		n := 0
		for _, a := range rec.snapshot() {
			if strings.HasPrefix(a, key+" ") {
				n++
			}
		}
		return n >= 2
	})
	var got []string
	for _, a := range rec.snapshot() {
		if strings.HasPrefix(a, key+" ") {
			got = append(got, a)
		}
	}
	if len(got) != 2 || got[0] != want[0] || got[1] != want[1] {
		t.Fatalf("adds of %s = %q, want %q", key, got, want)
	}
}
