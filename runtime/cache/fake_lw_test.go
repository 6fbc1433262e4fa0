package cache

import (
	"context"
	"sync"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
)

// waitLimit bounds how long a test waits for something that must happen;
// reaching it means the test failed, it is never a speed assertion.
const waitLimit = 10 * time.Second

// fakeWatcher is a watch.Interface a test drives by hand. Send blocks until
// the consumer takes the event (or stops the watch), so a test knows the
// reflector received it.
type fakeWatcher struct {
	opts      metav1.ListOptions
	result    chan watch.Event
	stopped   chan struct{}
	stopOnce  sync.Once
	closeOnce sync.Once
}

func newFakeWatcher(opts metav1.ListOptions) *fakeWatcher {
	return &fakeWatcher{opts: opts, result: make(chan watch.Event), stopped: make(chan struct{})}
}

// ResultChan returns the event channel.
func (w *fakeWatcher) ResultChan() <-chan watch.Event { return w.result }

// Stop marks the watch stopped; it is idempotent.
func (w *fakeWatcher) Stop() { w.stopOnce.Do(func() { close(w.stopped) }) }

// Send delivers ev and reports whether the consumer took it before the
// watch was stopped.
func (w *fakeWatcher) Send(ev watch.Event) bool {
	select {
	case w.result <- ev:
		return true
	case <-w.stopped:
		return false
	}
}

// Close ends the stream as a server would; call it from the goroutine that
// calls Send.
func (w *fakeWatcher) Close() { w.closeOnce.Do(func() { close(w.result) }) }

// isStopped reports whether the consumer called Stop.
func (w *fakeWatcher) isStopped() bool {
	select {
	case <-w.stopped:
		return true
	default:
		return false
	}
}

// fakeLW is a scripted ListerWatcher. List answers come from ListFunc;
// Watch answers come from WatchFunc when set, else every Watch call gets a
// new fakeWatcher published on watchers. Every call's options are
// recorded. Safe for concurrent use.
type fakeLW struct {
	ListFunc  func(ctx context.Context, opts metav1.ListOptions) (runtime.Object, error)
	WatchFunc func(ctx context.Context, opts metav1.ListOptions) (watch.Interface, error)

	watchers chan *fakeWatcher

	mu         sync.Mutex
	listCalls  []metav1.ListOptions
	watchCalls []metav1.ListOptions
}

func newFakeLW() *fakeLW {
	return &fakeLW{watchers: make(chan *fakeWatcher, 100)}
}

// ListWithContext records opts and calls ListFunc.
func (lw *fakeLW) ListWithContext(ctx context.Context, opts metav1.ListOptions) (runtime.Object, error) {
	lw.mu.Lock()
	lw.listCalls = append(lw.listCalls, opts)
	fn := lw.ListFunc
	lw.mu.Unlock()
	if fn == nil {
		return &metav1.PartialObjectMetadataList{ListMeta: metav1.ListMeta{ResourceVersion: "1"}}, nil
	}
	return fn(ctx, opts)
}

// WatchWithContext records opts and calls WatchFunc or publishes a new fakeWatcher.
func (lw *fakeLW) WatchWithContext(ctx context.Context, opts metav1.ListOptions) (watch.Interface, error) {
	lw.mu.Lock()
	lw.watchCalls = append(lw.watchCalls, opts)
	fn := lw.WatchFunc
	lw.mu.Unlock()
	if fn != nil {
		return fn(ctx, opts)
	}
	w := newFakeWatcher(opts)
	lw.watchers <- w
	return w, nil
}

// lists returns the options of every List call so far.
func (lw *fakeLW) lists() []metav1.ListOptions {
	lw.mu.Lock()
	defer lw.mu.Unlock()
	return append([]metav1.ListOptions(nil), lw.listCalls...)
}

// watches returns the options of every Watch call so far.
func (lw *fakeLW) watches() []metav1.ListOptions {
	lw.mu.Lock()
	defer lw.mu.Unlock()
	return append([]metav1.ListOptions(nil), lw.watchCalls...)
}

// nextWatcher waits for the next fakeWatcher handed out by Watch.
func (lw *fakeLW) nextWatcher(t testing.TB) *fakeWatcher {
	t.Helper()
	select {
	case w := <-lw.watchers:
		return w
	case <-time.After(waitLimit):
		t.Fatal("timed out waiting for a Watch call")
		return nil
	}
}

// objectList returns a list object at resourceVersion holding objs, with a
// continue token.
func objectList(resourceVersion, continueToken string, objs ...*metav1.PartialObjectMetadata) *metav1.PartialObjectMetadataList {
	l := &metav1.PartialObjectMetadataList{ListMeta: metav1.ListMeta{ResourceVersion: resourceVersion, Continue: continueToken}}
	for _, o := range objs {
		l.Items = append(l.Items, *o)
	}
	return l
}

// List is ListWithContext with a background context.
func (lw *fakeLW) List(opts metav1.ListOptions) (runtime.Object, error) {
	return lw.ListWithContext(context.Background(), opts)
}

// Watch is WatchWithContext with a background context.
func (lw *fakeLW) Watch(opts metav1.ListOptions) (watch.Interface, error) {
	return lw.WatchWithContext(context.Background(), opts)
}
