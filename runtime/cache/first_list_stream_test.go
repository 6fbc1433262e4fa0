package cache

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"

	"github.com/informer-gen/informer-gen/runtime/cache/cachetest"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"

	"github.com/informer-gen/informer-gen/runtime/cache/internal/queue"
)

// chanDecoder makes a watch.StreamWatcher (what a REST client returns)
// out of a channel of events, so the reflector treats the watch as a
// stream from a server: no in-process grace, only the progress timeout.
type chanDecoder struct {
	events chan watch.Event
	once   sync.Once
	done   chan struct{}
}

func newChanDecoder() *chanDecoder {
	return &chanDecoder{events: make(chan watch.Event), done: make(chan struct{})}
}

func (d *chanDecoder) Decode() (watch.EventType, runtime.Object, error) {
	select {
	case ev, ok := <-d.events:
		if !ok {
			return "", nil, fmt.Errorf("stream closed: %w", errStreamEnd)
		}
		return ev.Type, ev.Object, nil
	case <-d.done:
		return "", nil, errStreamEnd
	}
}

func (d *chanDecoder) Close() { d.once.Do(func() { close(d.done) }) }

var errStreamEnd = fmt.Errorf("EOF")

// send delivers ev, or gives up when the watch was stopped.
func (d *chanDecoder) send(ev watch.Event) {
	select {
	case d.events <- ev:
	case <-d.done:
	}
}

// streamLW serves watch lists from decoders the test drives, and lists
// from list.
type streamLW struct {
	mu       sync.Mutex
	list     func() runtime.Object
	decoders chan *chanDecoder
}

func (lw *streamLW) ListWithContext(context.Context, metav1.ListOptions) (runtime.Object, error) {
	lw.mu.Lock()
	defer lw.mu.Unlock()
	return lw.list(), nil
}

func (lw *streamLW) WatchWithContext(_ context.Context, opts metav1.ListOptions) (watch.Interface, error) {
	d := newChanDecoder()
	if opts.SendInitialEvents != nil && *opts.SendInitialEvents {
		lw.decoders <- d
	}
	return watch.NewStreamWatcher(d, noReporter{}), nil
}

func (lw *streamLW) List(opts metav1.ListOptions) (runtime.Object, error) {
	return lw.ListWithContext(context.Background(), opts)
}

func (lw *streamLW) Watch(opts metav1.ListOptions) (watch.Interface, error) {
	return lw.WatchWithContext(context.Background(), opts)
}

type noReporter struct{}

func (noReporter) AsObject(err error) runtime.Object {
	return &metav1.Status{Status: metav1.StatusFailure, Message: err.Error()}
}

// recordingHandler records handler calls under a lock.
type recordingHandler struct {
	mu    sync.Mutex
	calls callLog
}

func newRecordingHandler() *recordingHandler { return &recordingHandler{} }

func (h *recordingHandler) OnAdd(obj any, initial bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.calls = append(h.calls, addLine(obj, initial))
}

func addLine(o any, initial bool) string {
	return "add " + objName(o.(object)) + map[bool]string{true: " initial", false: ""}[initial]
}

func (h *recordingHandler) OnUpdate(old, obj any) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.calls = append(h.calls, "update "+objName(old.(object))+" -> "+objName(obj.(object)))
}

func (h *recordingHandler) OnDelete(obj any) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if d, ok := obj.(DeletedFinalStateUnknown); ok {
		h.calls = append(h.calls, "delete tombstone "+d.Key)
		return
	}
	h.calls = append(h.calls, "delete "+objName(obj.(object)))
}

func (h *recordingHandler) log() callLog {
	h.mu.Lock()
	defer h.mu.Unlock()
	return slices.Clone(h.calls)
}

func numbered(n int, rv string) []*metav1.PartialObjectMetadata {
	objs := make([]*metav1.PartialObjectMetadata, n)
	for i := range objs {
		objs[i] = testObject("ns", fmt.Sprintf("o%04d", i), rv)
	}
	return objs
}

// A first watch list goes into the cache as it arrives: handlers hear of
// its first objects (as initial adds) while the rest is still being
// streamed, and HasSynced waits for the initial-events-end bookmark. A
// stream cut before its end leaves what came; the relist that follows is
// stored whole and deletes, with a tombstone, what it does not hold.
func TestFirstWatchListStreamsIntoTheCache(t *testing.T) {
	tests := []struct {
		name string
		// cut ends the first stream after the first batch instead of
		// sending the rest and the bookmark.
		cut bool
		// want is the handler's calls after the first batch, beyond the
		// adds of the first batch.
		want callLog
	}{
		{name: "the stream ends with its bookmark: the rest is added, HasSynced"},
		{
			name: "the stream is cut: the relist deletes what it lacks and adds what is new",
			cut:  true,
			want: callLog{"add ns/new@9 initial", "delete tombstone ns/o0255"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			verifyNoLeaks(t)
			objs := numbered(firstListBatch+10, "5")
			lw := &streamLW{decoders: make(chan *chanDecoder, 4), list: func() runtime.Object {
				// The relist holds the first batch but its last object, and one new.
				return page("", append(slices.Clone(objs[:firstListBatch-1]), testObject("ns", "new", "9"))...)
			}}
			inf := NewSharedIndexInformerWithOptions(lw, &metav1.PartialObjectMetadata{}, SharedIndexInformerOptions{UseWatchList: true})
			h := newRecordingHandler()
			if _, err := inf.AddEventHandler(h); err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan struct{})
			go func() { defer close(done); inf.RunWithContext(ctx) }()
			defer func() { cancel(); <-done }()

			d := <-lw.decoders
			for _, o := range objs[:firstListBatch] {
				d.send(ev(watch.Added, o))
			}
			cachetest.Eventually(t, "the first batch handed to the handler", func() bool { return len(h.log()) == firstListBatch })
			if inf.HasSynced() {
				t.Fatal("HasSynced before the initial-events-end bookmark")
			}
			var want callLog
			for _, o := range objs[:firstListBatch] {
				want = append(want, addLine(o, true))
			}
			if tt.cut {
				d.events <- ev(watch.Added, objs[firstListBatch]) // pending, never queued
				close(d.events)
				want = append(want, tt.want...)
			} else {
				for _, o := range objs[firstListBatch:] {
					d.send(ev(watch.Added, o))
					want = append(want, addLine(o, true))
				}
				d.send(ev(watch.Bookmark, initialEventsEnd("7")))
			}
			cachetest.Eventually(t, "informer synced", inf.HasSynced)
			cachetest.Eventually(t, "every notification", func() bool { return len(h.log()) >= len(want) })
			if got := h.log(); !slices.Equal(got, want) {
				t.Errorf("handler calls after the first batch:\n%q\nwant\n%q", got[firstListBatch:], want[firstListBatch:])
			}
		})
	}
}

// Only the first list streams into the queue: once a list was stored, a
// relist is not opened as a first list (it is stored whole), and
// HasSynced waits for the streamed list to be processed.
func TestDeltaFIFOOpensOnlyTheFirstListForStreaming(t *testing.T) {
	fifo := NewDeltaFIFOWithOptions(DeltaFIFOOptions{KnownObjects: NewIndexer(MetaNamespaceKeyFunc, Indexers{})})
	first, ok := fifo.q.OpenFirstList()
	if !ok {
		t.Fatal("an empty queue refused its first list")
	}
	if err := first.QueueListed([]any{testObject("ns", "a", "1")}); err != nil {
		t.Fatal(err)
	}
	first.Close("1")
	if _, ok := fifo.q.OpenFirstList(); ok {
		t.Error("a queue that holds a list opened a first list again")
	}
	if fifo.HasSynced() {
		t.Error("HasSynced before the first list was processed")
	}
	if _, err := fifo.popBatch(0, func(queue.Batch) {}); err != nil {
		t.Fatal(err)
	}
	if !fifo.HasSynced() {
		t.Error("not HasSynced after the first list was processed")
	}
}
