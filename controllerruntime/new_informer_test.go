package controllerruntime

import (
	"context"
	"errors"
	"reflect"
	"sync"
	"sync/atomic"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/kubernetes/fake"
	toolscache "k8s.io/client-go/tools/cache"

	"github.com/informer-gen/informer-gen/runtime/cache/cachetest"
	"github.com/informer-gen/informer-gen/runtime/compact"
)

// bareListWatch is the ListWatch controller-runtime hands NewInformer: a
// client-go *ListWatch with only the context functions set, which says
// nothing about the client's support of streamed lists. It counts the
// lists.
func bareListWatch(list func(context.Context, metav1.ListOptions) (runtime.Object, error), watchFn func(context.Context, metav1.ListOptions) (watch.Interface, error), lists *atomic.Int32) *toolscache.ListWatch {
	return &toolscache.ListWatch{
		ListWithContextFunc: func(ctx context.Context, opts metav1.ListOptions) (runtime.Object, error) {
			lists.Add(1)
			return list(ctx, opts)
		},
		WatchFuncWithContext: watchFn,
	}
}

func configMap(name string, labels map[string]string) *corev1.ConfigMap {
	return &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{
		Namespace: "ns", Name: name, Labels: labels,
		ManagedFields: []metav1.ManagedFieldsEntry{{Manager: "test", Operation: metav1.ManagedFieldsOperationApply}},
	}}
}

// run runs informer until the test ends and returns once it stopped.
func run(t *testing.T, informer toolscache.SharedIndexInformer) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Go(func() { informer.RunWithContext(ctx) })
	t.Cleanup(func() {
		cancel()
		wg.Wait()
		if !informer.IsStopped() {
			t.Error("IsStopped is false after RunWithContext returned")
		}
	})
}

// TestNewInformerInitialListUnderABareListWatch pins the initial list
// under controller-runtime's bare ListWatch: streamed over the watch from
// a server that sends initial events (no LIST), listed from a fake
// clientset that ignores sendInitialEvents; the informer syncs with every
// object either way.
func TestNewInformerInitialListUnderABareListWatch(t *testing.T) {
	objects := []*corev1.ConfigMap{configMap("a", nil), configMap("b", nil)}
	tests := []struct {
		name      string
		lw        func(lists *atomic.Int32) toolscache.ListerWatcher
		wantLists bool
	}{{
		name: "server that streams: no list",
		lw: func(lists *atomic.Int32) toolscache.ListerWatcher {
			srv := cachetest.NewServer(&corev1.ConfigMapList{})
			for _, o := range objects {
				if _, err := srv.Add(o.DeepCopy()); err != nil {
					t.Fatal(err)
				}
			}
			return bareListWatch(srv.ListWithContext, srv.WatchWithContext, lists)
		},
	}, {
		name: "fake clientset: lists after the stream gave nothing",
		lw: func(lists *atomic.Int32) toolscache.ListerWatcher {
			client := fake.NewClientset(objects[0].DeepCopy(), objects[1].DeepCopy())
			cms := client.CoreV1().ConfigMaps("")
			return bareListWatch(func(ctx context.Context, o metav1.ListOptions) (runtime.Object, error) {
				return cms.List(ctx, o)
			}, cms.Watch, lists)
		},
		wantLists: true,
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var lists atomic.Int32
			informer := NewInformer(tt.lw(&lists), &corev1.ConfigMap{}, 0, toolscache.Indexers{})
			run(t, informer)
			cachetest.Eventually(t, "the informer to sync", informer.HasSynced)
			if got := len(informer.GetStore().ListKeys()); got != len(objects) {
				t.Errorf("cache holds %d objects after sync, want %d", got, len(objects))
			}
			if got := lists.Load() > 0; got != tt.wantLists {
				t.Errorf("listed: %v (%d lists), want %v", got, lists.Load(), tt.wantLists)
			}
		})
	}
}

// recorder is a client-go handler recording what it is told.
type recorder struct {
	mu      sync.Mutex // guards deletes and adds
	adds    []string
	deletes []any
}

func (r *recorder) OnAdd(obj any, _ bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.adds = append(r.adds, obj.(*corev1.ConfigMap).Name)
}
func (r *recorder) OnUpdate(_, _ any) {}
func (r *recorder) OnDelete(obj any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.deletes = append(r.deletes, obj)
}
func (r *recorder) snapshot() (adds []string, deletes []any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.adds...), append([]any(nil), r.deletes...)
}

// TestNewInformerTombstoneIsClientGos pins that a deletion learnt from a
// relist reaches a client-go handler as client-go's
// DeletedFinalStateUnknown (controller-runtime unwraps that type), and a
// watched deletion as the object.
func TestNewInformerTombstoneIsClientGos(t *testing.T) {
	srv := cachetest.NewServer(&corev1.ConfigMapList{})
	for _, name := range []string{"relisted", "watched"} {
		if _, err := srv.Add(configMap(name, nil)); err != nil {
			t.Fatal(err)
		}
	}
	informer := NewInformer(srv, &corev1.ConfigMap{}, 0, nil)
	rec := &recorder{}
	reg, err := informer.AddEventHandler(rec)
	if err != nil {
		t.Fatal(err)
	}
	run(t, informer)
	cachetest.Eventually(t, "the handler to sync", reg.HasSynced)

	if _, err := srv.Delete("ns", "watched"); err != nil {
		t.Fatal(err)
	}
	cachetest.Eventually(t, "the watched delete", func() bool { _, d := rec.snapshot(); return len(d) == 1 })
	if err := srv.ExpireWatches(func(tx *cachetest.Tx) error {
		_, err := tx.Delete("ns", "relisted")
		return err
	}); err != nil {
		t.Fatal(err)
	}
	cachetest.Eventually(t, "the relisted delete", func() bool { _, d := rec.snapshot(); return len(d) == 2 })

	_, deletes := rec.snapshot()
	if cm, ok := deletes[0].(*corev1.ConfigMap); !ok || cm.Name != "watched" {
		t.Errorf("watched delete: handler got %#v, want the ConfigMap ns/watched", deletes[0])
	}
	tomb, ok := deletes[1].(toolscache.DeletedFinalStateUnknown)
	if !ok {
		t.Fatalf("relisted delete: handler got %T, want client-go's DeletedFinalStateUnknown", deletes[1])
	}
	if cm, ok := tomb.Obj.(*corev1.ConfigMap); tomb.Key != "ns/relisted" || !ok || cm.Name != "relisted" {
		t.Errorf("relisted delete: tombstone %q %#v, want key ns/relisted with the last ConfigMap", tomb.Key, tomb.Obj)
	}
}

// TestNewInformerMethodsControllerRuntimeCalls pins the methods
// controller-runtime's cache calls, as client-go's informer answers them:
// the transform and the watch error handler set before Run, indexes added
// after Run, the indexer's reads, registrations, removal with
// ShutDownEventHandler, and the transform refused once started.
func TestNewInformerMethodsControllerRuntimeCalls(t *testing.T) {
	srv := cachetest.NewServer(&corev1.ConfigMapList{})
	for _, name := range []string{"a", "b"} {
		if _, err := srv.Add(configMap(name, map[string]string{"app": name})); err != nil {
			t.Fatal(err)
		}
	}
	failure := errors.New("list refused")
	srv.FailLists(1, failure)
	srv.FailWatches(1, failure)
	informer := NewInformer(srv, &corev1.ConfigMap{}, 0, toolscache.Indexers{toolscache.NamespaceIndex: toolscache.MetaNamespaceIndexFunc})

	var watchErrors atomic.Int32
	var reflectorName atomic.Value
	if err := informer.SetWatchErrorHandlerWithContext(func(_ context.Context, r *toolscache.Reflector, err error) {
		reflectorName.Store(r.TypeDescription())
		watchErrors.Add(1)
	}); err != nil {
		t.Fatal(err)
	}
	if err := informer.SetTransform(func(obj any) (any, error) {
		cm := obj.(*corev1.ConfigMap)
		cm.Annotations = map[string]string{"transformed": "yes"}
		return cm, nil
	}); err != nil {
		t.Fatal(err)
	}
	run(t, informer)
	reg, err := informer.AddEventHandlerWithOptions(&recorder{}, toolscache.HandlerOptions{})
	if err != nil {
		t.Fatal(err)
	}
	cachetest.Eventually(t, "the informer and the handler to sync", func() bool {
		return informer.HasSynced() && reg.HasSynced()
	})
	<-informer.HasSyncedChecker().Done()
	<-reg.HasSyncedChecker().Done()
	<-informer.GetController().HasSyncedChecker().Done()
	if watchErrors.Load() == 0 {
		t.Error("the watch error handler was not called for the failed list")
	} else if got := reflectorName.Load(); got != "*v1.ConfigMap" {
		t.Errorf("watch error handler's reflector describes %q, want *v1.ConfigMap", got)
	}
	if err := informer.SetTransform(nil); err == nil {
		t.Error("SetTransform after Run succeeded, want an error as client-go's")
	}

	byApp := func(obj any) ([]string, error) { return []string{obj.(*corev1.ConfigMap).Labels["app"]}, nil }
	if err := informer.AddIndexers(toolscache.Indexers{"app": byApp}); err != nil {
		t.Fatalf("AddIndexers after Run: %v", err)
	}
	indexer := informer.GetIndexer()
	if got := reflect.ValueOf(indexer.GetIndexers()).MapKeys(); len(got) != 2 {
		t.Errorf("GetIndexers has %v, want namespace and app", got)
	}
	obj, exists, err := indexer.GetByKey("ns/a")
	if err != nil || !exists || obj.(*corev1.ConfigMap).Annotations["transformed"] != "yes" {
		t.Errorf("GetByKey(ns/a) = %v, %v, %v; want the transformed ConfigMap", obj, exists, err)
	}
	if keys, err := indexer.IndexKeys("app", "b"); err != nil || !reflect.DeepEqual(keys, []string{"ns/b"}) {
		t.Errorf("IndexKeys(app, b) = %v, %v; want [ns/b]", keys, err)
	}
	if objs, err := indexer.ByIndex(toolscache.NamespaceIndex, "ns"); err != nil || len(objs) != 2 {
		t.Errorf("ByIndex(namespace, ns) = %d objects, %v; want 2", len(objs), err)
	}
	if got := len(indexer.List()); got != 2 {
		t.Errorf("List has %d objects, want 2", got)
	}
	if got, want := informer.LastSyncResourceVersion(), srv.ResourceVersion(); got != want {
		t.Errorf("LastSyncResourceVersion = %q, want the server's %q", got, want)
	}
	if err := toolscache.ShutDownEventHandler(informer, reg); err != nil {
		t.Errorf("ShutDownEventHandler: %v", err)
	}
	foreign, err := toolscache.NewSharedIndexInformer(srv, &corev1.ConfigMap{}, 0, nil).AddEventHandler(&recorder{})
	if err != nil {
		t.Fatal(err)
	}
	if err := informer.RemoveEventHandler(foreign); err == nil {
		t.Error("RemoveEventHandler of another informer's registration succeeded, want an error")
	}
}

// TestNewInformerCompactsAndKeepsManagedFields pins that the informer
// compacts what it caches (equal label maps of different objects become
// one) and keeps managedFields, which only a transform drops.
func TestNewInformerCompactsAndKeepsManagedFields(t *testing.T) {
	srv := cachetest.NewServer(&corev1.ConfigMapList{})
	names := []string{"a", "b", "c", "d"}
	for _, name := range names {
		if _, err := srv.Add(configMap(name, map[string]string{"tier": "web", "team": "x"})); err != nil {
			t.Fatal(err)
		}
	}
	informer := NewInformer(srv, &corev1.ConfigMap{}, 0, nil)
	run(t, informer)
	cachetest.Eventually(t, "the informer to sync", informer.HasSynced)

	maps := map[uintptr]bool{}
	for _, name := range names {
		obj, _, _ := informer.GetStore().GetByKey("ns/" + name)
		cm := obj.(*corev1.ConfigMap)
		if len(cm.ManagedFields) != 1 {
			t.Errorf("ns/%s cached with managedFields %v, want them kept", name, cm.ManagedFields)
		}
		maps[reflect.ValueOf(cm.Labels).Pointer()] = true
	}
	if len(maps) == len(names) {
		t.Errorf("each of the %d cached objects has its own labels map: not compacted", len(names))
	}
}

// TestImportRegistersKubeAPIWalks pins that importing this package
// registers the generated walks of k8s.io/api types (package kubeapi),
// which NewInformer's compaction then uses instead of the reflective walk.
func TestImportRegistersKubeAPIWalks(t *testing.T) {
	for _, obj := range []runtime.Object{&corev1.Pod{}, &corev1.ConfigMap{}, &appsv1.Deployment{}, &corev1.Node{}} {
		if !compact.Registered(obj) {
			t.Errorf("no compaction registered for %T after importing controllerruntime", obj)
		}
	}
}
