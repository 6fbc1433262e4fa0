package cache

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/apimachinery/pkg/watch"
	testingclock "k8s.io/utils/clock/testing"

	"github.com/informer-gen/informer-gen/runtime/cache/cachetest"
)

// refusingLister refuses every list while refusing is set, as a server
// that is down does, and sends each list's label selector on lists.
type refusingLister struct {
	refusing atomic.Bool
	lists    chan string
}

func (l *refusingLister) ListWithContext(ctx context.Context, opts metav1.ListOptions) (runtime.Object, error) {
	select {
	case l.lists <- opts.LabelSelector:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	if l.refusing.Load() {
		return nil, errors.New("connection refused")
	}
	return &metav1.PartialObjectMetadataList{ListMeta: metav1.ListMeta{ResourceVersion: "1"}}, nil
}

func (l *refusingLister) WatchWithContext(ctx context.Context, _ metav1.ListOptions) (watch.Interface, error) {
	<-ctx.Done()
	return nil, ctx.Err()
}

// nextList is the selector of the reflector's next list; it fails the
// test when none comes within a minute (the reflector is stuck).
func (l *refusingLister) nextList(t *testing.T, what string) string {
	t.Helper()
	select {
	case sel := <-l.lists:
		return sel
	case <-time.After(time.Minute):
		t.Fatalf("%s: no list within a minute", what)
		return ""
	}
}

// A shard that changes while the reflector backs off after failed lists
// is listed at once: a ring member that takes ranges over after an
// outage does not wait out a back-off grown during the outage. One change
// wakes one retry: the one after it waits its full delay again.
func TestShardChangeCutsTheBackoffShort(t *testing.T) {
	tests := []struct {
		name string
		// serverBack: the server answers again before the shard changes.
		serverBack bool
	}{
		{name: "the server is back: the new shard is listed and stored", serverBack: true},
		{name: "the server still refuses: the retry after the woken one waits its full delay"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			clk := testingclock.NewFakeClock(time.Unix(0, 0))
			lw := &refusingLister{lists: make(chan string)}
			lw.refusing.Store(true)
			a := &partShard{parts: []string{"a"}, serverSide: true}
			b := &partShard{parts: []string{"b"}, serverSide: true}
			src := newTestShardSource(a)
			store := NewStore(MetaNamespaceKeyFunc)
			delay := time.Hour
			r := NewReflectorWithOptions(&ListWatch{ListWithContextFunc: lw.ListWithContext, WatchFuncWithContext: lw.WatchWithContext}, &metav1.PartialObjectMetadata{}, store, ReflectorOptions{
				Clock: clk, Shard: src, Backoff: &wait.Backoff{Duration: delay, Factor: 1, Cap: delay}})
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan struct{})
			go func() { defer close(done); r.RunWithContext(ctx) }()
			defer func() { cancel(); <-done }()

			if sel := lw.nextList(t, "first list"); sel != "part in (a)" {
				t.Fatalf("first list under %q, want part in (a)", sel)
			}
			cachetest.Eventually(t, "the reflector backing off", clk.HasWaiters)
			lw.refusing.Store(!tc.serverBack)
			src.set(b)
			if sel := lw.nextList(t, "list after the shard change"); sel != "part in (b)" {
				t.Fatalf("list after the change under %q, want part in (b)", sel)
			}
			if tc.serverBack {
				cachetest.Eventually(t, "the new shard applied", func() bool { return src.wasApplied(b) })
				return
			}
			cachetest.Eventually(t, "the reflector backing off again", clk.HasWaiters)
			clk.Step(delay / 2)
			select {
			case sel := <-lw.lists:
				t.Fatalf("listed under %q half-way through the back-off", sel)
			default:
			}
			clk.Step(delay)
			if sel := lw.nextList(t, "list after the full delay"); sel != "part in (b)" {
				t.Fatalf("list after the delay under %q, want part in (b)", sel)
			}
		})
	}
}

// A narrowing that arrives while the server refuses every request (an
// outage: the reflector backs off) is carried out without it: the cache
// is pruned, handlers get the tombstones and the subscription hears the
// shard applied, so a ring member lets go of its objects before its Lease
// expires though it cannot list. Once the server answers again, the
// informer watches under the narrower shard and follows its changes.
func TestShardNarrowingDuringAnOutagePrunesWithoutTheServer(t *testing.T) {
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
			src := newTestShardSource(abc)
			var inf *sharedIndexInformer
			_, events := startShardInformerWithInf(t, srv, src, tc.watchList, &inf)
			cachetest.Eventually(t, "abc applied", func() bool { return src.wasApplied(abc) })

			down := errors.New("connection refused")
			srv.FailLists(1<<30, down)
			srv.FailWatches(1<<30, down)
			_, watches := srv.Calls()
			srv.CloseWatches()
			cachetest.Eventually(t, "a refused watch", func() bool { _, w := srv.Calls(); return w > watches })

			src.set(ab)
			cachetest.Eventually(t, "ab applied during the outage", func() bool { return src.wasApplied(ab) })
			partC := keysOfParts(srv.Objects(), "c")
			cachetest.Eventually(t, "tombstones of part c", func() bool { _, _, tomb := events.snapshot(); return len(tomb) == len(partC) })
			if got, want := sortedKeys(inf.GetStore()), keysOfParts(srv.Objects(), "a", "b"); !slices.Equal(got, want) {
				t.Errorf("cache during the outage holds %v, want parts a and b: %v", got, want)
			}

			srv.FailLists(0, nil)
			srv.FailWatches(0, nil)
			if _, err := srv.Add(partObject("after", "b")); err != nil {
				t.Fatal(err)
			}
			want := keysOfParts(srv.Objects(), "a", "b")
			cachetest.Eventually(t, "the object added after the outage", func() bool { return slices.Equal(sortedKeys(inf.GetStore()), want) })
		})
	}
}

// TestShardNarrowingWhileTheServerHangsPrunesWithoutIt pins the narrowing
// of a reflector waiting for a server that accepts its requests and does
// not answer (a kube-apiserver starting up, a connection a proxy holds
// open): the request under the old shard is cut short and the store
// prunes what the new shard leaves out at once, so that a ring member that
// lost its Lease lets go of its objects before another takes them, though
// its reflector was inside a list, a watch list or a watch's opening.
func TestShardNarrowingWhileTheServerHangsPrunesWithoutIt(t *testing.T) {
	hangs := []struct {
		name string
		// hang makes the reflector's next request one the server does not
		// answer: the relist after 410 Gone, or the watch reopened after
		// the server closed the last one.
		hang func(srv *cachetest.Server) error
	}{
		{"relist", func(srv *cachetest.Server) error { return srv.ExpireWatches(nil) }},
		{"watch reopened", func(srv *cachetest.Server) error { srv.CloseWatches(); return nil }},
	}
	for _, h := range hangs {
		for _, tc := range shardCases {
			t.Run(h.name+"/"+tc.name, func(t *testing.T) {
				srv := cachetest.NewServer(&metav1.PartialObjectMetadataList{})
				for i := range 30 {
					if _, err := srv.Add(partObject(fmt.Sprintf("o%02d", i), "abc"[i%3:i%3+1])); err != nil {
						t.Fatal(err)
					}
				}
				abc := &narrowingShard{partShard{parts: []string{"a", "b", "c"}, serverSide: tc.serverSide}}
				ab := &narrowingShard{partShard{parts: []string{"a", "b"}, serverSide: tc.serverSide}}
				src := newTestShardSource(abc)
				var inf *sharedIndexInformer
				_, events := startShardInformerWithInf(t, srv, src, tc.watchList, &inf)
				cachetest.Eventually(t, "abc applied", func() bool { return src.wasApplied(abc) })

				srv.Hang(true)
				if err := h.hang(srv); err != nil {
					t.Fatal(err)
				}
				cachetest.Eventually(t, "a request the server does not answer", func() bool { return srv.Unanswered() > 0 })

				src.set(ab)
				cachetest.Eventually(t, "ab applied while the server hangs", func() bool { return src.wasApplied(ab) })
				partC := keysOfParts(srv.Objects(), "c")
				cachetest.Eventually(t, "tombstones of part c", func() bool { _, _, tomb := events.snapshot(); return len(tomb) == len(partC) })
				if got, want := sortedKeys(inf.GetStore()), keysOfParts(srv.Objects(), "a", "b"); !slices.Equal(got, want) {
					t.Errorf("cache while the server hangs holds %v, want parts a and b: %v", got, want)
				}

				srv.Hang(false)
				if _, err := srv.Add(partObject("after", "b")); err != nil {
					t.Fatal(err)
				}
				want := keysOfParts(srv.Objects(), "a", "b")
				cachetest.Eventually(t, "the object added after the server answers again", func() bool {
					return slices.Equal(sortedKeys(inf.GetStore()), want)
				})
			})
		}
	}
}
