package queue

import (
	"errors"
	"reflect"
	"slices"
	"strconv"
	"sync"
	"testing"
	"testing/synctest"

	"github.com/informer-gen/informer-gen/runtime/cache/cachetest"
)

// The delta queue's semantics, tested on the FIFO itself (runtime/cache's
// DeltaFIFO wraps it; its tests there pin what client-go's DeltaFIFO
// shows).

// nsObj is the test object of key "ns/<name>" at version v.
func nsObj(name, v string) obj { return obj{"ns/" + name, v} }

// popAll pops every queued key of f, recording the batches.
func popAll(t *testing.T, f *FIFO) []Popped {
	t.Helper()
	var out []Popped
	for f.Len() > 0 {
		_, err := f.PopBatch(0, func(pb Batch) {
			for _, p := range pb.Items {
				out = append(out, Popped{Key: p.Key, Deltas: append(Deltas(nil), p.Deltas...), InitialDeltas: p.InitialDeltas})
			}
		})
		if err != nil {
			t.Fatalf("PopBatch: %v", err)
		}
	}
	return out
}

// deltaTypes renders popped items as key -> delta types.
func deltaTypes(popped []Popped) map[string][]DeltaType {
	out := map[string][]DeltaType{}
	for _, p := range popped {
		for _, d := range p.Deltas {
			out[p.Key] = append(out[p.Key], d.Type)
		}
	}
	return out
}

func TestFIFOCloseUnblocksPopBatch(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := New(nil, nil, Config{KeyOf: keyOf})
		var wg sync.WaitGroup
		wg.Add(1)
		var err error
		go func() {
			defer wg.Done()
			_, err = f.PopBatch(0, func(Batch) { t.Error("processed from an empty queue") })
		}()
		synctest.Wait() // popBatch is blocked waiting for deltas
		f.Close()
		wg.Wait()
		if !errors.Is(err, ErrClosed) {
			t.Fatalf("err = %v, want ErrClosed", err)
		}
	})
}

func TestFIFOPopBatchHonoursMax(t *testing.T) {
	f := New(nil, nil, Config{KeyOf: keyOf})
	for _, name := range []string{"a", "b", "c"} {
		mustNoErr(t, f.Add(nsObj(name, "1")))
	}
	n, err := f.PopBatch(2, func(pb Batch) {
		batch := pb.Items
		if len(batch) != 2 {
			t.Errorf("batch of %d, want 2", len(batch))
		}
	})
	if n != 2 || err != nil || f.Len() != 1 {
		t.Fatalf("popBatch = %d, %v; Len = %d; want 2, nil, 1", n, err, f.Len())
	}
}

func TestFIFOConcurrentProducersAndConsumerLoseNoKey(t *testing.T) {
	var mu sync.Mutex
	seen := map[string]int{}
	f := New(nil, nil, Config{KeyOf: keyOf})
	consumed := make(chan struct{})
	go func() {
		defer close(consumed)
		for {
			_, err := f.PopBatch(3, func(pb Batch) {
				batch := pb.Items
				mu.Lock()
				for _, p := range batch {
					seen[p.Key] += len(p.Deltas)
				}
				mu.Unlock()
			})
			if err != nil {
				return
			}
		}
	}()
	var wg sync.WaitGroup
	for p := 0; p < 4; p++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 500; i++ {
				mustNoErr(t, f.Add(nsObj("p"+strconv.Itoa(p)+"-"+strconv.Itoa(i), "1")))
			}
		}()
	}
	wg.Wait()
	cachetest.Eventually(t, "all keys processed", func() bool {
		mu.Lock()
		defer mu.Unlock()
		return len(seen) == 2000
	})
	f.Close()
	<-consumed
}

// Replace waits until the batch being processed is in the cache, so the
// key in flight is tombstoned by the list that lacks it. Run in a synctest
// bubble: once every goroutine is durably blocked, a Replace that did not
// return is waiting for the batch.
func TestFIFOReplaceWaitsForTheBatchBeingProcessed(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		known := mapCache{}
		f := New(known, nil, Config{KeyOf: keyOf})
		mustNoErr(t, f.Add(nsObj("limbo", "1")))
		release := make(chan struct{})
		popped := make(chan struct{})
		go func() {
			defer close(popped)
			_, err := f.PopBatch(0, func(pb Batch) {
				<-release
				// Apply the batch to the cache, as the informer does.
				known.apply(pb)
			})
			mustNoErr(t, err)
		}()
		synctest.Wait() // the batch is being processed
		replaced := make(chan error, 1)
		go func() { replaced <- f.Replace(nil, "2") }()
		synctest.Wait() // Replace returned, or waits for the batch
		select {
		case <-replaced:
			t.Fatal("Replace ran while a popped batch was not yet in the cache")
		default:
		}
		close(release)
		<-popped
		mustNoErr(t, <-replaced)
		want := map[string][]DeltaType{"ns/limbo": {Deleted}}
		if got := deltaTypes(popAll(t, f)); !reflect.DeepEqual(got, want) {
			t.Fatalf("deltas = %v, want %v: the key in flight must be tombstoned", got, want)
		}
	})
}

func TestFIFOSecondReplaceTombstonesKeysOfTheFirstStillQueued(t *testing.T) {
	f := New(nil, nil, Config{KeyOf: keyOf})
	gone := nsObj("gone", "1")
	mustNoErr(t, f.Replace([]any{nsObj("kept", "1"), gone, nsObj("kept", "2")}, "1"))
	mustNoErr(t, f.Replace([]any{nsObj("kept", "3")}, "2"))
	popped := popAll(t, f)
	want := map[string][]DeltaType{
		"ns/kept": {Replaced, Replaced, Replaced},
		"ns/gone": {Replaced, Deleted},
	}
	if got := deltaTypes(popped); !reflect.DeepEqual(got, want) {
		t.Fatalf("deltas = %v, want %v", got, want)
	}
	for _, p := range popped {
		if p.Key != "ns/gone" {
			continue
		}
		if tomb, ok := p.Deltas.Newest().Object.(DeletedFinalStateUnknown); !ok || tomb.Obj != gone {
			t.Fatalf("tombstone of ns/gone = %#v, want one carrying the listed object", p.Deltas.Newest().Object)
		}
	}
	// The first list held two distinct keys: both count for HasSynced,
	// the duplicate does not.
	if !f.HasSynced() {
		t.Fatal("not synced after popping every key of the first list")
	}
}

func TestFIFOInitialPopulationCountsDistinctKeys(t *testing.T) {
	f := New(nil, nil, Config{KeyOf: keyOf})
	mustNoErr(t, f.Replace([]any{nsObj("a", "1"), nsObj("a", "2"), nsObj("b", "1")}, "1"))
	if got := f.Snapshot().InitialPending; got != 2 {
		t.Fatalf("initial population = %d, want 2 (distinct keys)", got)
	}
}

func TestFIFORecycledEntriesCarryNoStaleDeltas(t *testing.T) {
	f := New(nil, nil, Config{KeyOf: keyOf})
	// A key with many deltas (beyond the inline one and past the recycle
	// cap), then fresh keys reusing the recycled entries.
	for i := 0; i < 20; i++ {
		mustNoErr(t, f.Update(nsObj("busy", strconv.Itoa(i))))
	}
	mustNoErr(t, f.Add(nsObj("other", "1")))
	popAll(t, f)
	for round := 0; round < 3; round++ {
		mustNoErr(t, f.Add(nsObj("x", strconv.Itoa(round))))
		mustNoErr(t, f.Add(nsObj("y", strconv.Itoa(round))))
		popped := popAll(t, f)
		want := map[string][]DeltaType{"ns/x": {Added}, "ns/y": {Added}}
		if got := deltaTypes(popped); !reflect.DeepEqual(got, want) {
			t.Fatalf("round %d: deltas = %v, want %v", round, got, want)
		}
		for _, p := range popped {
			if rv := p.Deltas[0].Object.(obj).v; rv != strconv.Itoa(round) {
				t.Fatalf("round %d: %s carries resourceVersion %s", round, p.Key, rv)
			}
		}
	}
}

func TestFIFOTellsPoppedKeysOfALargeQueueFromQueuedOnes(t *testing.T) {
	const n = ShrinkThreshold + 1000
	f := New(mapCache{}, nil, Config{KeyOf: keyOf})
	list := make([]any, n)
	for i := range list {
		list[i] = nsObj("o"+strconv.Itoa(i), "1")
	}
	mustNoErr(t, f.Replace(list, "1"))
	_, err := f.PopBatch(100, func(Batch) {})
	mustNoErr(t, err)
	// o0 was popped (and, here, never stored): deleting it is a no-op.
	mustNoErr(t, f.Delete(nsObj("o0", "2")))
	// o1 was popped: an update queues it anew, at the back.
	mustNoErr(t, f.Update(nsObj("o1", "2")))
	// o500 is still queued: an update joins its entry.
	mustNoErr(t, f.Update(nsObj("o500", "2")))
	if got, want := f.Len(), n-100+1; got != want {
		t.Fatalf("Len = %d, want %d", got, want)
	}
	popped := popAll(t, f)
	if last := popped[len(popped)-1]; last.Key != "ns/o1" || len(last.Deltas) != 1 || last.Deltas[0].Type != Updated || last.InitialDeltas != 0 {
		t.Fatalf("last popped %+v, want ns/o1 with one Updated delta, not initial", last)
	}
	types := deltaTypes(popped)
	if got := types["ns/o500"]; !reflect.DeepEqual(got, []DeltaType{Replaced, Updated}) {
		t.Fatalf("ns/o500 deltas = %v, want [Replaced Updated]", got)
	}
	if _, ok := types["ns/o0"]; ok {
		t.Fatal("the delete of a popped, unknown key was queued")
	}
	if len(types) != n-100+1 {
		t.Fatalf("%d distinct keys popped, want %d", len(types), n-100+1)
	}
	if !f.HasSynced() {
		t.Fatal("not synced after popping everything")
	}
}

func TestFIFOFirstReplaceWithAConcurrentConsumer(t *testing.T) {
	const n = 20 * 256 // 20 times the keys a fresh Replace queues between releases of the lock
	f := New(mapCache{}, nil, Config{KeyOf: keyOf})
	list := make([]any, n)
	for i := range list {
		list[i] = nsObj("o"+strconv.Itoa(i%(n-10)), "1") // 10 duplicates
	}
	replaced := make(chan struct{})
	seen := map[string]int{}
	var mu sync.Mutex
	consumerDone := make(chan struct{})
	go func() {
		defer close(consumerDone)
		for {
			_, err := f.PopBatch(64, func(pb Batch) {
				batch := pb.Items
				mu.Lock()
				defer mu.Unlock()
				for _, p := range batch {
					// A duplicate listed while its key is still queued
					// joins the entry: every change is initial.
					if p.InitialDeltas != len(p.Deltas) {
						t.Errorf("%s popped with %d of %d changes in the initial list", p.Key, p.InitialDeltas, len(p.Deltas))
					}
					seen[p.Key]++
				}
			})
			if errors.Is(err, ErrClosed) {
				return
			}
			if !f.HasSynced() {
				continue
			}
			// HasSynced may turn true between Replace returning and
			// close(replaced): what must hold is that every listed key
			// was popped and processed by then.
			mu.Lock()
			if len(seen) != n-10 {
				t.Errorf("synced with %d of %d keys processed", len(seen), n-10)
			}
			mu.Unlock()
			select {
			case <-replaced:
				f.Close()
			default:
			}
		}
	}()
	mustNoErr(t, f.Replace(list, "1"))
	close(replaced)
	// Wake the consumer if it is waiting on an empty queue.
	cachetest.Eventually(t, "the consumer to sync", func() bool {
		if f.HasSynced() {
			f.Close()
			return true
		}
		return false
	})
	<-consumerDone
	mu.Lock()
	defer mu.Unlock()
	if len(seen) != n-10 {
		t.Fatalf("%d distinct keys popped, want %d", len(seen), n-10)
	}
}

func TestFIFOInitialDeltasCoverOnlyTheChangesOfTheFirstList(t *testing.T) {
	f := New(nil, nil, Config{KeyOf: keyOf})
	mustNoErr(t, f.Add(nsObj("before", "1")))
	mustNoErr(t, f.Replace([]any{nsObj("before", "2"), nsObj("a", "2")}, "2"))
	mustNoErr(t, f.Delete(nsObj("a", "3")))
	mustNoErr(t, f.Add(nsObj("a", "4")))
	mustNoErr(t, f.Update(nsObj("before", "5")))
	mustNoErr(t, f.Add(nsObj("after", "6")))
	got := map[string]int{}
	for _, p := range popAll(t, f) {
		got[p.Key] = p.InitialDeltas
	}
	want := map[string]int{"ns/before": 2, "ns/a": 1, "ns/after": 0}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("InitialDeltas = %v, want %v", got, want)
	}
}

// afterProcessed runs at once on an idle queue, and otherwise once every
// key queued before it was popped and processed, not before.
func TestFIFOAfterProcessedWaitsForTheKeysQueuedBefore(t *testing.T) {
	f := New(nil, nil, Config{KeyOf: keyOf})
	ran := 0
	f.AfterApplied(func() { ran++ })
	if ran != 1 {
		t.Fatalf("on an idle queue: ran %d times, want 1", ran)
	}
	for _, name := range []string{"a", "b"} {
		if err := f.Add(nsObj(name, "1")); err != nil {
			t.Fatal(err)
		}
	}
	f.AfterApplied(func() { ran++ })
	if err := f.Add(nsObj("c", "1")); err != nil {
		t.Fatal(err)
	}
	var seen []int
	for range 3 {
		if _, err := f.PopBatch(1, func(Batch) { seen = append(seen, ran) }); err != nil {
			t.Fatal(err)
		}
	}
	// Processing a and b saw the barrier pending; it ran after b, before c.
	if want := []int{1, 1, 2}; !slices.Equal(seen, want) || ran != 2 {
		t.Errorf("barrier count seen while processing = %v (final %d), want %v (final 2)", seen, ran, want)
	}
}

// pruneOutside tombstones what keep refuses, judging a queued key by its
// newest queued state and any other by the cache's, and leaves queued
// deletes alone.
func TestFIFOPruneOutsideTombstonesWhatKeepRefuses(t *testing.T) {
	// Version "keep" stands for an object keep accepts.
	known := mapCache{}
	for _, name := range []string{"cached-kept", "cached-dropped", "queued-now-dropped", "queued-deleted"} {
		known["ns/"+name] = nsObj(name, "keep")
	}
	known["ns/cached-dropped"] = nsObj("cached-dropped", "drop")
	f := New(known, nil, Config{KeyOf: keyOf})
	for _, err := range []error{
		f.Update(nsObj("queued-now-dropped", "drop")),
		f.Delete(nsObj("queued-deleted", "drop")),
		f.Add(nsObj("queued-kept", "keep")),
	} {
		if err != nil {
			t.Fatal(err)
		}
	}
	keep := func(o any) bool { return o.(obj).v == "keep" }
	if _, err := f.Prune(keep); err != nil {
		t.Fatal(err)
	}
	got := map[string][]DeltaType{}
	tombstones := map[string]bool{}
	if _, err := f.PopBatch(0, func(pb Batch) {
		batch := pb.Items
		for _, item := range batch {
			for _, d := range item.Deltas {
				got[item.Key] = append(got[item.Key], d.Type)
				if _, ok := d.Object.(DeletedFinalStateUnknown); ok {
					tombstones[item.Key] = true
				}
			}
		}
	}); err != nil {
		t.Fatal(err)
	}
	want := map[string][]DeltaType{
		"ns/queued-now-dropped": {Updated, Deleted},
		"ns/queued-deleted":     {Deleted},
		"ns/queued-kept":        {Added},
		"ns/cached-dropped":     {Deleted},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("queued deltas %v, want %v", got, want)
	}
	if wantTomb := map[string]bool{"ns/queued-now-dropped": true, "ns/cached-dropped": true}; !reflect.DeepEqual(tombstones, wantTomb) {
		t.Errorf("tombstones %v, want %v", tombstones, wantTomb)
	}
}
