package cache

import (
	"context"
	"net/http"
	"strconv"
	"sync"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/watch"
)

// modelServer is a scripted, in-memory API server for one kind of object
// (PartialObjectMetadata in namespace "ns"), implementing ListerWatcher.
// It keeps an event history for watches from past resourceVersions;
// partition changes objects out of sight of watches and compacts the
// history, so those changes are seen only by a relist (after a 410).
// Objects handed out are copies, as a real server's decoded objects are.
type modelServer struct {
	mu        sync.Mutex
	rv        int64
	uidSeq    int
	objects   map[string]*metav1.PartialObjectMetadata // by name
	history   []watch.Event                            // events after compacted, oldest first
	compacted int64
	watchers  map[*modelWatch]bool // value: wants bookmarks
	lists     int
	watches   int
}

func newModelServer() *modelServer {
	return &modelServer{rv: 100, objects: map[string]*metav1.PartialObjectMetadata{}, watchers: map[*modelWatch]bool{}}
}

var _ ListerWatcher = (*modelServer)(nil)

// ListWithContext returns the current objects.
func (s *modelServer) ListWithContext(ctx context.Context, _ metav1.ListOptions) (runtime.Object, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.lists++
	list := &metav1.PartialObjectMetadataList{ListMeta: metav1.ListMeta{ResourceVersion: strconv.FormatInt(s.rv, 10)}}
	list.Items = make([]metav1.PartialObjectMetadata, 0, len(s.objects))
	for _, o := range s.objects {
		list.Items = append(list.Items, *o.DeepCopy())
	}
	return list, nil
}

// WatchWithContext replays the history after opts.ResourceVersion, then follows
// changes. A resourceVersion older than the compacted history gets a 410
// error event, as from a real server.
func (s *modelServer) WatchWithContext(ctx context.Context, opts metav1.ListOptions) (watch.Interface, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.watches++
	w := newModelWatch()
	from, err := strconv.ParseInt(opts.ResourceVersion, 10, 64)
	if opts.ResourceVersion == "" || err != nil {
		// "Any": the current objects as ADDED events, then changes.
		from = s.rv
		for _, o := range s.objects {
			w.send(watch.Event{Type: watch.Added, Object: o.DeepCopy()})
		}
	}
	if from < s.compacted {
		status := apierrors.NewResourceExpired("too old resource version").Status()
		status.Code = http.StatusGone
		w.send(watch.Event{Type: watch.Error, Object: &status})
		w.end()
		return w, nil
	}
	for _, e := range s.history {
		if eventRV(e) > from {
			w.send(copyEvent(e))
		}
	}
	s.watchers[w] = opts.AllowWatchBookmarks
	return w, nil
}

func eventRV(e watch.Event) int64 {
	rv, _ := strconv.ParseInt(e.Object.(*metav1.PartialObjectMetadata).ResourceVersion, 10, 64)
	return rv
}

func copyEvent(e watch.Event) watch.Event {
	return watch.Event{Type: e.Type, Object: e.Object.(*metav1.PartialObjectMetadata).DeepCopy()}
}

// emitLocked records and broadcasts an event.
func (s *modelServer) emitLocked(typ watch.EventType, obj *metav1.PartialObjectMetadata) {
	e := watch.Event{Type: typ, Object: obj.DeepCopy()}
	s.history = append(s.history, e)
	for w := range s.watchers {
		if w.isStopped() {
			delete(s.watchers, w)
			continue
		}
		w.send(copyEvent(e))
	}
}

func (s *modelServer) nextRVLocked() string {
	s.rv++
	return strconv.FormatInt(s.rv, 10)
}

// put creates or updates name; recreate forces a new UID (a delete and
// create the watch sees only as one ADDED event, as after a missed delete).
func (s *modelServer) put(name string, recreate bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.putLocked(name, recreate, true)
}

func (s *modelServer) putLocked(name string, recreate, emit bool) {
	old, exists := s.objects[name]
	obj := &metav1.PartialObjectMetadata{
		TypeMeta:   metav1.TypeMeta{APIVersion: "v1", Kind: "ConfigMap"},
		ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: name, ResourceVersion: s.nextRVLocked()},
	}
	typ := watch.Modified
	if exists && !recreate {
		obj.UID = old.UID
	} else {
		s.uidSeq++
		obj.UID = types.UID("uid-" + strconv.Itoa(s.uidSeq))
		typ = watch.Added
	}
	s.objects[name] = obj
	if emit {
		s.emitLocked(typ, obj)
	}
}

// remove deletes name if it exists.
func (s *modelServer) remove(name string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.removeLocked(name, true)
}

func (s *modelServer) removeLocked(name string, emit bool) {
	old, ok := s.objects[name]
	if !ok {
		return
	}
	delete(s.objects, name)
	gone := old.DeepCopy()
	gone.ResourceVersion = s.nextRVLocked()
	if emit {
		s.emitLocked(watch.Deleted, gone)
	}
}

// bookmark sends a bookmark at the current resourceVersion to the watches
// that asked for them.
func (s *modelServer) bookmark() {
	s.mu.Lock()
	defer s.mu.Unlock()
	obj := &metav1.PartialObjectMetadata{ObjectMeta: metav1.ObjectMeta{ResourceVersion: strconv.FormatInt(s.rv, 10)}}
	for w, wantsBookmarks := range s.watchers {
		if wantsBookmarks && !w.isStopped() {
			w.send(watch.Event{Type: watch.Bookmark, Object: obj.DeepCopy()})
		}
	}
}

// closeWatches ends every open watch cleanly; clients resume from their
// last resourceVersion.
func (s *modelServer) closeWatches() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for w := range s.watchers {
		w.end()
		delete(s.watchers, w)
	}
}

// partition ends every watch and applies change without any watch seeing
// it, compacting the history, so clients must relist (after a 410) to see
// the result.
func (s *modelServer) partition(change func(p *partitionOps)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for w := range s.watchers {
		w.end()
		delete(s.watchers, w)
	}
	change(&partitionOps{s: s})
	s.history = nil
	s.compacted = s.rv
}

// partitionOps changes a modelServer without emitting events.
type partitionOps struct{ s *modelServer }

func (p *partitionOps) put(name string, recreate bool) { p.s.putLocked(name, recreate, false) }
func (p *partitionOps) remove(name string)             { p.s.removeLocked(name, false) }

// expire sends a 410 to every open watch and compacts the history.
func (s *modelServer) expire() {
	s.mu.Lock()
	defer s.mu.Unlock()
	status := apierrors.NewResourceExpired("compacted").Status()
	status.Code = http.StatusGone
	for w := range s.watchers {
		w.send(watch.Event{Type: watch.Error, Object: status.DeepCopy()})
		w.end()
		delete(s.watchers, w)
	}
	s.history = nil
	s.compacted = s.rv
}

// state returns name -> (UID, resourceVersion) of the current objects.
func (s *modelServer) state() map[string]string {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make(map[string]string, len(s.objects))
	for name, o := range s.objects {
		out["ns/"+name] = string(o.UID) + "@" + o.ResourceVersion
	}
	return out
}

func (s *modelServer) counts() (lists, watches int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.lists, s.watches
}

// storeState renders objs like modelServer.state.
func storeState(objs []any) map[string]string {
	out := make(map[string]string, len(objs))
	for _, obj := range objs {
		o := obj.(*metav1.PartialObjectMetadata)
		out[o.Namespace+"/"+o.Name] = string(o.UID) + "@" + o.ResourceVersion
	}
	return out
}

// modelWatch is a watch.Interface with an unbounded buffer, so the server
// never blocks on a slow client. One goroutine pumps the buffer into the
// result channel; it ends on Stop, or after the buffer drained once end
// was called.
type modelWatch struct {
	ch     chan watch.Event
	stopCh chan struct{}
	once   sync.Once

	mu     sync.Mutex
	cond   sync.Cond
	queue  []watch.Event
	ending bool
}

func newModelWatch() *modelWatch {
	w := &modelWatch{ch: make(chan watch.Event, 64), stopCh: make(chan struct{})}
	w.cond.L = &w.mu
	go w.pump()
	return w
}

func (w *modelWatch) ResultChan() <-chan watch.Event { return w.ch }

// Stop ends the watch; events not yet received are dropped.
func (w *modelWatch) Stop() {
	w.once.Do(func() { close(w.stopCh) })
	w.mu.Lock()
	w.cond.Signal()
	w.mu.Unlock()
}

func (w *modelWatch) isStopped() bool {
	select {
	case <-w.stopCh:
		return true
	default:
		return false
	}
}

func (w *modelWatch) send(e watch.Event) {
	w.mu.Lock()
	w.queue = append(w.queue, e)
	w.cond.Signal()
	w.mu.Unlock()
}

// end closes the result channel once the queued events are received.
func (w *modelWatch) end() {
	w.mu.Lock()
	w.ending = true
	w.cond.Signal()
	w.mu.Unlock()
}

func (w *modelWatch) pump() {
	defer close(w.ch)
	for {
		w.mu.Lock()
		for len(w.queue) == 0 && !w.ending && !w.isStopped() {
			w.cond.Wait()
		}
		if w.isStopped() || len(w.queue) == 0 {
			w.mu.Unlock()
			return
		}
		batch := w.queue
		w.queue = nil
		w.mu.Unlock()
		for _, e := range batch {
			select {
			case w.ch <- e:
			case <-w.stopCh:
				return
			}
		}
	}
}

// has reports whether name exists.
func (s *modelServer) has(name string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, ok := s.objects[name]
	return ok
}

// List is ListWithContext with a background context.
func (s *modelServer) List(opts metav1.ListOptions) (runtime.Object, error) {
	return s.ListWithContext(context.Background(), opts)
}

// Watch is WatchWithContext with a background context.
func (s *modelServer) Watch(opts metav1.ListOptions) (watch.Interface, error) {
	return s.WatchWithContext(context.Background(), opts)
}
