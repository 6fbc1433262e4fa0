package factory

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"go.uber.org/goleak"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/informer-gen/informer-gen/runtime/cache"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// fakeInformer records how the factory uses it. Methods the factory never
// calls are left to the nil embedded interface and would panic.
type fakeInformer struct {
	cache.SharedIndexInformer
	config    InformerConfig
	indexer   cache.Indexer
	runs      atomic.Int32
	synced    atomic.Bool
	syncOnce  sync.Once
	syncedCh  chan struct{} // closed by markSynced
	stopped   atomic.Bool
	transform atomic.Pointer[cache.TransformFunc]

	mu       sync.Mutex
	handlers []cache.ResourceEventHandler
}

func newFakeInformer(c InformerConfig) *fakeInformer {
	return &fakeInformer{config: c, syncedCh: make(chan struct{}), indexer: cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc})}
}

func (f *fakeInformer) RunWithContext(ctx context.Context) {
	f.runs.Add(1)
	f.markSynced()
	<-ctx.Done()
	f.stopped.Store(true)
}

// markSynced makes the informer synced: HasSynced true, its
// HasSyncedChecker done.
func (f *fakeInformer) markSynced() {
	f.syncOnce.Do(func() {
		f.synced.Store(true)
		close(f.syncedCh)
	})
}

func (f *fakeInformer) HasSyncedChecker() cache.DoneChecker { return chanDone(f.syncedCh) }
func (f *fakeInformer) HasSynced() bool                     { return f.synced.Load() }
func (f *fakeInformer) IsStopped() bool                     { return f.stopped.Load() }
func (f *fakeInformer) GetIndexer() cache.Indexer           { return f.indexer }
func (f *fakeInformer) GetStore() cache.Store               { return f.indexer }
func (f *fakeInformer) LastSyncResourceVersion() string     { return "rv-" + f.config.Namespace }
func (f *fakeInformer) SetTransform(t cache.TransformFunc) error {
	f.transform.Store(&t)
	return nil
}
func (f *fakeInformer) AddIndexers(i cache.Indexers) error { return f.indexer.AddIndexers(i) }

// fakeRegistration is synced when its informer is.
type fakeRegistration struct{ inf *fakeInformer }

func (r fakeRegistration) HasSynced() bool                     { return r.inf.HasSynced() }
func (r fakeRegistration) HasSyncedChecker() cache.DoneChecker { return r.inf.HasSyncedChecker() }

func (f *fakeInformer) AddEventHandlerWithOptions(h cache.ResourceEventHandler, _ cache.HandlerOptions) (cache.ResourceEventHandlerRegistration, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.handlers = append(f.handlers, h)
	return fakeRegistration{inf: f}, nil
}

func (f *fakeInformer) RemoveEventHandler(cache.ResourceEventHandlerRegistration) error { return nil }

// recorder builds fake informers and remembers them.
type recorder struct {
	mu   sync.Mutex
	made []*fakeInformer
}

func (r *recorder) newInformer(c InformerConfig) cache.SharedIndexInformer {
	r.mu.Lock()
	defer r.mu.Unlock()
	f := newFakeInformer(c)
	r.made = append(r.made, f)
	return f
}

func obj(ns, name string) *metav1.PartialObjectMetadata {
	return &metav1.PartialObjectMetadata{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}}
}

type otherType struct{ metav1.PartialObjectMetadata }

func (o *otherType) DeepCopyObject() runtime.Object { c := *o; return &c }

func TestInformerForMakesOneInformerPerType(t *testing.T) {
	var rec recorder
	s := New()
	a := s.InformerFor(&metav1.PartialObjectMetadata{}, rec.newInformer)
	b := s.InformerFor(&metav1.PartialObjectMetadata{}, rec.newInformer)
	c := s.InformerFor(&otherType{}, rec.newInformer)
	if a != b {
		t.Fatal("second request for the same type returned another informer")
	}
	if a == c {
		t.Fatal("another type got the same informer")
	}
	if len(rec.made) != 2 {
		t.Fatalf("made %d informers, want 2", len(rec.made))
	}
}

func TestInformerConfigFromOptions(t *testing.T) {
	tweaked := false
	tweak := func(*metav1.ListOptions) { tweaked = true }
	tests := []struct {
		name       string
		opts       []Option
		obj        runtime.Object
		wantNS     string
		wantResync time.Duration
	}{
		{"defaults", nil, &metav1.PartialObjectMetadata{}, "", 0},
		{"namespace and default resync", []Option{WithNamespace("a"), WithResyncPeriod(time.Minute)}, &metav1.PartialObjectMetadata{}, "a", time.Minute},
		{"per-type resync wins", []Option{WithResyncPeriod(time.Minute), WithCustomResyncConfig(map[metav1.Object]time.Duration{&otherType{}: time.Hour})}, &otherType{}, "", time.Hour},
		{"per-type resync for another type", []Option{WithResyncPeriod(time.Minute), WithCustomResyncConfig(map[metav1.Object]time.Duration{&otherType{}: time.Hour})}, &metav1.PartialObjectMetadata{}, "", time.Minute},
		{"namespaces collapse to one", []Option{WithNamespaces("a", "a")}, &metav1.PartialObjectMetadata{}, "a", 0},
		{"namespaces with all means all", []Option{WithNamespaces("a", metav1.NamespaceAll)}, &metav1.PartialObjectMetadata{}, "", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var rec recorder
			s := New(append(tt.opts, WithTweakListOptions(tweak))...)
			s.InformerFor(tt.obj, rec.newInformer)
			got := rec.made[0].config
			if got.Namespace != tt.wantNS || got.ResyncPeriod != tt.wantResync {
				t.Fatalf("config = %+v, want namespace %q resync %v", got, tt.wantNS, tt.wantResync)
			}
			tweaked = false
			got.TweakListOptions(&metav1.ListOptions{})
			if !tweaked {
				t.Fatal("tweak function not passed to the informer")
			}
		})
	}
}

func TestTransformInstalledOnEveryInformer(t *testing.T) {
	var rec recorder
	s := New(WithNamespaces("a", "b"), WithTransform(func(o any) (any, error) { return o, nil }))
	s.InformerFor(&metav1.PartialObjectMetadata{}, rec.newInformer)
	for _, f := range rec.made {
		if f.transform.Load() == nil {
			t.Fatalf("informer for %q has no transform", f.config.Namespace)
		}
	}
}

func TestStartRunsInformersAddedLaterAndShutdownWaits(t *testing.T) {
	var rec recorder
	s := New()
	first := s.InformerFor(&metav1.PartialObjectMetadata{}, rec.newInformer).(*fakeInformer)
	ctx := t.Context()
	s.Start(ctx)
	s.Start(ctx) // a second Start must not run the informer twice
	second := s.InformerFor(&otherType{}, rec.newInformer).(*fakeInformer)
	s.Start(ctx)

	synced := s.WaitForCacheSync(ctx)
	want := map[reflect.Type]bool{reflect.TypeOf(&metav1.PartialObjectMetadata{}): true, reflect.TypeOf(&otherType{}): true}
	if !reflect.DeepEqual(synced.Synced, want) || synced.AsError() != nil {
		t.Fatalf("WaitForCacheSync = %+v, want %v", synced, want)
	}
	s.Shutdown()
	if first.runs.Load() != 1 || second.runs.Load() != 1 {
		t.Fatalf("runs = %d, %d; want 1, 1", first.runs.Load(), second.runs.Load())
	}
	if !first.stopped.Load() || !second.stopped.Load() {
		t.Fatal("Shutdown returned before the informers stopped")
	}
	third := s.InformerFor(&metav1.Status{}, rec.newInformer).(*fakeInformer)
	s.Start(ctx)
	s.Shutdown()
	if third.runs.Load() != 0 {
		t.Fatal("Start after Shutdown ran an informer")
	}
}

func TestStartContextStopsInformers(t *testing.T) {
	var rec recorder
	s := New()
	inf := s.InformerFor(&metav1.PartialObjectMetadata{}, rec.newInformer).(*fakeInformer)
	ctx, cancel := context.WithCancel(context.Background())
	s.Start(ctx)
	s.WaitForCacheSync(ctx)
	cancel()
	s.Shutdown()
	if !inf.stopped.Load() {
		t.Fatal("informer still running after its Start context was cancelled")
	}
}

func TestWaitForCacheSyncIgnoresInformersNotStarted(t *testing.T) {
	var rec recorder
	s := New()
	s.InformerFor(&metav1.PartialObjectMetadata{}, rec.newInformer)
	if got := s.WaitForCacheSync(t.Context()).Synced; len(got) != 0 {
		t.Fatalf("WaitForCacheSync = %v, want empty before Start", got)
	}
}

func TestClusterInformerForIgnoresNamespaces(t *testing.T) {
	var rec recorder
	s := New(WithNamespaces("a", "b"))
	s.ClusterInformerFor(&metav1.PartialObjectMetadata{}, rec.newInformer)
	if len(rec.made) != 1 || rec.made[0].config.Namespace != metav1.NamespaceAll {
		t.Fatalf("made %d informers (first namespace %q), want one for all namespaces", len(rec.made), rec.made[0].config.Namespace)
	}
}

// neverSynced is an informer whose first list never completes.
type neverSynced struct{ *fakeInformer }

func (neverSynced) HasSynced() bool                     { return false }
func (neverSynced) HasSyncedChecker() cache.DoneChecker { return make(chanDone) }

func TestWaitForCacheSyncReportsWhatDidNotSync(t *testing.T) {
	s := New()
	s.InformerFor(&metav1.PartialObjectMetadata{}, func(c InformerConfig) cache.SharedIndexInformer {
		return neverSynced{newFakeInformer(c)}
	})
	ctx, cancel := context.WithCancelCause(context.Background())
	s.Start(ctx)
	cause := errors.New("gave up")
	cancel(cause)
	res := s.WaitForCacheSync(ctx)
	s.Shutdown()
	if res.Synced[reflect.TypeOf(&metav1.PartialObjectMetadata{})] {
		t.Fatal("reported synced")
	}
	err := res.AsError()
	if !errors.Is(err, cause) || !strings.Contains(err.Error(), "v1.PartialObjectMetadata") {
		t.Fatalf("AsError() = %v, want it to wrap the cause and name the type", err)
	}
}

func TestExactlyOneInformerPerTypeIsPrimary(t *testing.T) {
	tests := []struct {
		name    string
		opts    []Option
		cluster bool
		want    map[string]bool // namespace -> Primary
	}{
		{"all namespaces", nil, false, map[string]bool{"": true}},
		{"one namespace", []Option{WithNamespace("a")}, false, map[string]bool{"a": true}},
		{"several namespaces: the first", []Option{WithNamespaces("a", "b", "c")}, false, map[string]bool{"a": true, "b": false, "c": false}},
		{"cluster-scoped with several namespaces", []Option{WithNamespaces("a", "b")}, true, map[string]bool{"": true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var rec recorder
			s := New(tt.opts...)
			if tt.cluster {
				s.ClusterInformerFor(&metav1.PartialObjectMetadata{}, rec.newInformer)
			} else {
				s.InformerFor(&metav1.PartialObjectMetadata{}, rec.newInformer)
			}
			got := map[string]bool{}
			for _, m := range rec.made {
				got[m.config.Namespace] = m.config.Primary
			}
			if len(got) != len(tt.want) {
				t.Fatalf("made informers for %v, want %v", got, tt.want)
			}
			for ns, primary := range tt.want {
				if got[ns] != primary {
					t.Errorf("namespace %q: Primary = %v, want %v", ns, got[ns], primary)
				}
			}
		})
	}
}

// Watch lists are on for every informer the factory makes, in every
// namespace; WithoutWatchList turns them off for every type,
// ByObject.DisableWatchList for one, and the last of WithWatchList and
// WithoutWatchList wins.
func TestWatchListIsTheDefaultUnlessTurnedOff(t *testing.T) {
	other := &metav1.Status{}
	tests := []struct {
		name            string
		opts            []Option
		want, wantOther bool
	}{
		{"default streams", nil, true, true},
		{"default streams, several namespaces", []Option{WithNamespaces("a", "b")}, true, true},
		{"WithWatchList streams", []Option{WithWatchList()}, true, true},
		{"WithoutWatchList lists", []Option{WithoutWatchList(), WithNamespaces("a", "b")}, false, false},
		{"WithWatchList after WithoutWatchList streams", []Option{WithoutWatchList(), WithWatchList()}, true, true},
		{"WithoutWatchList after WithWatchList lists", []Option{WithWatchList(), WithoutWatchList()}, false, false},
		{"ByObject.DisableWatchList lists that type only", []Option{WithByObject(&metav1.PartialObjectMetadata{}, ByObject{DisableWatchList: true, Namespaces: []string{"a", "b"}})}, false, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := New(tt.opts...)
			check := func(obj runtime.Object, want bool) {
				t.Helper()
				var configs []InformerConfig
				s.InformerFor(obj, func(c InformerConfig) cache.SharedIndexInformer {
					configs = append(configs, c)
					return newFakeInformer(c)
				})
				if len(configs) == 0 {
					t.Fatalf("%T: no informer made", obj)
				}
				for _, c := range configs {
					if c.UseWatchList != want {
						t.Errorf("%T, namespace %q: UseWatchList %t, want %t", obj, c.Namespace, c.UseWatchList, want)
					}
				}
			}
			check(&metav1.PartialObjectMetadata{}, tt.want)
			check(other, tt.wantOther)
		})
	}
}
