package cache

import (
	"context"
	"sync"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"

	"github.com/informer-gen/informer-gen/runtime/cache/cachetest"
)

// modelServer is the informer tests' API server: a cachetest.Server of
// PartialObjectMetadata in namespace "ns", with names for the scripted
// changes these tests make and one hook a real server lacks: a missed
// delete (put with recreate), a re-creation whose watch events carry only
// the ADDED of the new object, as a client that missed the DELETED sees
// it. cachetest cannot import this package's internals, but this package's
// tests can import cachetest: cachetest does not import runtime/cache.
type modelServer struct {
	*cachetest.Server

	mu     sync.Mutex
	missed map[string]bool // resourceVersions of deletes no watch delivers
}

func newModelServer() *modelServer {
	return &modelServer{Server: cachetest.NewServer(&metav1.PartialObjectMetadataList{}), missed: map[string]bool{}}
}

var _ ListerWatcherWithContext = (*modelServer)(nil)

func modelObject(name string) *metav1.PartialObjectMetadata {
	return &metav1.PartialObjectMetadata{
		TypeMeta:   metav1.TypeMeta{APIVersion: "v1", Kind: "ConfigMap"},
		ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: name},
	}
}

// objectWriter is what put and remove write through: the server, or the
// Tx of a partition.
type objectWriter interface {
	Add(runtime.Object) (runtime.Object, error)
	Update(runtime.Object) (runtime.Object, error)
	Delete(namespace, name string) (runtime.Object, error)
}

// put creates or updates name; recreate forces a new UID (a delete and
// create the watch sees only as one ADDED event, as after a missed delete).
func (s *modelServer) put(name string, recreate bool) {
	s.putWith(s.Server, name, recreate, true)
}

func (s *modelServer) putWith(w objectWriter, name string, recreate, hideDelete bool) {
	if !recreate {
		if _, err := w.Update(modelObject(name)); err == nil {
			return
		}
	} else {
		if gone, err := w.Delete("ns", name); err == nil && hideDelete {
			s.mu.Lock()
			s.missed[gone.(*metav1.PartialObjectMetadata).ResourceVersion] = true
			s.mu.Unlock()
		}
	}
	if _, err := w.Add(modelObject(name)); err != nil {
		panic(err)
	}
}

// remove deletes name if it exists.
func (s *modelServer) remove(name string) { _, _ = s.Delete("ns", name) }

// bookmark sends a bookmark at the current resourceVersion to the watches
// that asked for them.
func (s *modelServer) bookmark() { s.Bookmark() }

// closeWatches ends every open watch cleanly; clients resume from their
// last resourceVersion.
func (s *modelServer) closeWatches() { s.CloseWatches() }

// partition ends every watch and applies change without any watch seeing
// it, compacting the history, so clients must relist (after a 410) to see
// the result. Watches are first closed cleanly, so a client usually learns
// of the 410 when it resumes, not on the stream it had.
func (s *modelServer) partition(change func(p *partitionOps)) {
	s.CloseWatches()
	if err := s.ExpireWatches(func(tx *cachetest.Tx) error {
		change(&partitionOps{s: s, tx: tx})
		return nil
	}); err != nil {
		panic(err)
	}
}

// partitionOps changes a modelServer without emitting events.
type partitionOps struct {
	s  *modelServer
	tx *cachetest.Tx
}

func (p *partitionOps) put(name string, recreate bool) { p.s.putWith(p.tx, name, recreate, false) }
func (p *partitionOps) remove(name string)             { _, _ = p.tx.Delete("ns", name) }

// expire sends a 410 to every open watch and compacts the history.
func (s *modelServer) expire() {
	if err := s.ExpireWatches(nil); err != nil {
		panic(err)
	}
}

// state returns name -> (UID, resourceVersion) of the current objects.
func (s *modelServer) state() map[string]string {
	return storeState(s.objects())
}

func (s *modelServer) objects() []any {
	objs := s.Objects()
	out := make([]any, len(objs))
	for i, o := range objs {
		out[i] = o
	}
	return out
}

func (s *modelServer) counts() (lists, watches int) { return s.Calls() }

// has reports whether name exists.
func (s *modelServer) has(name string) bool {
	_, ok := s.Get("ns", name)
	return ok
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

// WatchWithContext is the server's watch without the missed deletes.
func (s *modelServer) WatchWithContext(ctx context.Context, opts metav1.ListOptions) (watch.Interface, error) {
	inner, err := s.Server.WatchWithContext(ctx, opts)
	if err != nil {
		return nil, err
	}
	w := &missedDeleteWatch{inner: inner, ch: make(chan watch.Event), stop: make(chan struct{})}
	go w.run(s)
	return w, nil
}

// Watch is WatchWithContext with a background context.
func (s *modelServer) Watch(opts metav1.ListOptions) (watch.Interface, error) {
	return s.WatchWithContext(context.Background(), opts)
}

func (s *modelServer) isMissed(e watch.Event) bool {
	if e.Type != watch.Deleted {
		return false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.missed[e.Object.(*metav1.PartialObjectMetadata).ResourceVersion]
}

// missedDeleteWatch forwards a watch's events but the missed deletes.
type missedDeleteWatch struct {
	inner watch.Interface
	ch    chan watch.Event
	stop  chan struct{}
	once  sync.Once
}

func (w *missedDeleteWatch) ResultChan() <-chan watch.Event { return w.ch }

func (w *missedDeleteWatch) Stop() {
	w.once.Do(func() {
		close(w.stop)
		w.inner.Stop()
	})
}

func (w *missedDeleteWatch) run(s *modelServer) {
	defer close(w.ch)
	for e := range w.inner.ResultChan() {
		if s.isMissed(e) {
			continue
		}
		select {
		case w.ch <- e:
		case <-w.stop:
			return
		}
	}
}
