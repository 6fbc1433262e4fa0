package cache

import (
	"github.com/informer-gen/informer-gen/runtime/cache/internal/protocol"

	"context"
	"io"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
)

// stalledStream is a server's watch stream (a *watch.StreamWatcher, as a
// REST client returns) that delivers events and then nothing, never the
// initial-events-end bookmark, until stopped.
func stalledStream(events ...watch.Event) watch.Interface {
	ch := make(chan watch.Event, len(events))
	for _, e := range events {
		ch <- e
	}
	return watch.NewStreamWatcher(&channelDecoder{events: ch, done: make(chan struct{})}, statusReporter{})
}

type channelDecoder struct {
	events chan watch.Event
	done   chan struct{}
	once   sync.Once
}

func (d *channelDecoder) Decode() (watch.EventType, runtime.Object, error) {
	select {
	case e := <-d.events:
		return e.Type, e.Object, nil
	case <-d.done:
		return "", nil, io.EOF
	}
}

func (d *channelDecoder) Close() { d.once.Do(func() { close(d.done) }) }

type statusReporter struct{}

func (statusReporter) AsObject(err error) runtime.Object { return &metav1.Status{Message: err.Error()} }

// A watch list whose stream stalls before the initial-events-end bookmark
// (a proxy or aggregated API dropping it) falls back to LIST after
// WatchListProgressTimeout; after three stalls in a row the reflector
// lists without trying watch lists for protocol.WatchListRetryAfter, then tries
// them again. Run in fake time (synctest); the server ends every plain
// watch with 410 so that the reflector keeps relisting.
func TestWatchListStallFallsBackToListAndTurnsWatchListsOffAfterThree(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		type request struct {
			kind string // "list", "watchList" or "watch"
			at   time.Duration
		}
		var mu sync.Mutex
		var requests []request
		start := time.Now()
		record := func(kind string) {
			mu.Lock()
			defer mu.Unlock()
			requests = append(requests, request{kind, time.Since(start)})
		}
		lw := &ListWatch{
			ListWithContextFunc: func(context.Context, metav1.ListOptions) (runtime.Object, error) {
				record("list")
				return objectList("10", ""), nil
			},
			WatchFuncWithContext: func(_ context.Context, opts metav1.ListOptions) (watch.Interface, error) {
				if opts.SendInitialEvents != nil && *opts.SendInitialEvents {
					record("watchList")
					return stalledStream(ev(watch.Added, testObject("a", "x", "20"))), nil
				}
				record("watch")
				return closedWatch(statusEvent(expiredErr)), nil
			},
		}
		r := NewReflectorWithOptions(lw, &metav1.PartialObjectMetadata{}, NewStore(MetaNamespaceKeyFunc),
			ReflectorOptions{UseWatchList: true, WatchErrorHandler: func(context.Context, *Reflector, error) {}})
		ctx, cancel := context.WithTimeout(t.Context(), protocol.WatchListRetryAfter+10*time.Minute)
		defer cancel()
		r.RunWithContext(ctx)

		var watchLists []time.Duration
		for i, req := range requests {
			if req.kind != "watchList" {
				continue
			}
			watchLists = append(watchLists, req.at)
			if i+1 >= len(requests) || requests[i+1].kind != "list" {
				t.Fatalf("watch list at %v not followed by a LIST: %v", req.at, requests)
			}
			if waited := requests[i+1].at - req.at; waited != defaultWatchListProgressTimeout {
				t.Errorf("LIST %v after the watch list started, want WatchListProgressTimeout (%v)", waited, defaultWatchListProgressTimeout)
			}
		}
		if len(watchLists) < protocol.WatchListMaxStalls+1 {
			t.Fatalf("%d watch lists in %v, want %d and one more after %v: %v", len(watchLists), protocol.WatchListRetryAfter+10*time.Minute, protocol.WatchListMaxStalls, protocol.WatchListRetryAfter, requests)
		}
		third, fourth := watchLists[protocol.WatchListMaxStalls-1], watchLists[protocol.WatchListMaxStalls]
		if gap := fourth - third; gap < protocol.WatchListRetryAfter {
			t.Errorf("watch lists tried again %v after the third stall, want at least %v", gap, protocol.WatchListRetryAfter)
		}
		lists := 0
		for _, req := range requests {
			if req.kind == "list" && req.at > third && req.at < fourth {
				lists++
			}
		}
		if lists < 2 {
			t.Errorf("%d LISTs while watch lists were off, want the relists to go on by LIST", lists)
		}
	})
}
