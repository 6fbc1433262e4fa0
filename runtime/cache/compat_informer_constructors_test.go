package cache

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"sync"
	"testing"

	"github.com/informer-gen/informer-gen/runtime/cache/cachetest"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/klog/v2"
)

// eventLog records what a handler is told, as "add ns/a" lines.
type eventLog struct {
	mu     sync.Mutex
	events []string
}

func (l *eventLog) record(format string, args ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.events = append(l.events, fmt.Sprintf(format, args...))
}

func (l *eventLog) snapshot() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.events)
}

func (l *eventLog) handler() ResourceEventHandlerDetailedFuncs {
	name := func(obj any) string {
		if d, ok := obj.(DeletedFinalStateUnknown); ok {
			return d.Key + " (tombstone)"
		}
		o := obj.(*metav1.PartialObjectMetadata)
		return o.Namespace + "/" + o.Name
	}
	return ResourceEventHandlerDetailedFuncs{
		AddFunc:    func(obj any, initial bool) { l.record("add %s initial=%v", name(obj), initial) },
		UpdateFunc: func(_, obj any) { l.record("update %s", name(obj)) },
		DeleteFunc: func(obj any) { l.record("delete %s", name(obj)) },
	}
}

// Each constructor of the NewInformer family fills its cache, tells its
// one handler of the initial list (isInInitialList true) and later
// changes, and has synced only once the handler was handed the initial
// list.
func TestNewInformerFamilyCachesAndNotifiesItsHandler(t *testing.T) {
	for _, tt := range informerFamily() {
		t.Run(tt.name, func(t *testing.T) {
			srv := newModelServer()
			srv.put("a", false)
			srv.put("b", false)
			var log eventLog
			store, ctl := tt.build(srv, log.handler())
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan struct{})
			go func() { defer close(done); ctl.RunWithContext(ctx) }()
			defer func() { cancel(); <-done }()
			if !WaitForCacheSync(ctx.Done(), ctl.HasSynced) {
				t.Fatal("never synced")
			}
			initial := log.snapshot()
			sort.Strings(initial)
			if want := []string{"add ns/a initial=true", "add ns/b initial=true"}; !slices.Equal(initial, want) {
				t.Fatalf("at sync the handler was told %v, want %v", initial, want)
			}
			srv.put("a", false)
			srv.remove("b")
			srv.put("c", false)
			want := []string{"update ns/a", "delete ns/b", "add ns/c initial=false"}
			cachetest.Eventually(t, "the changes", func() bool { return len(log.snapshot()) == 5 })
			if got := log.snapshot()[2:]; !slices.Equal(got, want) {
				t.Errorf("after sync the handler was told %v, want %v", got, want)
			}
			if got := storeState(store.List()); !equalStates(got, srv.state()) {
				t.Errorf("cache %v, server %v", got, srv.state())
			}
			checkTransformAndIndex(t, store, tt.indexed, tt.transform)
			if ctl.LastSyncResourceVersion() == "" || !IsDone(ctl.HasSyncedChecker()) {
				t.Errorf("LastSyncResourceVersion %q, HasSyncedChecker done %v", ctl.LastSyncResourceVersion(), IsDone(ctl.HasSyncedChecker()))
			}
		})
	}
}

// informerConstructor builds a NewInformer-family informer.
type informerConstructor struct {
	name      string
	build     func(lw ListerWatcher, h ResourceEventHandler) (Store, Controller)
	indexed   bool
	transform bool
}

// informerFamily are the constructors of the NewInformer family, with
// an index "label" (of label k) and a transform setting k=v.
func informerFamily() []informerConstructor {
	labelIndexers := Indexers{"label": func(obj any) ([]string, error) {
		return []string{obj.(*metav1.PartialObjectMetadata).Labels["k"]}, nil
	}}
	setLabel := func(obj any) (any, error) {
		o := obj.(*metav1.PartialObjectMetadata).DeepCopy()
		o.Labels = map[string]string{"k": "v"}
		return o, nil
	}
	return []informerConstructor{
		{"NewInformer", func(lw ListerWatcher, h ResourceEventHandler) (Store, Controller) {
			return NewInformer(lw, &metav1.PartialObjectMetadata{}, 0, h)
		}, false, false},
		{"NewIndexerInformer", func(lw ListerWatcher, h ResourceEventHandler) (Store, Controller) {
			return NewIndexerInformer(lw, &metav1.PartialObjectMetadata{}, 0, h, labelIndexers)
		}, true, false},
		{"NewTransformingInformer", func(lw ListerWatcher, h ResourceEventHandler) (Store, Controller) {
			return NewTransformingInformer(lw, &metav1.PartialObjectMetadata{}, 0, h, setLabel)
		}, false, true},
		{"NewTransformingIndexerInformer", func(lw ListerWatcher, h ResourceEventHandler) (Store, Controller) {
			return NewTransformingIndexerInformer(lw, &metav1.PartialObjectMetadata{}, 0, h, labelIndexers, setLabel)
		}, true, true},
		{"NewInformerWithOptions", func(lw ListerWatcher, h ResourceEventHandler) (Store, Controller) {
			logger := klog.Background().WithName("options")
			return NewInformerWithOptions(InformerOptions{
				Logger: &logger, ListerWatcher: lw, ObjectType: &metav1.PartialObjectMetadata{}, Handler: h,
				Indexers: labelIndexers, Transform: setLabel,
			})
		}, true, true},
	}
}

func equalStates(a, b map[string]string) bool { return fmt.Sprint(a) == fmt.Sprint(b) }

func checkTransformAndIndex(t *testing.T, store Store, indexed, transformed bool) {
	t.Helper()
	obj, exists, err := store.GetByKey("ns/a")
	if err != nil || !exists {
		t.Fatalf("GetByKey(ns/a) = %v, %v", exists, err)
	}
	if got := obj.(*metav1.PartialObjectMetadata).Labels["k"] == "v"; got != transformed {
		t.Errorf("cached object transformed = %v, want %v", got, transformed)
	}
	indexer, isIndexer := store.(Indexer)
	if !indexed || !isIndexer {
		return
	}
	value := ""
	if transformed {
		value = "v"
	}
	objs, err := indexer.ByIndex("label", value)
	if err != nil || len(objs) != 2 {
		t.Errorf("ByIndex(label, %q) = %d objects, %v; want 2", value, len(objs), err)
	}
}

// Without a handler the controller has synced when the cache has; Run
// stops when its channel closes.
func TestNewInformerWithoutHandlerSyncsWithItsCache(t *testing.T) {
	srv := newModelServer()
	srv.put("a", false)
	store, ctl := NewInformerWithOptions(InformerOptions{ListerWatcher: srv, ObjectType: &metav1.PartialObjectMetadata{}})
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() { defer close(done); ctl.Run(stop) }()
	if !WaitForCacheSync(stop, ctl.HasSynced) {
		t.Fatal("never synced")
	}
	if keys := store.ListKeys(); !slices.Equal(keys, []string{"ns/a"}) {
		t.Errorf("cache keys %v", keys)
	}
	close(stop)
	<-done
}
