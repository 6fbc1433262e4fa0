package cache

import (
	"fmt"
	"slices"
	"testing"

	"github.com/informer-gen/informer-gen/runtime/cache/internal/queue"
)

// hintEvent is one change the hint tests queue: typ of version (a label;
// the object is made from it) of key "ns/<name>".
type hintEvent struct {
	typ     DeltaType
	name    string
	version string
}

// hintRecorder is a compaction that records, for each object it compacts,
// the version label of its hint ("" for none).
type hintRecorder struct {
	labels map[any]string // object -> its version label
	hints  []string       // "<version>:<hint version>", in compaction order
}

func (r *hintRecorder) compact(obj, hint any) any {
	compacted := obj
	if d, ok := obj.(DeletedFinalStateUnknown); ok {
		obj = d.Obj
	}
	r.hints = append(r.hints, r.labels[obj]+":"+r.labels[hint])
	return compacted
}

// hintSchedule says when the consumer pops and applies, relative to the
// events: after event i (0-based) it pops one batch when popAfter(i); the
// events queued while that batch is processed (duringBatch of them) go in
// before the batch reaches the cache when beforeApply, after it otherwise.
type hintSchedule struct {
	popAfter    func(i int) bool
	duringBatch int
	beforeApply bool
}

// runHintSchedule queues events into a compacting DeltaFIFO fed by an
// informer-shaped cache, popping and applying batches as s says, and
// returns the hints the compaction saw.
func runHintSchedule(t *testing.T, events []hintEvent, s hintSchedule) []string {
	t.Helper()
	cache := newThreadSafeStore(MetaNamespaceKeyFunc, nil)
	rec := &hintRecorder{labels: map[any]string{}}
	f := newDeltaFIFO(DeltaFIFOOptions{KeyFunction: MetaNamespaceKeyFunc, KnownObjects: cache},
		queueWiring{Cache: cache, Compaction: rec.compact})
	next := 0
	queueNext := func() {
		ev := events[next]
		next++
		obj := testObject("ns", ev.name, ev.version)
		rec.labels[obj] = ev.version
		var err error
		switch ev.typ {
		case Added:
			err = f.Add(obj)
		case Updated:
			err = f.Update(obj)
		case Deleted:
			err = f.Delete(obj)
		}
		if err != nil {
			t.Fatalf("queueing %s %s: %v", ev.typ, ev.version, err)
		}
	}
	apply := func(b queue.Batch) {
		for _, item := range b.Items {
			for _, d := range item.Deltas {
				if d.Type == Deleted {
					cache.DeleteKeyed(item.Key)
				} else if _, _, _, err := cache.SwapKeyed(item.Key, d.Object, nil); err != nil {
					t.Fatalf("storing %s: %v", item.Key, err)
				}
			}
		}
	}
	pop := func() {
		if _, err := f.popBatch(0, func(b queue.Batch) {
			if !s.beforeApply {
				apply(b)
			}
			for i := 0; i < s.duringBatch && next < len(events); i++ {
				queueNext()
			}
			if s.beforeApply {
				apply(b)
			}
		}); err != nil {
			t.Fatalf("popBatch: %v", err)
		}
	}
	for next < len(events) {
		i := next
		queueNext()
		if s.popAfter(i) {
			pop()
		}
	}
	for f.Len() > 0 {
		pop()
	}
	return rec.hints
}

// TestCompactionHintIsThePreviousVersionWhateverTheSchedule pins down that
// the hint an object is compacted with is the previous version of its key
// in the order the changes were queued (none after a deletion), whether
// that version is still queued, in the batch being applied (before or
// after the cache got it) or in the cache.
func TestCompactionHintIsThePreviousVersionWhateverTheSchedule(t *testing.T) {
	events := []hintEvent{
		{Added, "a", "a1"}, {Updated, "a", "a2"}, {Added, "b", "b1"},
		{Deleted, "a", "a2-gone"}, {Added, "a", "a3"}, {Updated, "b", "b2"},
		{Updated, "a", "a4"}, {Updated, "b", "b3"}, {Updated, "a", "a5"},
		{Deleted, "b", "b3-gone"}, {Updated, "a", "a6"},
	}
	want := []string{
		"a1:", "a2:a1", "b1:", "a2-gone:a2", "a3:", "b2:b1",
		"a4:a3", "b3:b2", "a5:a4", "b3-gone:b3", "a6:a5",
	}
	always := func(int) bool { return true }
	never := func(int) bool { return false }
	schedules := map[string]hintSchedule{
		"everything queued, then applied":                  {popAfter: never},
		"each event applied before the next":               {popAfter: always},
		"every other event applied":                        {popAfter: func(i int) bool { return i%2 == 1 }},
		"next events queued while the batch is not cached": {popAfter: always, duringBatch: 2, beforeApply: true},
		"next events queued once the batch is cached":      {popAfter: always, duringBatch: 2},
		"one event queued during each batch, in two steps": {popAfter: func(i int) bool { return i%3 == 0 }, duringBatch: 1, beforeApply: true},
	}
	names := make([]string, 0, len(schedules))
	for name := range schedules {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			got := runHintSchedule(t, events, schedules[name])
			if !slices.Equal(got, want) {
				t.Errorf("hints (version:hint version)\n got %s\nwant %s", fmt.Sprint(got), fmt.Sprint(want))
			}
		})
	}
}
