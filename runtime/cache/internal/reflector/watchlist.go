package reflector

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/klog/v2"

	"github.com/informer-gen/informer-gen/runtime/cache/internal/protocol"
	"github.com/informer-gen/informer-gen/runtime/cache/internal/queue"
)

var (
	// errNoInitialEventsEnd reports a watch list whose stream did not
	// carry the end-of-initial-events bookmark in time: the server does
	// not support watch lists.
	errNoInitialEventsEnd = errors.New("watch list: no initial-events-end bookmark")
	// errInitialEventsCut reports a watch list whose stream closed before
	// the end-of-initial-events bookmark: that attempt falls back to LIST,
	// later ones try the watch list again.
	errInitialEventsCut = errors.New("watch list: the stream closed before the initial-events-end bookmark")
	// errWatchListStalled reports a watch list from a server that
	// delivered nothing for WatchListProgressTimeout before the
	// initial-events-end bookmark (a proxy or aggregated API that drops
	// it): that attempt falls back to LIST.
	errWatchListStalled = errors.New("watch list: no event before the initial-events-end bookmark")
	// errWatchListIgnored reports an in-process watch list that stayed
	// silent for inProcessWatchListGrace before the initial-events-end
	// bookmark: the client ignores sendInitialEvents, and the reflector
	// lists from then on.
	errWatchListIgnored = fmt.Errorf("%w: the in-process watch was silent for %v, so it ignores sendInitialEvents (a fake clientset or a hand-built ListWatch)", errNoInitialEventsEnd, inProcessWatchListGrace)
)

// inProcessWatchListGrace is how long a watch list over an in-process
// watch, one that is not a stream from a server (fake clientsets,
// hand-built ListWatches), may go without an event before its
// initial-events-end bookmark. Such watches deliver their initial events
// at once when they honour sendInitialEvents; those that ignore it (the
// fakes client-go and client-gen made before v0.35, hand-built watches)
// would otherwise keep a unit test waiting for WatchListTimeout.
const inProcessWatchListGrace = 500 * time.Millisecond

// ServerStream is implemented by the watches that decode a server's watch
// stream themselves instead of through a *watch.StreamWatcher (those of
// runtime/protowatch and runtime/jsonwatch): the reflector treats them as
// streams from a server, not as in-process watches.
type ServerStream interface {
	watch.Interface
	// FromServer marks the watch; it does nothing.
	FromServer()
}

// watchListIdle returns how long the watch list over w may go without an
// event before its initial-events-end bookmark, and the error to fail
// with after that: WatchListProgressTimeout for a stream from a server (a
// *watch.StreamWatcher, what client-go's REST clients return, or a
// ServerStream), and inProcessWatchListGrace for any other watch.
func (r *Engine) watchListIdle(w watch.Interface) (time.Duration, error) {
	_, server := w.(ServerStream)
	if _, stream := w.(*watch.StreamWatcher); stream || server {
		return r.cfg.WatchListProgressTimeout, fmt.Errorf("%s: %w for %v", r.cfg.Name, errWatchListStalled, r.cfg.WatchListProgressTimeout)
	}
	return min(r.cfg.IdleTimeout, inProcessWatchListGrace), fmt.Errorf("%s: %w", r.cfg.Name, errWatchListIgnored)
}

// watchListStep is the watch-list phase.
func (r *Engine) watchListStep(ctx context.Context, s protocol.State) protocol.Outcome {
	r.takeShard()
	scope := r.shardScope(ctx)
	w, err := r.WatchList(scope, s.WatchListFrom(r.LastSyncResourceVersion()))
	if err != nil {
		if r.cutByShard(ctx, scope) {
			return r.cutEnding(ctx)
		}
		return protocol.Outcome{End: watchListEnding(err), Err: err}
	}
	r.shardStored()
	return protocol.Outcome{End: protocol.EndStored, W: w}
}

// WatchList fills the sink with a streamed initial list from
// resourceVersion: a watch with sendInitialEvents=true whose synthetic
// events end with the bookmark annotated k8s.io/initial-events-end. A
// relist's events are buffered in a temporary store and replace the
// store's content at the bookmark's resourceVersion (a relist is atomic);
// a first list's go into the store as they arrive (sink.OpenFirstList). It
// returns the watch, still open, to be consumed by the watch phase. What
// follows a failure is the transition table's (internal/protocol/state.go).
func (r *Engine) WatchList(ctx context.Context, resourceVersion string) (watch.Interface, error) {
	start := r.cfg.Clock.Now()
	timeout := r.watchTimeoutSeconds()
	sendInitialEvents := true
	w, err := r.lw.WatchWithContext(ctx, r.withShard(metav1.ListOptions{
		ResourceVersion:      resourceVersion,
		ResourceVersionMatch: metav1.ResourceVersionMatchNotOlderThan,
		SendInitialEvents:    &sendInitialEvents,
		AllowWatchBookmarks:  true,
		TimeoutSeconds:       &timeout,
	}))
	if err != nil {
		return nil, fmt.Errorf("%s: watch list: %w", r.cfg.Name, err)
	}
	if r.cfg.Metrics != nil {
		r.cfg.Metrics.WatchStarted()
	}
	buf := r.newInitialEvents()
	rv, err := r.collectInitialEvents(ctx, w, buf)
	if err == nil {
		if r.cfg.Metrics != nil {
			r.cfg.Metrics.ListDone(buf.objects, r.cfg.Clock.Since(start), nil)
		}
		if err = buf.finish(rv); err != nil {
			err = fmt.Errorf("%s: storing the watch list: %w", r.cfg.Name, err)
		}
	}
	if err != nil {
		buf.abandon()
		w.Stop()
		if r.cfg.Metrics != nil {
			r.cfg.Metrics.WatchEnded(buf.events, err)
		}
		return nil, err
	}
	r.setLastSyncResourceVersion(rv)
	r.sink.UpdateResourceVersion(rv)
	klog.FromContext(ctx).V(2).Info("Caches populated by watch list", "reflector", r.cfg.Name, "items", buf.objects, "streamed", buf.first != nil, "resourceVersion", rv)
	return w, nil
}

// collectInitialEvents takes the initial events of w into buf until the
// initial-events-end bookmark and returns the bookmark's resourceVersion.
// It gives up after WatchListTimeout, or when the watch closes or stays
// idle first (for IdleTimeout, or inProcessWatchListGrace when w is not a
// stream from a server; see watchListIdle). It leaves w open.
func (r *Engine) collectInitialEvents(ctx context.Context, w watch.Interface, buf *initialEvents) (rv string, err error) {
	deadline := r.cfg.Clock.NewTimer(r.cfg.WatchListTimeout)
	defer deadline.Stop()
	idleLimit, idleErr := r.watchListIdle(w)
	idle := r.cfg.Clock.NewTimer(idleLimit)
	defer idle.Stop()
	lastEvent := r.cfg.Clock.Now()
	for {
		select {
		case <-ctx.Done():
			return "", ctx.Err()
		case <-deadline.C():
			return "", fmt.Errorf("%s: %w within %v", r.cfg.Name, errNoInitialEventsEnd, r.cfg.WatchListTimeout)
		case <-idle.C():
			if left := idleLimit - r.cfg.Clock.Since(lastEvent); left > 0 {
				idle.Reset(left)
				continue
			}
			return "", idleErr
		case ev, ok := <-w.ResultChan():
			if !ok {
				return "", fmt.Errorf("%s: %w, after %d events", r.cfg.Name, errInitialEventsCut, buf.events)
			}
			lastEvent = r.cfg.Clock.Now()
			done, rv, err := buf.add(ctx, ev)
			if err != nil || done {
				return rv, err
			}
		}
	}
}

// initialEvents takes a watch list's initial events: into a temporary
// store (a relist), or into the reflector's sink as they arrive (a first
// list, when the sink opens one: sink.OpenFirstList). The choice is the
// one listedPages makes for a paged list, asked of the same sink.
type initialEvents struct {
	r      *Engine
	events int // events received
	// objects is the number of objects the list holds (streamed: the
	// objects queued, counting an object twice if it came twice).
	objects int

	// buffer is preparing, or first when streamed.
	buffer eventWriter

	// Buffered: the temporary store, each object prepared by the sink
	// as it arrives. nil when streamed.
	preparing *preparingBuffer

	// Streamed: the first list going into the reflector's sink.
	first *firstListStream
}

// eventWriter is what storeEvent writes one event's object to: the
// reflector's sink (a watch) or a watch list's buffer.
type eventWriter interface {
	Add(obj any) error
	Update(obj any) error
	Delete(obj any) error
	Bookmark(resourceVersion string) error
}

func (r *Engine) newInitialEvents() *initialEvents {
	b := &initialEvents{r: r}
	if f, ok := r.sink.OpenFirstList(); ok {
		b.first = &firstListStream{f: f}
		b.buffer = b.first
		return b
	}
	b.preparing = &preparingBuffer{objects: map[string]any{}, transform: r.sink.ListTransformer(), s: r.sink}
	b.buffer = b.preparing
	return b
}

// add takes ev; it returns true with the bookmark's resourceVersion at
// the initial-events-end bookmark, and the error that ends the watch list.
func (b *initialEvents) add(ctx context.Context, ev watch.Event) (bool, string, error) {
	r := b.r
	if ev.Type == watch.Error {
		return false, "", fmt.Errorf("%s: watch list event: %w", r.cfg.Name, apierrors.FromObject(ev.Object))
	}
	b.events++
	evRV, ok := r.storeEvent(ctx, ev, b.buffer)
	if err := b.prepareErr(); err != nil {
		// A transform failed: the list is not whole, and storing it would
		// delete the object that failed.
		return false, "", fmt.Errorf("%s: watch list: preparing listed objects: %w", r.cfg.Name, err)
	}
	if !ok || ev.Type != watch.Bookmark {
		return false, "", nil
	}
	m, err := meta.Accessor(ev.Object)
	return err == nil && m.GetAnnotations()[metav1.InitialEventsAnnotationKey] == "true", evRV, nil
}

// prepareErr is the first failure to prepare (transform) an object.
func (b *initialEvents) prepareErr() error {
	if b.first != nil {
		return b.first.err
	}
	return b.preparing.err
}

// finish stores the complete list at resourceVersion.
func (b *initialEvents) finish(resourceVersion string) error {
	if b.first != nil {
		if err := b.first.flush(); err != nil {
			return err
		}
		b.objects = b.first.queued
		b.first.f.Close(resourceVersion)
		b.first = nil
		return nil
	}
	items := b.preparing.List()
	b.objects = len(items)
	return b.r.sink.ReplaceListed(items, resourceVersion)
}

// abandon ends a watch list that failed (see firstList.Abandon).
func (b *initialEvents) abandon() {
	if b.first != nil {
		b.first.f.Abandon()
		b.first = nil
	}
}

// FirstListBatch is how many initial events of a streamed first list are
// queued at a time: one lock of the queue, and one wake-up of the
// informer, per batch rather than per object.
const FirstListBatch = 256

// firstListStream is the ReflectorStore the initial events of a first
// list go through on their way to the reflector's store, in batches of
// FirstListBatch. err is the first failure to queue a batch.
type firstListStream struct {
	f       queue.FirstList
	pending []any
	queued  int
	err     error
}

func (s *firstListStream) Add(obj any) error {
	s.pending = append(s.pending, obj)
	if len(s.pending) < FirstListBatch {
		return nil
	}
	return s.flush()
}

// Update takes a changed object like a new one: the list holds its last
// state.
func (s *firstListStream) Update(obj any) error { return s.Add(obj) }

// Delete takes an object that left the list before its end: it is
// deleted after the objects before it were queued.
func (s *firstListStream) Delete(obj any) error {
	if err := s.flush(); err != nil {
		return err
	}
	return s.f.Delete(obj)
}

// Bookmark ignores a bookmark among the initial events, as the buffer of
// a relist does.
func (s *firstListStream) Bookmark(string) error { return nil }

// flush queues the pending objects.
func (s *firstListStream) flush() error {
	if len(s.pending) == 0 || s.err != nil {
		return s.err
	}
	if err := s.f.QueueListed(s.pending); err != nil {
		s.err = err
		return err
	}
	s.queued += len(s.pending)
	clear(s.pending)
	s.pending = s.pending[:0]
	return nil
}

// preparingBuffer collects a watch list's initial events when they are
// not streamed, by namespace/name (a later event for an object replaces
// the earlier, a delete removes it): each object is prepared by the sink
// as it arrives (sink.PrepareListed), as a listed page is, then goes
// through the sink's ListTransformer. err is the first preparation that
// failed. Used by the Run goroutine only.
type preparingBuffer struct {
	objects   map[string]any
	transform func(any) (any, error)
	s         queue.Sink
	err       error
	one       [1]any // the object being prepared (no allocation per event)
}

// Bookmark ignores a bookmark among the initial events (the list's end is
// the one storeEvent's caller looks for).
func (b *preparingBuffer) Bookmark(string) error { return nil }

func (b *preparingBuffer) Add(obj any) error { return b.prepared(obj) }

func (b *preparingBuffer) Update(obj any) error { return b.prepared(obj) }

// Delete drops obj from the buffer.
func (b *preparingBuffer) Delete(obj any) error {
	key, err := objectKey(obj)
	if err != nil {
		return err
	}
	delete(b.objects, key)
	return nil
}

// List returns the buffered objects.
func (b *preparingBuffer) List() []any {
	items := make([]any, 0, len(b.objects))
	for _, obj := range b.objects {
		items = append(items, obj)
	}
	return items
}

func (b *preparingBuffer) prepared(obj any) error {
	b.one[0] = obj
	err := b.s.PrepareListed(b.one[:])
	obj, b.one[0] = b.one[0], nil
	if err != nil {
		b.err = cmp.Or(b.err, err)
		return err
	}
	if b.transform != nil {
		out, err := b.transform(obj)
		if err != nil {
			return fmt.Errorf("cache: transforming %T: %w", obj, err)
		}
		obj = out
	}
	key, err := objectKey(obj)
	if err != nil {
		return err
	}
	b.objects[key] = obj
	return nil
}

// objectKey is obj's namespace/name (its name alone when it has no
// namespace), the key runtime/cache's MetaNamespaceKeyFunc gives it.
func objectKey(obj any) (string, error) {
	m, err := meta.Accessor(obj)
	if err != nil {
		return "", fmt.Errorf("object has no meta: %w", err)
	}
	if ns := m.GetNamespace(); ns != "" {
		return ns + "/" + m.GetName(), nil
	}
	return m.GetName(), nil
}
