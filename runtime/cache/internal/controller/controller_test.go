package controller_test

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/clock"

	"github.com/informer-gen/informer-gen/runtime/cache/cachetest"
	"github.com/informer-gen/informer-gen/runtime/cache/internal/controller"
	"github.com/informer-gen/informer-gen/runtime/cache/internal/delivery"
	"github.com/informer-gen/informer-gen/runtime/cache/internal/queue"
	"github.com/informer-gen/informer-gen/runtime/cache/internal/store"
)

// obj is an object of key default/name with uid and resourceVersion rv.
func obj(name, uid, rv string) *metav1.PartialObjectMetadata {
	return &metav1.PartialObjectMetadata{ObjectMeta: metav1.ObjectMeta{
		Namespace: "default", Name: name, UID: types.UID(uid), ResourceVersion: rv,
	}}
}

func keyOf(o any) (string, error) {
	if d, ok := o.(queue.DeletedFinalStateUnknown); ok {
		return d.Key, nil
	}
	m, ok := o.(*metav1.PartialObjectMetadata)
	if !ok {
		return "", fmt.Errorf("no key for %T", o)
	}
	return m.Namespace + "/" + m.Name, nil
}

// describe is name/uid/rv of o, "tombstone name/uid/rv" for a tombstone.
func describe(o any) string {
	if d, ok := o.(queue.DeletedFinalStateUnknown); ok {
		return "tombstone " + describe(d.Obj)
	}
	m := o.(*metav1.PartialObjectMetadata)
	return fmt.Sprintf("%s/%s/%s", m.Name, m.UID, m.ResourceVersion)
}

// recorder is a handler that records what it is told, in order.
type recorder struct {
	mu  sync.Mutex // guards got
	got []string
}

func (r *recorder) add(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.got = append(r.got, fmt.Sprintf(format, args...))
}

func (r *recorder) OnAdd(o any, initial bool) { r.add("add %s initial=%v", describe(o), initial) }
func (r *recorder) OnUpdate(old, o any)       { r.add("update %s -> %s", describe(old), describe(o)) }
func (r *recorder) OnDelete(o any)            { r.add("delete %s", describe(o)) }

func (r *recorder) seen() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.got)
}

// waitFor waits until r was told of want's last notification and returns
// everything r was told.
func (r *recorder) waitFor(t *testing.T, want []string) []string {
	t.Helper()
	last := want[len(want)-1]
	cachetest.Eventually(t, last, func() bool { return slices.Contains(r.seen(), last) })
	return r.seen()
}

// observer records the controller's Observer calls.
type observer struct {
	mu  sync.Mutex // guards got and processed
	got []string
	// processed is the sum of EventsProcessed's n.
	processed int
}

func (o *observer) Before(obj any) runtime.Object { return obj.(runtime.Object).DeepCopyObject() }
func (o *observer) Stored(key string, obj any, before runtime.Object) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.got = append(o.got, fmt.Sprintf("stored %s copy=%s", key, describe(before)))
}
func (o *observer) Removed(key string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.got = append(o.got, "removed "+key)
}
func (o *observer) EventsProcessed(n int) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.processed += n
}

// pipeline is a running controller over a fresh queue and cache, with one
// recording listener.
type pipeline struct {
	fifo  *queue.FIFO
	cache *store.Indexed
	proc  *delivery.Processor
	ctrl  *controller.Controller
	rec   *recorder
	obs   *observer
}

func start(t *testing.T) *pipeline {
	t.Helper()
	cache := store.New(store.Config{Key: keyOf})
	p := &pipeline{
		fifo:  queue.New(cache, nil, queue.Config{Name: "test", KeyOf: keyOf, Unchanged: controller.SameVersion}),
		cache: cache,
		proc:  delivery.NewProcessor(clock.RealClock{}),
		rec:   &recorder{},
		obs:   &observer{},
	}
	if err := p.proc.Add(newListener(p.rec), 0); err != nil {
		t.Fatal(err)
	}
	p.ctrl = controller.New(controller.Config{
		Name: "test", Queue: p.fifo, Cache: cache, Processor: p.proc, Observer: p.obs, Metrics: p.obs,
	})
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); p.proc.Run(ctx) }()
	go func() { defer wg.Done(); p.ctrl.Run() }()
	t.Cleanup(func() {
		cancel()
		p.fifo.Close()
		wg.Wait()
	})
	return p
}

func newListener(h delivery.Handler) *delivery.Listener {
	return delivery.NewListener(delivery.ListenerConfig{
		Handler: h,
		Name:    "recorder",
		HasKey: func(o any, key string) bool {
			k, err := keyOf(o)
			return err == nil && k == key
		},
	})
}

func TestControllerNotifiesWhatEachChangeDidToTheCache(t *testing.T) {
	tests := []struct {
		name  string
		queue func(t *testing.T, f *queue.FIFO)
		want  []string
	}{{
		name: "the first list adds every object as initial",
		queue: func(t *testing.T, f *queue.FIFO) {
			must(t, f.Replace([]any{obj("a", "u1", "1"), obj("b", "u1", "1")}, "1"))
		},
		want: []string{"add a/u1/1 initial=true", "add b/u1/1 initial=true"},
	}, {
		name: "a relisted object at the cached resourceVersion is not notified",
		queue: func(t *testing.T, f *queue.FIFO) {
			must(t, f.Replace([]any{obj("a", "u1", "1")}, "1"))
			must(t, f.Replace([]any{obj("a", "u1", "1")}, "2"))
			must(t, f.Add(obj("z", "u1", "3"))) // ends the expected sequence
		},
		want: []string{"add a/u1/1 initial=true", "add z/u1/3 initial=false"},
	}, {
		name: "a relisted object with a new UID is a tombstone's delete then an add",
		queue: func(t *testing.T, f *queue.FIFO) {
			must(t, f.Replace([]any{obj("a", "u1", "1")}, "1"))
			must(t, f.Replace([]any{obj("a", "u2", "2")}, "2"))
		},
		want: []string{"add a/u1/1 initial=true", "delete tombstone a/u1/1", "add a/u2/2 initial=false"},
	}, {
		name: "a key a relist lacks is deleted with a tombstone",
		queue: func(t *testing.T, f *queue.FIFO) {
			must(t, f.Replace([]any{obj("a", "u1", "1"), obj("b", "u1", "1")}, "1"))
			must(t, f.Replace([]any{obj("a", "u1", "1")}, "2"))
		},
		want: []string{"add a/u1/1 initial=true", "add b/u1/1 initial=true", "delete tombstone b/u1/1"},
	}, {
		name: "a watched update with a new UID deletes the cached object then adds",
		queue: func(t *testing.T, f *queue.FIFO) {
			must(t, f.Replace([]any{obj("a", "u1", "1")}, "1"))
			must(t, f.Update(obj("a", "u2", "2")))
		},
		want: []string{"add a/u1/1 initial=true", "delete a/u1/1", "add a/u2/2 initial=false"},
	}, {
		name: "a watched update of the same object is an update from the cached state",
		queue: func(t *testing.T, f *queue.FIFO) {
			must(t, f.Replace([]any{obj("a", "u1", "1")}, "1"))
			must(t, f.Update(obj("a", "u1", "2")))
		},
		want: []string{"add a/u1/1 initial=true", "update a/u1/1 -> a/u1/2"},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := start(t)
			tt.queue(t, p.fifo)
			if got := p.rec.waitFor(t, tt.want); !slices.Equal(got, tt.want) {
				t.Errorf("notifications:\n got %q\nwant %q", got, tt.want)
			}
		})
	}
}

func TestControllerTellsItsObserverAndMetricsOfEveryChange(t *testing.T) {
	p := start(t)
	must(t, p.fifo.Replace([]any{obj("a", "u1", "1"), obj("b", "u1", "1")}, "1"))
	p.rec.waitFor(t, []string{"add b/u1/1 initial=true"})
	must(t, p.fifo.Delete(obj("a", "u1", "1")))
	p.rec.waitFor(t, []string{"delete a/u1/1"})
	// EventsProcessed is called once a batch was handed to the listeners.
	cachetest.Eventually(t, "3 deltas processed", func() bool {
		p.obs.mu.Lock()
		defer p.obs.mu.Unlock()
		return p.obs.processed >= 3
	})
	p.obs.mu.Lock()
	defer p.obs.mu.Unlock()
	want := []string{"stored default/a copy=a/u1/1", "stored default/b copy=b/u1/1", "removed default/a"}
	if !slices.Equal(p.obs.got, want) {
		t.Errorf("observer:\n got %q\nwant %q", p.obs.got, want)
	}
	if p.obs.processed != 3 {
		t.Errorf("EventsProcessed summed to %d, want 3 deltas", p.obs.processed)
	}
}

func TestJoinHandsTheCacheToTheNewListenerAsInitialAdds(t *testing.T) {
	p := start(t)
	must(t, p.fifo.Replace([]any{obj("a", "u1", "1"), obj("b", "u1", "1")}, "1"))
	p.rec.waitFor(t, []string{"add b/u1/1 initial=true"})
	joined := &recorder{}
	if err := p.ctrl.Join(newListener(joined), 0); err != nil {
		t.Fatal(err)
	}
	must(t, p.fifo.Update(obj("a", "u1", "2")))
	want := []string{"add a/u1/1 initial=true", "add b/u1/1 initial=true", "update a/u1/1 -> a/u1/2"}
	got := joined.waitFor(t, want)
	if len(got) < 2 {
		t.Fatalf("joined listener got %q, want %q", got, want)
	}
	slices.Sort(got[:2]) // the cache's content comes in no particular order
	if !slices.Equal(got, want) {
		t.Errorf("joined listener:\n got %q\nwant %q", got, want)
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
