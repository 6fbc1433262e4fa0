package cache

import (
	"context"
	"strconv"
	"sync"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/watch"
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
	verifyNoLeaks(t)
	// More keys than one applied batch, so the last ones are still queued
	// while the first batch is held up by the gate.
	const n = applyBatch + 100
	listed := make([]*metav1.PartialObjectMetadata, n)
	for i := range listed {
		listed[i] = testObject("ns", "o"+strconv.Itoa(i), "10")
		listed[i].UID = types.UID("uid-" + strconv.Itoa(i))
	}
	last := listed[n-1]
	lw := newFakeLW()
	lw.ListFunc = listReturning(objectList("10", "", listed...))
	gate := make(chan struct{})
	var gateOnce sync.Once
	inf := NewSharedIndexInformerWithOptions(lw, &metav1.PartialObjectMetadata{}, SharedIndexInformerOptions{
		Indexers: Indexers{"gate": func(any) ([]string, error) {
			<-gate // holds the first applied batch until released
			return nil, nil
		}},
	})
	rec := &addRecorder{}
	if _, err := inf.AddEventHandler(rec); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		inf.Run(ctx)
	}()
	defer func() {
		gateOnce.Do(func() { close(gate) })
		cancel()
		<-done
	}()

	w := lw.nextWatcher(t)
	gone := last.DeepCopy()
	gone.ResourceVersion = "11"
	again := last.DeepCopy()
	again.ResourceVersion, again.UID = "12", "uid-again"
	w.Send(ev(watch.Deleted, gone))
	w.Send(ev(watch.Added, again))
	// Taken only once the events before it were queued.
	w.Send(ev(watch.Bookmark, testObject("", "", "12")))
	gateOnce.Do(func() { close(gate) })

	key := "ns/" + last.Name
	waitFor(t, "the re-created object's add", func() bool {
		for _, a := range rec.snapshot() {
			if a == key+" uid-again false" || a == key+" uid-again true" {
				return true
			}
		}
		return false
	})
	var got []string
	for _, a := range rec.snapshot() {
		if len(a) > len(key) && a[:len(key)+1] == key+" " {
			got = append(got, a)
		}
	}
	want := []string{key + " " + string(last.UID) + " true", key + " uid-again false"}
	if len(got) != 2 || got[0] != want[0] || got[1] != want[1] {
		t.Fatalf("adds of %s = %q, want %q", key, got, want)
	}
	waitFor(t, "HasSynced", inf.HasSynced)
}
