package factory

import (
	"errors"
	"reflect"
	"sort"
	"sync"
	"sync/atomic"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/informer-gen/informer-gen/runtime/cache"
)

// newMulti returns a multi-namespace informer over fake informers for
// namespaces a and b, holding the given objects.
func newMulti(t *testing.T, objs ...*metav1.PartialObjectMetadata) (*multiNamespaceInformer, *recorder) {
	t.Helper()
	var rec recorder
	s := New(WithNamespaces("a", "b"))
	m := s.InformerFor(&metav1.PartialObjectMetadata{}, rec.newInformer).(*multiNamespaceInformer)
	for _, o := range objs {
		for _, f := range rec.made {
			if f.config.Namespace == o.Namespace {
				if err := f.indexer.Add(o); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	return m, &rec
}

func keysOf(objs []any) []string {
	var keys []string
	for _, o := range objs {
		k, _ := cache.MetaNamespaceKeyFunc(o)
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func TestMultiNamespaceUnionReads(t *testing.T) {
	m, rec := newMulti(t, obj("a", "x"), obj("a", "y"), obj("b", "x"))
	if len(rec.made) != 2 {
		t.Fatalf("made %d informers, want one per namespace", len(rec.made))
	}
	idx := m.GetIndexer()
	if got := keysOf(idx.List()); !reflect.DeepEqual(got, []string{"a/x", "a/y", "b/x"}) {
		t.Fatalf("List keys = %v", got)
	}
	keys := idx.ListKeys()
	sort.Strings(keys)
	if !reflect.DeepEqual(keys, []string{"a/x", "a/y", "b/x"}) {
		t.Fatalf("ListKeys = %v", keys)
	}
	if _, ok, _ := idx.GetByKey("b/x"); !ok {
		t.Fatal("GetByKey(b/x) missed an object of the second namespace")
	}
	if _, ok, _ := idx.GetByKey("c/x"); ok {
		t.Fatal("GetByKey found an object in a namespace not watched")
	}
	if _, ok, _ := idx.Get(obj("a", "y")); !ok {
		t.Fatal("Get(a/y) missed")
	}
	byNS, err := idx.ByIndex(cache.NamespaceIndex, "a")
	if err != nil || !reflect.DeepEqual(keysOf(byNS), []string{"a/x", "a/y"}) {
		t.Fatalf("ByIndex(namespace, a) = %v, %v", keysOf(byNS), err)
	}
	if got := idx.ListIndexFuncValues(cache.NamespaceIndex); !reflect.DeepEqual(got, []string{"a", "b"}) {
		t.Fatalf("ListIndexFuncValues = %v", got)
	}
	if err := idx.Add(obj("a", "z")); err == nil {
		t.Fatal("union cache accepted a write")
	}
	if got := m.LastSyncResourceVersion(); got != "rv-a,rv-b" {
		t.Fatalf("LastSyncResourceVersion = %q", got)
	}
}

func TestMultiNamespaceAddIndexersReachesEveryNamespace(t *testing.T) {
	m, _ := newMulti(t, obj("a", "x"), obj("b", "x"))
	byName := func(o any) ([]string, error) { return []string{o.(*metav1.PartialObjectMetadata).Name}, nil }
	if err := m.AddIndexers(cache.Indexers{"name": byName}); err != nil {
		t.Fatal(err)
	}
	got, err := m.GetIndexer().ByIndex("name", "x")
	if err != nil || !reflect.DeepEqual(keysOf(got), []string{"a/x", "b/x"}) {
		t.Fatalf("ByIndex(name, x) = %v, %v", keysOf(got), err)
	}
}

// overlapDetector fails the test if two of its methods run at once.
type overlapDetector struct {
	t       *testing.T
	inside  atomic.Int32
	calls   atomic.Int32
	resyncs atomic.Int32
}

func (d *overlapDetector) enter() {
	if d.inside.Add(1) != 1 {
		d.t.Error("handler called concurrently")
	}
	d.calls.Add(1)
	for i := 0; i < 100; i++ {
		_ = i * i
	}
	d.inside.Add(-1)
}
func (d *overlapDetector) OnAdd(any, bool)   { d.enter() }
func (d *overlapDetector) OnUpdate(_, _ any) { d.enter() }
func (d *overlapDetector) OnDelete(any)      { d.enter() }
func (d *overlapDetector) OnResync(any)      { d.resyncs.Add(1); d.enter() }

func TestMultiNamespaceHandlerNeverCalledConcurrently(t *testing.T) {
	m, rec := newMulti(t)
	d := &overlapDetector{t: t}
	reg, err := m.AddEventHandler(d)
	if err != nil {
		t.Fatal(err)
	}
	if reg.HasSynced() {
		t.Fatal("registration synced before any namespace informer synced")
	}
	var wg sync.WaitGroup
	for _, f := range rec.made {
		h := f.handlers[0]
		wg.Go(func() {
			for i := 0; i < 2000; i++ {
				h.OnAdd(obj(f.config.Namespace, "x"), false)
				h.OnUpdate(nil, nil)
				h.(cache.ResyncHandler).OnResync(nil)
				h.OnDelete(nil)
			}
		})
	}
	wg.Wait()
	if got := d.calls.Load(); got != 2*2000*4 {
		t.Fatalf("handler saw %d calls, want %d", got, 2*2000*4)
	}
	if d.resyncs.Load() != 2*2000 {
		t.Fatal("resync not forwarded as OnResync")
	}
	if err := m.RemoveEventHandler(reg); err != nil {
		t.Fatal(err)
	}
	if err := m.RemoveEventHandler(fakeRegistration{}); err == nil {
		t.Fatal("removing a foreign registration succeeded")
	}
}

func TestMultiNamespaceRemoveEventHandlerRefusesForeignRegistrations(t *testing.T) {
	m, _ := newMulti(t)
	var rec recorder
	other := New(WithNamespaces("a", "b", "c")).InformerFor(&metav1.PartialObjectMetadata{}, rec.newInformer)
	twin, _ := newMulti(t)
	tests := []struct {
		name string
		from cache.SharedIndexInformer
	}{
		{"more namespaces", other},
		{"same namespaces", twin},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			reg, err := tc.from.AddEventHandler(cache.ResourceEventHandlerFuncs{})
			if err != nil {
				t.Fatal(err)
			}
			if err := m.RemoveEventHandler(reg); err == nil {
				t.Fatal("removing another informer's registration succeeded")
			}
		})
	}
}

func TestMultiNamespaceGetAcceptsTombstonesAndExplicitKeys(t *testing.T) {
	m, _ := newMulti(t, obj("a", "x"), obj("b", "y"))
	idx := m.GetIndexer()
	for _, probe := range []any{
		cache.DeletedFinalStateUnknown{Key: "b/y", Obj: obj("b", "y")},
		cache.DeletedFinalStateUnknown{Key: "b/y"},
		cache.ExplicitKey("b/y"),
		obj("b", "y"),
	} {
		got, ok, err := idx.Get(probe)
		if err != nil || !ok || got.(*metav1.PartialObjectMetadata).Name != "y" {
			t.Errorf("Get(%#v) = %v, %v, %v; want b/y", probe, got, ok, err)
		}
	}
}

func TestMultiNamespaceAddIndexersIsAllOrNothing(t *testing.T) {
	byName := func(o any) ([]string, error) { return []string{o.(*metav1.PartialObjectMetadata).Name}, nil }
	failing := func(o any) ([]string, error) {
		if o.(*metav1.PartialObjectMetadata).Namespace == "b" {
			return nil, errors.New("cannot index")
		}
		return nil, nil
	}
	tests := []struct {
		name    string
		prepare func(rec *recorder) // makes namespace b refuse
		add     cache.Indexers
	}{
		{
			name: "index exists in one namespace",
			prepare: func(rec *recorder) {
				if err := rec.made[1].indexer.AddIndexers(cache.Indexers{"name": byName}); err != nil {
					t.Fatal(err)
				}
			},
			add: cache.Indexers{"name": byName},
		},
		{
			name:    "index function fails on an object of one namespace",
			prepare: func(*recorder) {},
			add:     cache.Indexers{"name": byName, "picky": failing},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m, rec := newMulti(t, obj("a", "x"), obj("b", "y"))
			tc.prepare(rec)
			if err := m.AddIndexers(tc.add); err == nil {
				t.Fatal("AddIndexers succeeded")
			}
			for name := range tc.add {
				if _, ok := rec.made[0].indexer.GetIndexers()[name]; ok {
					t.Errorf("namespace a got index %q although namespace b refused", name)
				}
			}
		})
	}
}

// The union cache reads indexes as a single informer's cache does: keys
// sorted across namespaces, empty (never nil) results for a namespace not
// watched, and the cache's error for an index that does not exist.
func TestMultiNamespaceIndexReadsAsASingleCache(t *testing.T) {
	m, _ := newMulti(t, obj("b", "x"), obj("a", "y"), obj("a", "x"))
	idx := m.GetIndexer()
	if err := idx.AddIndexers(cache.Indexers{"by-name": func(o any) ([]string, error) {
		return []string{o.(*metav1.PartialObjectMetadata).Name}, nil
	}}); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name      string
		index     string
		value     string
		wantKeys  []string
		wantError bool
	}{
		{"keys of one value across namespaces, sorted", "by-name", "x", []string{"a/x", "b/x"}, false},
		{"a namespace not watched: empty", cache.NamespaceIndex, "c", []string{}, false},
		{"a value nobody has: empty", "by-name", "nobody", []string{}, false},
		{"an index that does not exist: the cache's error", "missing", "x", nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			keys, err := idx.IndexKeys(tt.index, tt.value)
			objs, byErr := idx.ByIndex(tt.index, tt.value)
			if tt.wantError {
				if err == nil || byErr == nil {
					t.Fatalf("IndexKeys error %v, ByIndex error %v, want errors", err, byErr)
				}
				return
			}
			if err != nil || byErr != nil || !reflect.DeepEqual(keys, tt.wantKeys) || objs == nil || len(objs) != len(tt.wantKeys) {
				t.Fatalf("IndexKeys = %#v, %v; ByIndex = %d objects (nil %t), %v; want %#v", keys, err, len(objs), objs == nil, byErr, tt.wantKeys)
			}
		})
	}
}
