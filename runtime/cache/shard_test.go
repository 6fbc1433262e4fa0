package cache

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/go-logr/logr/funcr"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/klog/v2"

	"github.com/informer-gen/informer-gen/runtime/cache/cachetest"
)

// partShard is a Shard over the label "part": it holds the objects whose
// part is one of parts. A server applies it when serverSide is set (as a
// label selector, which cachetest honours), and ignores it otherwise, as a
// kube-apiserver without ShardedListAndWatch ignores a shard selector.
type partShard struct {
	parts      []string
	serverSide bool
}

func (s *partShard) ApplyTo(opts *metav1.ListOptions) {
	if s.serverSide {
		opts.LabelSelector = "part in (" + strings.Join(s.parts, ",") + ")"
	}
}

func (s *partShard) Contains(obj metav1.Object) bool {
	return slices.Contains(s.parts, obj.GetLabels()["part"])
}

// testShardSource is a settable ShardSource for one informer. onApplied,
// when set, runs in Applied before the shard is recorded.
type testShardSource struct {
	onApplied func(Shard)

	mu          sync.Mutex // guards the fields below
	cur         Shard
	changed     chan struct{}
	applied     []Shard
	subscribers []string
	closed      int
}

func newTestShardSource(s Shard) *testShardSource {
	return &testShardSource{cur: s, changed: make(chan struct{})}
}

func (src *testShardSource) Subscribe(informer string) ShardSubscription {
	src.mu.Lock()
	defer src.mu.Unlock()
	src.subscribers = append(src.subscribers, informer)
	return src
}

func (src *testShardSource) Current() (Shard, <-chan struct{}) {
	src.mu.Lock()
	defer src.mu.Unlock()
	return src.cur, src.changed
}

func (src *testShardSource) Applied(s Shard) {
	if src.onApplied != nil {
		src.onApplied(s)
	}
	src.mu.Lock()
	defer src.mu.Unlock()
	src.applied = append(src.applied, s)
}

func (src *testShardSource) Close() {
	src.mu.Lock()
	defer src.mu.Unlock()
	src.closed++
}

func (src *testShardSource) set(s Shard) {
	src.mu.Lock()
	defer src.mu.Unlock()
	close(src.changed)
	src.cur, src.changed = s, make(chan struct{})
}

func (src *testShardSource) appliedCount() int {
	src.mu.Lock()
	defer src.mu.Unlock()
	return len(src.applied)
}

func (src *testShardSource) wasApplied(s Shard) bool {
	src.mu.Lock()
	defer src.mu.Unlock()
	return slices.Contains(src.applied, s)
}

// recordingSelectors wraps a server and records the label selector of
// every list and watch.
type recordingSelectors struct {
	*cachetest.Server
	mu        sync.Mutex
	selectors []string
	lists     int // lists and watch lists
}

func (r *recordingSelectors) ListWithContext(ctx context.Context, opts metav1.ListOptions) (runtime.Object, error) {
	r.record(opts)
	r.mu.Lock()
	r.lists++
	r.mu.Unlock()
	return r.Server.ListWithContext(ctx, opts)
}

func (r *recordingSelectors) WatchWithContext(ctx context.Context, opts metav1.ListOptions) (watch.Interface, error) {
	r.record(opts)
	if opts.SendInitialEvents != nil && *opts.SendInitialEvents {
		r.mu.Lock()
		r.lists++
		r.mu.Unlock()
	}
	return r.Server.WatchWithContext(ctx, opts)
}

// listed returns the number of lists and watch lists, and the selector of
// the last request.
func (r *recordingSelectors) listed() (int, string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.lists, r.selectors[len(r.selectors)-1]
}

func (r *recordingSelectors) record(opts metav1.ListOptions) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.selectors = append(r.selectors, opts.LabelSelector)
}

// shardEvents records what a handler was told, by key.
type shardEvents struct {
	mu         sync.Mutex
	adds       map[string]int
	deletes    map[string]int
	tombstones map[string]int
}

func newShardEvents() *shardEvents {
	return &shardEvents{adds: map[string]int{}, deletes: map[string]int{}, tombstones: map[string]int{}}
}

func (e *shardEvents) handler() ResourceEventHandlerFuncs {
	key := func(obj any) string {
		k, _ := DeletionHandlingMetaNamespaceKeyFunc(obj)
		return k
	}
	return ResourceEventHandlerFuncs{
		AddFunc: func(obj any) {
			e.mu.Lock()
			defer e.mu.Unlock()
			e.adds[key(obj)]++
		},
		DeleteFunc: func(obj any) {
			e.mu.Lock()
			defer e.mu.Unlock()
			e.deletes[key(obj)]++
			if _, ok := obj.(DeletedFinalStateUnknown); ok {
				e.tombstones[key(obj)]++
			}
		},
	}
}

func (e *shardEvents) snapshot() (adds, deletes, tombstones map[string]int) {
	e.mu.Lock()
	defer e.mu.Unlock()
	return maps.Clone(e.adds), maps.Clone(e.deletes), maps.Clone(e.tombstones)
}

// partObject is an object of part part.
func partObject(name, part string) *metav1.PartialObjectMetadata {
	return testObjectWithLabels("ns", name, "", map[string]string{"part": part})
}

// keysOfParts returns the keys of objs whose part is one of parts.
func keysOfParts(objs []runtime.Object, parts ...string) []string {
	var keys []string
	for _, o := range objs {
		m := o.(*metav1.PartialObjectMetadata)
		if slices.Contains(parts, m.Labels["part"]) {
			keys = append(keys, m.Namespace+"/"+m.Name)
		}
	}
	slices.Sort(keys)
	return keys
}

func sortedKeys(s Store) []string {
	keys := s.ListKeys()
	slices.Sort(keys)
	return keys
}

// shardCase is one way of reaching the server: paged lists or watch lists,
// with a server that applies the selector or ignores it.
type shardCase struct {
	name       string
	watchList  bool
	serverSide bool
}

var shardCases = []shardCase{
	{"list, server ignores the selector", false, false},
	{"list, server applies the selector", false, true},
	{"watch list, server ignores the selector", true, false},
	{"watch list, server applies the selector", true, true},
}

// startShardInformer runs an informer of srv under src and returns it once
// synced, with a recorder of its handler's events.
func startShardInformer(t *testing.T, lw ListerWatcher, src ShardSource, watchList bool) (*sharedIndexInformer, *shardEvents) {
	t.Helper()
	inf := NewSharedIndexInformerWithOptions(lw, &metav1.PartialObjectMetadata{}, SharedIndexInformerOptions{
		UseWatchList: watchList, Shard: src, PageSize: 3,
	}).(*sharedIndexInformer)
	events := newShardEvents()
	if _, err := inf.AddEventHandler(events.handler()); err != nil {
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
	return inf, events
}

// The cache and the handlers hold exactly the shard, whether the server
// applied the selector or ignored it, through the list (or watch list) and
// the watch; every request carries the selector.
func TestShardInformerHoldsExactlyTheShard(t *testing.T) {
	for _, tc := range shardCases {
		t.Run(tc.name, func(t *testing.T) {
			srv := cachetest.NewServer(&metav1.PartialObjectMetadataList{})
			for i := range 12 {
				if _, err := srv.Add(partObject(fmt.Sprintf("o%02d", i), "abc"[i%3:i%3+1])); err != nil {
					t.Fatal(err)
				}
			}
			lw := &recordingSelectors{Server: srv}
			shard := &partShard{parts: []string{"a"}, serverSide: tc.serverSide}
			src := newTestShardSource(shard)
			inf, events := startShardInformer(t, lw, src, tc.watchList)
			cachetest.Eventually(t, "the initial shard applied", func() bool { return src.wasApplied(shard) })
			if got, want := sortedKeys(inf.GetStore()), keysOfParts(srv.Objects(), "a"); !slices.Equal(got, want) {
				t.Fatalf("cache after sync = %v, want part a: %v", got, want)
			}
			for i, part := range []string{"b", "a", "c", "a"} {
				if _, err := srv.Add(partObject(fmt.Sprintf("new%d", i), part)); err != nil {
					t.Fatal(err)
				}
			}
			want := keysOfParts(srv.Objects(), "a")
			cachetest.Eventually(t, "the watched objects of part a", func() bool { return slices.Equal(sortedKeys(inf.GetStore()), want) })
			cachetest.Eventually(t, "handler adds", func() bool { adds, _, _ := events.snapshot(); return len(adds) == len(want) })
			adds, _, _ := events.snapshot()
			if got := slices.Sorted(maps.Keys(adds)); !slices.Equal(got, want) {
				t.Errorf("handler adds = %v, want %v", got, want)
			}
			lw.mu.Lock()
			defer lw.mu.Unlock()
			wantSel := ""
			if tc.serverSide {
				wantSel = "part in (a)"
			}
			for i, sel := range lw.selectors {
				if sel != wantSel {
					t.Errorf("request %d carried selector %q, want %q", i, sel, wantSel)
				}
			}
		})
	}
}

// A new shard ends the watch and relists under it: objects that entered
// arrive as adds, objects that left as DeletedFinalStateUnknown
// tombstones, and Applied is called once the cache holds exactly the new
// shard; unchanged objects of both shards are not notified.
func TestShardReshardAddsEnteringAndTombstonesLeaving(t *testing.T) {
	for _, tc := range shardCases {
		t.Run(tc.name, func(t *testing.T) {
			srv := cachetest.NewServer(&metav1.PartialObjectMetadataList{})
			for i := range 30 {
				if _, err := srv.Add(partObject(fmt.Sprintf("o%02d", i), "abc"[i%3:i%3+1])); err != nil {
					t.Fatal(err)
				}
			}
			ab := &partShard{parts: []string{"a", "b"}, serverSide: tc.serverSide}
			bc := &partShard{parts: []string{"b", "c"}, serverSide: tc.serverSide}
			c := &partShard{parts: []string{"c"}, serverSide: tc.serverSide}
			src := newTestShardSource(ab)
			var inf *sharedIndexInformer
			var check appliedCheck
			src.onApplied = check.hook(srv, &inf, func(s Shard) []string { return s.(*partShard).parts })
			_, events := startShardInformerWithInf(t, srv, src, tc.watchList, &inf)
			cachetest.Eventually(t, "ab applied", func() bool { return src.wasApplied(ab) })

			src.set(bc) // widen to c, narrow away from a
			cachetest.Eventually(t, "bc applied", func() bool { return src.wasApplied(bc) })
			partA, partB, partC := keysOfParts(srv.Objects(), "a"), keysOfParts(srv.Objects(), "b"), keysOfParts(srv.Objects(), "c")
			cachetest.Eventually(t, "the handler's deletes of part a", func() bool { _, d, _ := events.snapshot(); return len(d) == len(partA) })
			cachetest.Eventually(t, "the handler's adds of part c", func() bool { a, _, _ := events.snapshot(); return len(a) == len(partA)+len(partB)+len(partC) })
			adds, deletes, tombstones := events.snapshot()
			if got := slices.Sorted(maps.Keys(tombstones)); !slices.Equal(got, partA) || len(deletes) != len(partA) {
				t.Errorf("deletes %v, tombstones %v; want tombstones of part a: %v", deletes, tombstones, partA)
			}
			for _, k := range partC {
				if adds[k] != 1 {
					t.Errorf("object %s of part c: %d adds, want 1", k, adds[k])
				}
			}
			for _, k := range partB {
				if adds[k] != 1 || deletes[k] != 0 {
					t.Errorf("object %s of part b, in both shards: %d adds and %d deletes, want 1 and 0", k, adds[k], deletes[k])
				}
			}

			src.set(c) // narrow only
			cachetest.Eventually(t, "c applied", func() bool { return src.wasApplied(c) })
			if got := sortedKeys(inf.GetStore()); !slices.Equal(got, partC) {
				t.Errorf("cache after narrowing to c = %v, want %v", got, partC)
			}
			check.report(t)
		})
	}
}

// appliedCheck records the shards Applied reported while the cache did not
// hold exactly them.
type appliedCheck struct {
	mu         sync.Mutex
	mismatches []string
}

// hook returns an Applied hook that compares *inf's cache with srv's
// objects of the shard's parts.
func (c *appliedCheck) hook(srv *cachetest.Server, inf **sharedIndexInformer, partsOf func(Shard) []string) func(Shard) {
	return func(s Shard) {
		got, want := sortedKeys((*inf).GetStore()), keysOfParts(srv.Objects(), partsOf(s)...)
		if !slices.Equal(got, want) {
			c.mu.Lock()
			defer c.mu.Unlock()
			c.mismatches = append(c.mismatches, fmt.Sprintf("applied %v with cache %v", partsOf(s), got))
		}
	}
}

func (c *appliedCheck) report(t *testing.T) {
	t.Helper()
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, m := range c.mismatches {
		t.Error(m)
	}
}

// startShardInformerWithInf is startShardInformer that publishes the
// informer in *out before it runs, for an Applied hook to read.
func startShardInformerWithInf(t *testing.T, lw ListerWatcher, src *testShardSource, watchList bool, out **sharedIndexInformer) (*sharedIndexInformer, *shardEvents) {
	t.Helper()
	inf := NewSharedIndexInformerWithOptions(lw, &metav1.PartialObjectMetadata{}, SharedIndexInformerOptions{
		UseWatchList: watchList, PageSize: 4,
	}).(*sharedIndexInformer)
	if err := inf.SetShard(src); err != nil {
		t.Fatal(err)
	}
	*out = inf
	events := newShardEvents()
	if _, err := inf.AddEventHandler(events.handler()); err != nil {
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
		src.mu.Lock()
		defer src.mu.Unlock()
		if len(src.subscribers) != 1 || src.closed != 1 {
			t.Errorf("subscriptions %v, closed %d times; want one, closed once", src.subscribers, src.closed)
		}
	})
	cachetest.Eventually(t, "sync", inf.HasSynced)
	return inf, events
}

// Shards replaced in a burst while the server changes, under the race
// detector: the last one is applied, and the informer ends holding
// exactly it.
func TestShardReshardRacesWithChanges(t *testing.T) {
	srv := cachetest.NewServer(&metav1.PartialObjectMetadataList{})
	for i := range 60 {
		if _, err := srv.Add(partObject(fmt.Sprintf("o%02d", i), "abcd"[i%4:i%4+1])); err != nil {
			t.Fatal(err)
		}
	}
	shards := []*partShard{{parts: []string{"a"}}, {parts: []string{"a", "b", "c"}}, {parts: []string{"d"}}, {parts: []string{"b", "d"}}}
	src := newTestShardSource(shards[0])
	var inf *sharedIndexInformer
	startShardInformerWithInf(t, srv, src, true, &inf)
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Go(func() {
		for i := 0; ctx.Err() == nil; i++ {
			name := fmt.Sprintf("churn%d", i%20)
			if _, err := srv.Delete("ns", name); err != nil {
				_, _ = srv.Add(partObject(name, "abcd"[i%4:i%4+1]))
			}
		}
	})
	for i := range 20 {
		src.set(shards[i%len(shards)])
	}
	last := shards[19%len(shards)]
	cachetest.Eventually(t, "the last shard applied", func() bool { return src.wasApplied(last) })
	cancel()
	wg.Wait()
	want := keysOfParts(srv.Objects(), last.parts...)
	cachetest.Eventually(t, "the cache to hold exactly the last shard", func() bool { return slices.Equal(sortedKeys(inf.GetStore()), want) })
}

// The informer logs once that the server ignored the selector, through
// lists, watches and reshards, and never when the server applied it.
func TestShardIgnoredSelectorIsLoggedOnce(t *testing.T) {
	for _, tc := range shardCases {
		t.Run(tc.name, func(t *testing.T) {
			srv := cachetest.NewServer(&metav1.PartialObjectMetadataList{})
			for i := range 9 {
				if _, err := srv.Add(partObject(fmt.Sprintf("o%d", i), "abc"[i%3:i%3+1])); err != nil {
					t.Fatal(err)
				}
			}
			var mu sync.Mutex
			ignored := 0
			logger := funcr.New(func(_, args string) {
				if strings.Contains(args, "ignored the shard selector") {
					mu.Lock()
					ignored++
					mu.Unlock()
				}
			}, funcr.Options{})
			a := &partShard{parts: []string{"a"}, serverSide: tc.serverSide}
			ab := &partShard{parts: []string{"a", "b"}, serverSide: tc.serverSide}
			src := newTestShardSource(a)
			inf := NewSharedIndexInformerWithOptions(srv, &metav1.PartialObjectMetadata{}, SharedIndexInformerOptions{UseWatchList: tc.watchList, Shard: src})
			ctx, cancel := context.WithCancel(klog.NewContext(context.Background(), logger))
			done := make(chan struct{})
			go func() {
				defer close(done)
				inf.RunWithContext(ctx)
			}()
			defer func() { cancel(); <-done }()
			cachetest.Eventually(t, "a applied", func() bool { return src.wasApplied(a) })
			for i, part := range []string{"c", "b", "a"} {
				if _, err := srv.Add(partObject(fmt.Sprintf("n%d", i), part)); err != nil {
					t.Fatal(err)
				}
			}
			src.set(ab)
			cachetest.Eventually(t, "ab applied", func() bool { return src.wasApplied(ab) })
			want := keysOfParts(srv.Objects(), "a", "b")
			cachetest.Eventually(t, "the cache to hold a and b", func() bool { return slices.Equal(sortedKeys(inf.GetStore()), want) })
			mu.Lock()
			defer mu.Unlock()
			if wantLogs := map[bool]int{false: 1, true: 0}[tc.serverSide]; ignored != wantLogs {
				t.Errorf("logged %d times that the server ignored the selector, want %d", ignored, wantLogs)
			}
		})
	}
}

// narrowingShard is a partShard that can tell it is within another.
type narrowingShard struct{ partShard }

func (s *narrowingShard) Within(outer Shard) bool {
	o, ok := outer.(*narrowingShard)
	if !ok {
		return false
	}
	for _, p := range s.parts {
		if !slices.Contains(o.parts, p) {
			return false
		}
	}
	return true
}

// A narrowing prunes the cache without a list: tombstones for the objects
// that left, Applied once the cache holds exactly the new shard, and the
// next watch under the new selector; a widening still relists.
func TestShardNarrowingPrunesWithoutListing(t *testing.T) {
	for _, tc := range shardCases {
		t.Run(tc.name, func(t *testing.T) {
			srv := cachetest.NewServer(&metav1.PartialObjectMetadataList{})
			for i := range 30 {
				if _, err := srv.Add(partObject(fmt.Sprintf("o%02d", i), "abc"[i%3:i%3+1])); err != nil {
					t.Fatal(err)
				}
			}
			abc := &narrowingShard{partShard{parts: []string{"a", "b", "c"}, serverSide: tc.serverSide}}
			ab := &narrowingShard{partShard{parts: []string{"a", "b"}, serverSide: tc.serverSide}}
			lw := &recordingSelectors{Server: srv}
			src := newTestShardSource(abc)
			var inf *sharedIndexInformer
			var check appliedCheck
			src.onApplied = check.hook(srv, &inf, func(s Shard) []string { return s.(*narrowingShard).parts })
			_, events := startShardInformerWithInf(t, lw, src, tc.watchList, &inf)
			cachetest.Eventually(t, "abc applied", func() bool { return src.wasApplied(abc) })
			listsBefore, _ := lw.listed()

			src.set(ab)
			cachetest.Eventually(t, "ab applied", func() bool { return src.wasApplied(ab) })
			partC := keysOfParts(srv.Objects(), "c")
			cachetest.Eventually(t, "tombstones of part c", func() bool { _, _, tomb := events.snapshot(); return len(tomb) == len(partC) })
			for i, part := range []string{"c", "a"} {
				if _, err := srv.Add(partObject(fmt.Sprintf("new%d", i), part)); err != nil {
					t.Fatal(err)
				}
			}
			want := keysOfParts(srv.Objects(), "a", "b")
			cachetest.Eventually(t, "the new object of part a", func() bool { return slices.Equal(sortedKeys(inf.GetStore()), want) })
			lists, selector := lw.listed()
			if lists != listsBefore {
				t.Errorf("narrowing made %d lists or watch lists, want none", lists-listsBefore)
			}
			if wantSel := map[bool]string{true: "part in (a,b)"}[tc.serverSide]; selector != wantSel {
				t.Errorf("the watch after narrowing carries selector %q, want %q", selector, wantSel)
			}
			_, _, tombstones := events.snapshot()
			if got := slices.Sorted(maps.Keys(tombstones)); !slices.Equal(got, partC) {
				t.Errorf("tombstones %v, want part c: %v", got, partC)
			}

			src.set(abc)
			cachetest.Eventually(t, "abc applied again", func() bool { return src.appliedCount() > 2 && src.wasApplied(abc) })
			if lists, _ := lw.listed(); lists == listsBefore {
				t.Error("widening did not relist")
			}
			check.report(t)
		})
	}
}
