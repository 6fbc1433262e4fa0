package cache

import (
	"context"
	"fmt"
	"strconv"
	"sync"
	"testing"

	"github.com/informer-gen/informer-gen/runtime/cache/cachetest"
	"github.com/informer-gen/informer-gen/runtime/cache/internal/controller"

	"github.com/informer-gen/informer-gen/runtime/cache/internal/queue"
)

// A relist (after a 410) is applied to the cache as a whole before any
// handler hears of it: the first notification of the relist finds the
// store already holding the whole new list, deletions included, so a
// handler reading the lister never sees half of it. The list is several
// applied batches long, so a batch-by-batch application would be seen.
func TestInformerRelistReachesTheStoreAtomicallyBeforeHandlers(t *testing.T) {
	srv := newModelServer()
	const n = 4 * controller.MaxBatch
	fill(srv, n)
	var (
		mu       sync.Mutex
		target   map[string]string // the server's state after the partition
		checked  bool
		mismatch string
		adds     int // initial adds seen, before the partition
	)
	var inf *informerRun
	check := func() {
		mu.Lock()
		defer mu.Unlock()
		if target == nil || checked {
			return
		}
		checked = true
		got := storeState(inf.GetStore().List())
		missing, stale, extra := 0, 0, 0
		for k, want := range target {
			switch g, ok := got[k]; {
			case !ok:
				missing++
			case g != want:
				stale++
			}
		}
		for k := range got {
			if _, ok := target[k]; !ok {
				extra++
			}
		}
		if missing+stale+extra > 0 {
			mismatch = fmt.Sprintf("%d keys missing, %d stale, %d deleted ones still cached", missing, stale, extra)
		}
	}
	h := ResourceEventHandlerFuncs{
		AddFunc: func(any) {
			mu.Lock()
			if target == nil {
				adds++
				mu.Unlock()
				return
			}
			mu.Unlock()
			check()
		},
		UpdateFunc: func(_, _ any) { check() },
		DeleteFunc: func(any) { check() },
	}
	inf = startInformer(t, srv, SharedIndexInformerOptions{}, func(s *sharedIndexInformer) { mustAdd(t, s, h, HandlerOptions{}) })
	defer inf.stop(t)
	if !WaitForCacheSyncWithContext(context.Background(), inf.HasSynced) {
		t.Fatal("not synced")
	}

	cachetest.Eventually(t, "the handler to receive the first list", func() bool {
		mu.Lock()
		defer mu.Unlock()
		return adds == n
	})

	// With every watch down, change every object, delete some and add
	// some; the history is compacted, so the informer must relist.
	srv.partition(func(p *partitionOps) {
		for i := range n {
			if i%7 == 0 {
				p.remove("o" + strconv.Itoa(i))
			} else {
				p.put("o"+strconv.Itoa(i), false)
			}
		}
		for i := n; i < n+100; i++ {
			p.put("o"+strconv.Itoa(i), false)
		}
	})
	mu.Lock()
	target = srv.state()
	mu.Unlock()
	cachetest.Eventually(t, "a notification of the relist", func() bool {
		mu.Lock()
		defer mu.Unlock()
		return checked
	})
	mu.Lock()
	defer mu.Unlock()
	if mismatch != "" {
		t.Fatalf("the first notification of the relist saw a half-applied relist: %s", mismatch)
	}
}

// After the first list, a Replace leaves the queue as one relist unit: one
// batch, marked relist, holding the relist (and the keys queued before
// it) and nothing after it, whatever the batch size asked, so the
// informer can store it whole before notifying; Pop (a batch of one)
// keeps client-go's one key.
func TestDeltaFIFORelistIsOneUnit(t *testing.T) {
	tests := []struct {
		name      string
		max       int
		wantFirst int
		relist    bool
	}{
		{"batch smaller than the relist", 3, 13, true},
		{"unbounded batch: the unit, not the key queued after it", 0, 13, true},
		{"Pop's batch of one", 1, 1, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			known := NewIndexer(MetaNamespaceKeyFunc, nil)
			f := NewDeltaFIFOWithOptions(DeltaFIFOOptions{KnownObjects: known})
			var first []any
			for i := range 10 {
				o := testObject("ns", "o"+strconv.Itoa(i), "1")
				first = append(first, o)
				mustNoErr(t, known.Add(o))
			}
			mustNoErr(t, f.Replace(first, "1"))
			for f.Len() > 0 {
				if _, err := f.popBatch(0, func(queue.Batch) {}); err != nil {
					t.Fatal(err)
				}
			}
			// Relist: o0 gone, o1..o9 changed, o10..o12 new: 12 listed
			// keys and o0's tombstone; then a watch event queued behind.
			var relist []any
			for i := 1; i < 13; i++ {
				relist = append(relist, testObject("ns", "o"+strconv.Itoa(i), "2"))
			}
			mustNoErr(t, f.Replace(relist, "2"))
			mustNoErr(t, f.Add(testObject("ns", "after", "3")))
			var got []queue.Popped
			var gotRelist bool
			if _, err := f.popBatch(tt.max, func(b queue.Batch) {
				got, gotRelist = append(got, b.Items...), b.ReplacedAll
			}); err != nil {
				t.Fatal(err)
			}
			if len(got) != tt.wantFirst || gotRelist != tt.relist {
				t.Fatalf("first batch has %d keys, relist %t; want %d, %t", len(got), gotRelist, tt.wantFirst, tt.relist)
			}
			var rest []queue.Popped
			var restRelist bool
			if _, err := f.popBatch(0, func(b queue.Batch) {
				rest, restRelist = append(rest, b.Items...), b.ReplacedAll
			}); err != nil {
				t.Fatal(err)
			}
			if tt.relist && (len(rest) != 1 || rest[0].Key != "ns/after" || restRelist) {
				t.Fatalf("the batch after the unit has %d keys (relist %t), want ns/after alone", len(rest), restRelist)
			}
		})
	}
}
