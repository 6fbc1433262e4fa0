package shard

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"sync"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/informer-gen/informer-gen/runtime/cache"
	"github.com/informer-gen/informer-gen/runtime/cache/cachetest"
)

// newServer returns a cachetest server (which, as a kube-apiserver without
// ShardedListAndWatch, ignores shard selectors) holding n objects.
func newServer(t *testing.T, n int) *cachetest.Server {
	t.Helper()
	srv := cachetest.NewServer(&metav1.PartialObjectMetadataList{})
	for i := range n {
		if _, err := srv.Add(&metav1.PartialObjectMetadata{ObjectMeta: metav1.ObjectMeta{Namespace: fmt.Sprintf("ns%d", i%7), Name: fmt.Sprintf("o%04d", i)}}); err != nil {
			t.Fatal(err)
		}
	}
	return srv
}

// keysIn returns the sorted keys of srv's objects in s.
func keysIn(srv *cachetest.Server, s cache.Shard) []string {
	var keys []string
	for _, o := range srv.Objects() {
		m := o.(*metav1.PartialObjectMetadata)
		if s.Contains(m) {
			keys = append(keys, m.Namespace+"/"+m.Name)
		}
	}
	slices.Sort(keys)
	return keys
}

func cacheKeys(inf cache.SharedIndexInformer) []string {
	keys := inf.GetStore().ListKeys()
	slices.Sort(keys)
	return keys
}

// events records a handler's adds and deletes by key.
type events struct {
	mu         sync.Mutex
	adds       map[string]int
	deletes    map[string]int
	tombstones map[string]int
}

func (e *events) handler() cache.ResourceEventHandler {
	key := func(obj any) string {
		k, _ := cache.DeletionHandlingMetaNamespaceKeyFunc(obj)
		return k
	}
	return cache.ResourceEventHandlerFuncs{
		AddFunc: func(obj any) {
			e.mu.Lock()
			defer e.mu.Unlock()
			e.adds[key(obj)]++
		},
		DeleteFunc: func(obj any) {
			e.mu.Lock()
			defer e.mu.Unlock()
			e.deletes[key(obj)]++
			if _, ok := obj.(cache.DeletedFinalStateUnknown); ok {
				e.tombstones[key(obj)]++
			}
		},
	}
}

func (e *events) snapshot() (adds, deletes, tombstones map[string]int) {
	e.mu.Lock()
	defer e.mu.Unlock()
	return maps.Clone(e.adds), maps.Clone(e.deletes), maps.Clone(e.tombstones)
}

// run starts an informer of srv holding src's shard and returns it once
// synced, with its handler's events; it stops at the test's end.
func run(t *testing.T, srv *cachetest.Server, src cache.ShardSource, watchList bool) (cache.SharedIndexInformer, *events) {
	t.Helper()
	inf := cache.NewSharedIndexInformerWithOptions(srv, &metav1.PartialObjectMetadata{}, cache.SharedIndexInformerOptions{
		UseWatchList: watchList, Shard: src, PageSize: 50,
	})
	ev := &events{adds: map[string]int{}, deletes: map[string]int{}, tombstones: map[string]int{}}
	if _, err := inf.AddEventHandler(ev.handler()); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		inf.RunWithContext(ctx)
	}()
	t.Cleanup(func() {
		cancel()
		<-done
	})
	cachetest.Eventually(t, "sync", inf.HasSynced)
	return inf, ev
}

// Three static shards over a server that ignores the selector: every
// object is in exactly one cache, and their union is the collection, also
// for objects created while they watch.
func TestStaticShardsPartitionTheCollectionWhenTheServerIgnoresTheSelector(t *testing.T) {
	for _, watchList := range []bool{false, true} {
		t.Run(fmt.Sprintf("watchList=%t", watchList), func(t *testing.T) {
			srv := newServer(t, 600)
			var infs []cache.SharedIndexInformer
			var parts []Selector
			for i := range 3 {
				p, err := Part(UID, i, 3)
				if err != nil {
					t.Fatal(err)
				}
				inf, _ := run(t, srv, Static(p), watchList)
				infs, parts = append(infs, inf), append(parts, p)
			}
			for i := range 60 {
				if _, err := srv.Add(&metav1.PartialObjectMetadata{ObjectMeta: metav1.ObjectMeta{Namespace: "late", Name: fmt.Sprintf("n%d", i)}}); err != nil {
					t.Fatal(err)
				}
			}
			seen := map[string]int{}
			for i, inf := range infs {
				want := keysIn(srv, parts[i])
				cachetest.Eventually(t, fmt.Sprintf("informer %d to hold its part", i), func() bool { return slices.Equal(cacheKeys(inf), want) })
				for _, k := range want {
					seen[k]++
				}
			}
			all := keysIn(srv, Selector{key: UID, ranges: []Range{{}}})
			if len(seen) != len(all) || len(all) != 660 {
				t.Fatalf("the caches hold %d distinct objects, the server %d (want 660)", len(seen), len(all))
			}
			for k, n := range seen {
				if n != 1 {
					t.Errorf("object %s is in %d caches", k, n)
				}
			}
		})
	}
}

// A Dynamic source's Set reshards every informer: objects that entered
// arrive as adds, objects that left as tombstones, and the rollout is done
// only once every cache holds exactly the new shard.
func TestDynamicSetReshardsEveryInformerBeforeTheRolloutIsDone(t *testing.T) {
	srv := newServer(t, 400)
	lower, _ := NewSelector(UID, Range{End: 1 << 63})
	middle, _ := NewSelector(UID, Range{Start: 1 << 62, End: 3 << 62})
	src := NewDynamic(lower)
	a, evA := run(t, srv, src, true)
	b, _ := run(t, srv, src, false)
	if err := src.Rollout().Wait(context.Background()); err != nil {
		t.Fatalf("initial rollout: %v", err)
	}
	rollout := src.Set(middle)
	if err := rollout.Wait(context.Background()); err != nil {
		t.Fatalf("rollout of the middle: %v", err)
	}
	want := keysIn(srv, middle)
	for name, inf := range map[string]cache.SharedIndexInformer{"a": a, "b": b} {
		if got := cacheKeys(inf); !slices.Equal(got, want) {
			t.Errorf("informer %s after the rollout: %d objects, want the %d of the middle", name, len(got), len(want))
		}
	}
	left, _ := NewSelector(UID, Range{End: 1 << 62})
	entered, _ := NewSelector(UID, Range{Start: 1 << 63, End: 3 << 62})
	wantTomb, wantAdds := keysIn(srv, left), len(keysIn(srv, lower))+len(keysIn(srv, entered))
	cachetest.Eventually(t, "a's handler to hear of the reshard", func() bool {
		adds, deletes, _ := evA.snapshot()
		return len(adds) == wantAdds && len(deletes) == len(wantTomb)
	})
	_, _, tombstones := evA.snapshot()
	if got := slices.Sorted(maps.Keys(tombstones)); !slices.Equal(got, wantTomb) {
		t.Errorf("tombstones for %d objects, want the %d that left", len(got), len(wantTomb))
	}
}

// A rollout replaced before it completes ends with ErrSuperseded; one
// with no informer, or whose informers stopped, is done at once.
func TestDynamicRolloutEnds(t *testing.T) {
	all, _ := NewSelector(UID, Range{})
	none, _ := NewSelector(UID)
	src := NewDynamic(all)
	if err := src.Rollout().Wait(context.Background()); err != nil {
		t.Fatalf("rollout without informers: %v", err)
	}
	sub := src.Subscribe("x")
	first := src.Set(none)
	second := src.Set(all)
	if err := first.Wait(context.Background()); err != ErrSuperseded {
		t.Errorf("superseded rollout: %v, want ErrSuperseded", err)
	}
	select {
	case <-second.Done():
		t.Fatal("rollout done before its informer applied it")
	default:
	}
	s, _ := sub.Current()
	sub.Applied(s)
	if err := second.Wait(context.Background()); err != nil {
		t.Errorf("applied rollout: %v", err)
	}
	third := src.Set(none)
	sub.Close()
	if err := third.Wait(context.Background()); err != nil {
		t.Errorf("rollout after the only informer stopped: %v", err)
	}
}

// Sets in a burst while the server changes, under the race detector:
// the last rollout completes and both informers end holding exactly its
// shard.
func TestDynamicSetRacesWithChanges(t *testing.T) {
	srv := newServer(t, 300)
	var shards []Selector
	for i := range 4 {
		p, _ := Part(UID, i, 4)
		shards = append(shards, p)
	}
	src := NewDynamic(shards[0])
	a, _ := run(t, srv, src, true)
	b, _ := run(t, srv, src, false)
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Go(func() {
		for i := 0; ctx.Err() == nil; i++ {
			name := fmt.Sprintf("churn%d", i%25)
			if _, err := srv.Delete("churn", name); err != nil {
				_, _ = srv.Add(&metav1.PartialObjectMetadata{ObjectMeta: metav1.ObjectMeta{Namespace: "churn", Name: name}})
			}
		}
	})
	var last *Rollout
	for i := range 12 {
		last = src.Set(shards[i%4])
	}
	if err := last.Wait(context.Background()); err != nil {
		t.Fatalf("last rollout: %v", err)
	}
	cancel()
	wg.Wait()
	want := keysIn(srv, shards[11%4])
	for _, inf := range []cache.SharedIndexInformer{a, b} {
		cachetest.Eventually(t, "the informer to hold exactly the last shard", func() bool { return slices.Equal(cacheKeys(inf), want) })
	}
}

// A Set to a shard within the current one prunes without listing: the
// rollout completes with the cache holding exactly the narrower shard,
// and the objects that left reach handlers as tombstones.
func TestDynamicNarrowingPrunesWithoutListing(t *testing.T) {
	srv := newServer(t, 400)
	half, _ := NewSelector(UID, Range{End: 1 << 63})
	quarter, _ := NewSelector(UID, Range{End: 1 << 62})
	src := NewDynamic(half)
	inf, ev := run(t, srv, src, false)
	if err := src.Rollout().Wait(context.Background()); err != nil {
		t.Fatal(err)
	}
	listsBefore, _ := srv.Calls()
	if err := src.Set(quarter).Wait(context.Background()); err != nil {
		t.Fatalf("narrowing: %v", err)
	}
	if got, want := cacheKeys(inf), keysIn(srv, quarter); !slices.Equal(got, want) {
		t.Fatalf("after narrowing the cache holds %d objects, want the %d of the quarter", len(got), len(want))
	}
	if lists, _ := srv.Calls(); lists != listsBefore {
		t.Errorf("narrowing listed %d times, want none", lists-listsBefore)
	}
	left, _ := NewSelector(UID, Range{Start: 1 << 62, End: 1 << 63})
	wantTomb := keysIn(srv, left)
	cachetest.Eventually(t, "tombstones", func() bool { _, _, tomb := ev.snapshot(); return len(tomb) == len(wantTomb) })
	_, _, tomb := ev.snapshot()
	if got := slices.Sorted(maps.Keys(tomb)); !slices.Equal(got, wantTomb) {
		t.Errorf("tombstones for %d objects, want the %d that left", len(got), len(wantTomb))
	}
}
