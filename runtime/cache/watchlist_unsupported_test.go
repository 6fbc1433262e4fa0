package cache

import (
	"context"
	"sync/atomic"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"

	"github.com/informer-gen/informer-gen/runtime/cache/cachetest"
)

// countingLW wraps a ListerWatcherWithContext and counts its lists, its
// watch lists (watches with sendInitialEvents) and its plain watches.
type countingLW struct {
	ListerWatcherWithContext
	lists, watchLists, watches atomic.Int32
}

func (c *countingLW) ListWithContext(ctx context.Context, opts metav1.ListOptions) (runtime.Object, error) {
	c.lists.Add(1)
	return c.ListerWatcherWithContext.ListWithContext(ctx, opts)
}

func (c *countingLW) WatchWithContext(ctx context.Context, opts metav1.ListOptions) (watch.Interface, error) {
	if opts.SendInitialEvents != nil && *opts.SendInitialEvents {
		c.watchLists.Add(1)
	} else {
		c.watches.Add(1)
	}
	return c.ListerWatcherWithContext.WatchWithContext(ctx, opts)
}

// listWatch returns the ListWatch of c's counting methods.
func (c *countingLW) listWatch() *ListWatch {
	return &ListWatch{ListWithContextFunc: c.ListWithContext, WatchFuncWithContext: c.WatchWithContext}
}

// ignoringWatch returns a WatchFunc that, as the fakes of client-go and
// client-gen before v0.35 and hand-built ListWatches do, ignores
// sendInitialEvents: its watches carry events (sent on open), and never
// the initial-events-end bookmark.
func ignoringWatch(events ...watch.Event) WatchFuncWithContext {
	return func(context.Context, metav1.ListOptions) (watch.Interface, error) {
		w := watch.NewRaceFreeFake()
		for _, ev := range events {
			w.Action(ev.Type, ev.Object)
		}
		return w, nil
	}
}

// cannotStream is a client that says it cannot stream lists.
type cannotStream struct{}

func (cannotStream) IsWatchListSemanticsUnSupported() bool { return true }

// An informer asked to stream its initial list syncs through LIST when
// the client cannot stream: at once when the client says so, and after
// inProcessWatchListGrace when its in-process watch ignores
// sendInitialEvents (silent, replaying objects or sending changes without
// the initial-events-end bookmark), instead of waiting WatchListTimeout.
func TestWatchListFallsBackToListWhenTheClientCannotStream(t *testing.T) {
	listed := objectList("10", "", testObject("ns", "listed", "10"))
	tests := []struct {
		name           string
		watch          WatchFuncWithContext
		client         any
		wantWatchLists int32
	}{
		{"silent watch", ignoringWatch(), nil, 1},
		{"watch replaying objects without the bookmark", ignoringWatch(
			watch.Event{Type: watch.Added, Object: testObject("ns", "listed", "10")}), nil, 1},
		{"watch sending later changes only", ignoringWatch(
			watch.Event{Type: watch.Modified, Object: testObject("ns", "listed", "11")}), nil, 1},
		{"client that says it cannot stream", ignoringWatch(), cannotStream{}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			verifyNoLeaks(t)
			counting := &countingLW{ListerWatcherWithContext: &ListWatch{ListWithContextFunc: listReturning(listed), WatchFuncWithContext: tt.watch}}
			var lw ListerWatcher = counting.listWatch()
			if tt.client != nil {
				lw = ToListWatcherWithWatchListSemantics(counting.listWatch(), tt.client)
			}
			inf := NewSharedIndexInformerWithOptions(lw, &metav1.PartialObjectMetadata{}, SharedIndexInformerOptions{UseWatchList: true})
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan struct{})
			go func() { defer close(done); inf.RunWithContext(ctx) }()
			defer func() { cancel(); <-done }()
			cachetest.Eventually(t, "informer synced", inf.HasSynced)
			if _, ok, _ := inf.GetStore().GetByKey("ns/listed"); !ok {
				t.Error("the listed object is not in the cache")
			}
			if n := counting.lists.Load(); n != 1 {
				t.Errorf("%d lists, want 1", n)
			}
			if n := counting.watchLists.Load(); n != tt.wantWatchLists {
				t.Errorf("%d watch lists, want %d", n, tt.wantWatchLists)
			}
		})
	}
}

// An in-process watch that honours sendInitialEvents (cachetest's server)
// still streams the initial list: the grace does not cut it short.
func TestWatchListStreamsFromAnInProcessWatchThatHonoursSendInitialEvents(t *testing.T) {
	verifyNoLeaks(t)
	srv := cachetest.NewServer(&metav1.PartialObjectMetadataList{})
	for i := range 50 {
		if _, err := srv.Add(testObject("ns", "o"+string(rune('a'+i%26))+string(rune('a'+i/26)), "")); err != nil {
			t.Fatal(err)
		}
	}
	defer srv.Wait()
	counting := &countingLW{ListerWatcherWithContext: srv}
	inf := NewSharedIndexInformerWithOptions(counting.listWatch(), &metav1.PartialObjectMetadata{}, SharedIndexInformerOptions{UseWatchList: true})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); inf.RunWithContext(ctx) }()
	defer func() { cancel(); <-done }()
	cachetest.Eventually(t, "informer synced", inf.HasSynced)
	if n := len(inf.GetStore().List()); n != 50 {
		t.Errorf("%d cached objects, want 50", n)
	}
	if lists, watchLists := counting.lists.Load(), counting.watchLists.Load(); lists != 0 || watchLists != 1 {
		t.Errorf("%d lists and %d watch lists, want 0 and 1", lists, watchLists)
	}
}

// ClientCannotStreamLists honours IsWatchListSemanticsUnSupported and
// takes other clients (not built on client-go's fakes, which the versions
// module tests) to stream.
func TestClientCannotStreamListsHonoursTheClientsWord(t *testing.T) {
	tests := []struct {
		name   string
		client any
		want   bool
	}{
		{"says it cannot", cannotStream{}, true},
		{"says it can", ToListWatcherWithWatchListSemantics(&ListWatch{}, nil), false},
		{"says nothing", &ListWatch{}, false},
		{"nil", nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := ClientCannotStreamLists(tt.client); got != tt.want {
				t.Errorf("ClientCannotStreamLists(%T) = %t, want %t", tt.client, got, tt.want)
			}
		})
	}
}
