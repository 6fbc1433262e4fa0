package cache

import (
	"errors"
	"fmt"
	"reflect"
	"sync"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/runtime/schema"
)

// knownPairs returns a consumer cache (KnownObjects) holding objs.
func knownPairs(t *testing.T, objs ...pair) Store {
	s := NewStore(pairKey)
	for _, o := range objs {
		mustSucceed(t, s.Add(o))
	}
	return s
}

// popAll pops every queued Delta of f with Pop.
func popRealFIFO(t *testing.T, f *RealFIFO) Deltas {
	t.Helper()
	var out Deltas
	for {
		f.lock.Lock()
		n := len(f.items)
		f.lock.Unlock()
		if n == 0 {
			return out
		}
		item, _ := popQueue(t, f)
		out = append(out, item.(Deltas)...)
	}
}

// Upstream's TestRealFIFOW_ReplaceMakesDeletionsForObjectsOnlyInQueue,
// TestRealFIFO_replaceWithDeleteDeltaIn and TestRealFIFO_ReplaceMakesDeletions:
// a non-atomic Replace queues a tombstone for each key queued (not last as
// a delete) or known but missing from the list, then the list as Replaced.
func TestRealFIFOReplaceQueuesDeletionsThenTheList(t *testing.T) {
	obj, objV2 := pair{"foo", "2"}, pair{"foo", "3"}
	tests := []struct {
		name  string
		known []pair
		ops   func(f *RealFIFO)
		want  Deltas
	}{
		{"added object is deleted", nil, func(f *RealFIFO) { _ = f.Add(obj); _ = f.Replace(nil, "0") },
			Deltas{{Type: Added, Object: obj}, {Type: Deleted, Object: DeletedFinalStateUnknown{Key: "foo", Obj: obj}}}},
		{"deleted object has one delete", nil, func(f *RealFIFO) { _ = f.Add(obj); _ = f.Delete(obj); _ = f.Replace(nil, "0") },
			Deltas{{Type: Added, Object: obj}, {Type: Deleted, Object: obj}}},
		{"replaced object has one delete", nil, func(f *RealFIFO) {
			_ = f.Add(obj)
			_ = f.Replace([]any{obj}, "0")
			_ = f.Replace([]any{obj}, "0")
			_ = f.Replace(nil, "0")
		}, Deltas{{Type: Added, Object: obj}, {Type: Replaced, Object: obj}, {Type: Replaced, Object: obj}, {Type: Deleted, Object: DeletedFinalStateUnknown{Key: "foo", Obj: obj}}}},
		{"several replaces delete once", nil, func(f *RealFIFO) { _ = f.Add(obj); _ = f.Replace(nil, "0"); _ = f.Replace(nil, "1") },
			Deltas{{Type: Added, Object: obj}, {Type: Deleted, Object: DeletedFinalStateUnknown{Key: "foo", Obj: obj}}}},
		{"re-added object is deleted with its last state", nil, func(f *RealFIFO) {
			_ = f.Add(obj)
			_ = f.Delete(obj)
			_ = f.Add(objV2)
			_ = f.Replace(nil, "0")
		}, Deltas{{Type: Added, Object: obj}, {Type: Deleted, Object: obj}, {Type: Added, Object: objV2}, {Type: Deleted, Object: DeletedFinalStateUnknown{Key: "foo", Obj: objV2}}}},
		{"delete queued before a replace of a new object", []pair{obj}, func(f *RealFIFO) { _ = f.Delete(obj); _ = f.Replace([]any{objV2}, "") },
			Deltas{{Type: Deleted, Object: obj}, {Type: Replaced, Object: objV2}}},
		{"known objects missing from the list", []pair{{"a", "1"}, {"b", "1"}}, func(f *RealFIFO) { _ = f.Replace([]any{pair{"b", "2"}}, "5") },
			Deltas{{Type: Deleted, Object: DeletedFinalStateUnknown{Key: "a", Obj: pair{"a", "1"}}}, {Type: Replaced, Object: pair{"b", "2"}}}},
		{"bookmarks are ignored without atomic events", nil, func(f *RealFIFO) { _ = f.Bookmark("123"); _ = f.Replace(nil, "0") }, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := NewRealFIFO(pairKey, knownPairs(t, tt.known...), nil)
			tt.ops(f)
			if got := popRealFIFO(t, f); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("popped %v, want %v", got, tt.want)
			}
		})
	}
}

// Upstream's TestRealFIFO_ReplaceAtomic and TestRealFIFO_ResyncAtomic: with
// atomic events, Replace, Resync and Bookmark each queue one Delta, in
// order.
func TestRealFIFOAtomicEventsQueueOneDeltaPerCall(t *testing.T) {
	obj := pair{"foo", "2"}
	tests := []struct {
		name string
		ops  func(f *RealFIFO)
		want Deltas
	}{
		{"replace", func(f *RealFIFO) { _ = f.Replace([]any{}, "123") },
			Deltas{{Type: ReplacedAll, Object: ReplacedAllInfo{ResourceVersion: "123", Objects: []any{}}}}},
		{"add, then replaces in order", func(f *RealFIFO) {
			_ = f.Add(obj)
			_ = f.Replace([]any{obj}, "10")
			_ = f.Replace([]any{}, "56")
		}, Deltas{{Type: Added, Object: obj}, {Type: ReplacedAll, Object: ReplacedAllInfo{"10", []any{obj}}}, {Type: ReplacedAll, Object: ReplacedAllInfo{"56", []any{}}}}},
		{"bookmark, then replace", func(f *RealFIFO) { _ = f.Bookmark("123"); _ = f.Replace([]any{}, "1234") },
			Deltas{{Type: Bookmark, Object: BookmarkInfo{"123"}}, {Type: ReplacedAll, Object: ReplacedAllInfo{"1234", []any{}}}}},
		{"add, then resync", func(f *RealFIFO) { _ = f.Add(obj); _ = f.Resync() },
			Deltas{{Type: Added, Object: obj}, {Type: SyncAll, Object: SyncAllInfo{}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := NewRealFIFOWithOptions(RealFIFOOptions{KeyFunction: pairKey, AtomicEvents: true, EmitDeltaTypeBookmark: true})
			tt.ops(f)
			if got := popRealFIFO(t, f); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("popped %v, want %v", got, tt.want)
			}
		})
	}
}

// Upstream's TestRealFIFO_PopMultipleDeltaInBatch and
// TestRealFIFO_PopBrokenItemsInBatch: a batch holds distinct keys, stops
// at the end of the initial list, at the batch size, before an unbatchable
// Delta and after one without a key.
func TestRealFIFOPopBatchSplitsBatches(t *testing.T) {
	o1, o2, o3, o4 := pair{"foo1", "5"}, pair{"foo2", "5"}, pair{"foo3", "5"}, pair{"foo4", "5"}
	tests := []struct {
		name      string
		initial   []any
		ops       func(f *RealFIFO)
		batchSize int
		want      [][]Delta
	}{
		{"unique items", []any{o1, o2, o3}, nil, 1 << 20, [][]Delta{{{Type: Replaced, Object: o1}, {Type: Replaced, Object: o2}, {Type: Replaced, Object: o3}}}},
		{"initial list ends a batch", []any{o1, o2}, func(f *RealFIFO) { _ = f.Update(o3); _ = f.Update(o4) }, 2,
			[][]Delta{{{Type: Replaced, Object: o1}, {Type: Replaced, Object: o2}}, {{Type: Updated, Object: o3}, {Type: Updated, Object: o4}}}},
		{"repeated key ends a batch", []any{o1}, func(f *RealFIFO) { _ = f.Update(o1); _ = f.Update(o1) }, 1 << 20,
			[][]Delta{{{Type: Replaced, Object: o1}}, {{Type: Updated, Object: o1}}, {{Type: Updated, Object: o1}}}},
		{"repeated key in the middle", []any{o1, o2, o3}, func(f *RealFIFO) { _ = f.Update(o2) }, 1 << 20,
			[][]Delta{{{Type: Replaced, Object: o1}, {Type: Replaced, Object: o2}, {Type: Replaced, Object: o3}}, {{Type: Updated, Object: o2}}}},
		{"batch size", []any{o1, o2, o3}, nil, 2, [][]Delta{{{Type: Replaced, Object: o1}, {Type: Replaced, Object: o2}}, {{Type: Replaced, Object: o3}}}},
		{"a delta without a key closes the batch", nil, func(f *RealFIFO) {
			_ = f.Add(o1)
			f.lock.Lock()
			f.items = append(f.items, Delta{Type: Added, Object: 42}) // as if its key function had changed
			f.lock.Unlock()
			_ = f.Add(o2)
		}, 1 << 20, [][]Delta{{{Type: Added, Object: o1}, {Type: Added, Object: 42}}, {{Type: Added, Object: o2}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := NewRealFIFO(pairKey, knownPairs(t), nil)
			f.batchSize = tt.batchSize
			if tt.initial != nil {
				mustSucceed(t, f.Replace(tt.initial, "1"))
			}
			if tt.ops != nil {
				tt.ops(f)
			}
			var got [][]Delta
			for range tt.want {
				err := f.PopBatch(
					func(deltas []Delta, _ bool) error { got = append(got, deltas); return nil },
					func(obj any, _ bool) error { got = append(got, []Delta(obj.(Deltas))); return nil })
				mustSucceed(t, err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("batches %v, want %v", got, tt.want)
			}
		})
	}
}

// Upstream's TestRealFIFO_HasSynced and TestRealFIFO_HasSyncedCorrectOnDeletion.
func TestRealFIFOHasSyncedOnceTheInitialListIsProcessed(t *testing.T) {
	pop := func(f *RealFIFO) { _, _ = f.Pop(func(any, bool) error { return nil }) }
	two := []any{pair{"a", "1"}, pair{"b", "2"}}
	tests := []struct {
		name   string
		known  []pair
		ops    []func(f *RealFIFO)
		synced bool
	}{
		{"nothing", nil, nil, false},
		{"add first", nil, []func(*RealFIFO){func(f *RealFIFO) { _ = f.Add(pair{"a", "1"}) }}, true},
		{"empty replace", nil, []func(*RealFIFO){func(f *RealFIFO) { _ = f.Replace(nil, "0") }}, true},
		{"replace", nil, []func(*RealFIFO){func(f *RealFIFO) { _ = f.Replace(two, "0") }}, false},
		{"replace, one pop", nil, []func(*RealFIFO){func(f *RealFIFO) { _ = f.Replace(two, "0") }, pop}, false},
		{"replace, two pops", nil, []func(*RealFIFO){func(f *RealFIFO) { _ = f.Replace(two, "0") }, pop, pop}, true},
		{"replace with a deletion counts it", []pair{{"c", "1"}}, []func(*RealFIFO){func(f *RealFIFO) { _ = f.Replace(two, "0") }, pop, pop}, false},
		{"replace with a deletion, all popped", []pair{{"c", "1"}}, []func(*RealFIFO){func(f *RealFIFO) { _ = f.Replace(two, "0") }, pop, pop, pop}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := NewRealFIFO(pairKey, knownPairs(t, tt.known...), nil)
			for _, op := range tt.ops {
				op(f)
			}
			if f.HasSynced() != tt.synced || IsDone(f.HasSyncedChecker()) != tt.synced {
				t.Errorf("HasSynced = %v, want %v", f.HasSynced(), tt.synced)
			}
		})
	}
}

func TestRealFIFOResyncQueuesSyncOfKnownObjectsNotQueued(t *testing.T) {
	f := NewRealFIFO(pairKey, knownPairs(t, pair{"a", "1"}, pair{"b", "1"}), nil)
	mustSucceed(t, f.Update(pair{"a", "2"}))
	mustSucceed(t, f.Resync())
	want := Deltas{{Type: Updated, Object: pair{"a", "2"}}, {Type: Sync, Object: pair{"b", "1"}}}
	if got := popRealFIFO(t, f); !reflect.DeepEqual(got, want) {
		t.Errorf("popped %v, want %v", got, want)
	}
}

// Upstream's TestRealFIFO_transformer: every object is transformed once,
// tombstones and resyncs (already transformed) are not.
func TestRealFIFOTransformsEachObjectOnce(t *testing.T) {
	transform := func(obj any) (any, error) {
		p, ok := obj.(pair)
		if !ok {
			return nil, fmt.Errorf("cannot transform %T", obj)
		}
		return pair{p.id, p.val + "+t"}, nil
	}
	f := NewRealFIFO(pairKey, knownPairs(t, pair{"k", "known"}), transform)
	mustSucceed(t, f.Add(pair{"a", "1"}))
	mustSucceed(t, f.Update(pair{"a", "2"}))
	mustSucceed(t, f.Delete(pair{"a", "3"}))
	mustSucceed(t, f.Replace([]any{pair{"b", "1"}}, "5"))
	want := Deltas{{Type: Added, Object: pair{"a", "1+t"}}, {Type: Updated, Object: pair{"a", "2+t"}}, {Type: Deleted, Object: pair{"a", "3+t"}},
		{Type: Deleted, Object: DeletedFinalStateUnknown{Key: "k", Obj: pair{"k", "known"}}}, {Type: Replaced, Object: pair{"b", "1+t"}}}
	if got := popRealFIFO(t, f); !reflect.DeepEqual(got, want) {
		t.Errorf("popped %v, want %v", got, want)
	}
	mustSucceed(t, f.Resync())
	if got := popRealFIFO(t, f); !reflect.DeepEqual(got, Deltas{{Type: Sync, Object: pair{"k", "known"}}}) {
		t.Errorf("resync popped %v", got)
	}
	if f.Transformer() == nil {
		t.Error("Transformer() is nil")
	}
	var ke KeyError
	if err := f.Add(42); !errors.As(err, &ke) {
		t.Errorf("Add of an object without key: %v, want a KeyError", err)
	}
}

func TestRealFIFOOptionsThatDoNotGoTogetherPanic(t *testing.T) {
	known := NewStore(pairKey)
	tests := []struct {
		opts RealFIFOOptions
		want string
	}{
		{RealFIFOOptions{AtomicEvents: true, KnownObjects: known}, "coding error: knownObjects must not be provided when AtomicEvents is true"},
		{RealFIFOOptions{UnlockWhileProcessing: true, KnownObjects: known}, "coding error: UnlockWhileProcessing must be false when AtomicEvents is false"},
		{RealFIFOOptions{}, "coding error: knownObjects must be provided when AtomicEvents is false"},
		{RealFIFOOptions{KnownObjects: known, EmitDeltaTypeBookmark: true}, "coding error: EmitDeltaTypeBookmark must be false when AtomicEvents is false"},
		{RealFIFOOptions{KnownObjects: known}, "no panic"},
		{RealFIFOOptions{AtomicEvents: true, UnlockWhileProcessing: true, EmitDeltaTypeBookmark: true}, "no panic"},
	}
	for _, tt := range tests {
		got := func() (msg string) {
			defer func() {
				if r := recover(); r != nil {
					msg = fmt.Sprint(r)
				}
			}()
			f := NewRealFIFOWithOptions(tt.opts)
			if f.Name() != "RealFIFO" {
				return "name " + f.Name()
			}
			return "no panic"
		}()
		if got != tt.want {
			t.Errorf("%+v: got %q, want %q", tt.opts, got, tt.want)
		}
	}
}

// countingMetric counts Set and Observe calls and keeps the last value set.
type countingMetric struct {
	mu             sync.Mutex
	last           float64
	sets, observes int
}

func (m *countingMetric) Set(v float64)   { m.mu.Lock(); m.last, m.sets = v, m.sets+1; m.mu.Unlock() }
func (m *countingMetric) Observe(float64) { m.mu.Lock(); m.observes++; m.mu.Unlock() }
func (m *countingMetric) read() (float64, int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.last, m.observes
}

type countingProvider struct{ queued, latency *countingMetric }

func (p countingProvider) NewQueuedItemMetric(InformerNameAndResource) GaugeMetric { return p.queued }
func (p countingProvider) NewProcessingLatencyMetric(InformerNameAndResource) HistogramMetric {
	return p.latency
}
func (p countingProvider) NewStoreResourceVersionMetric(InformerNameAndResource) GaugeMetric {
	return &countingMetric{}
}

// k8s.io/kubernetes' TestRealFIFO_Metrics: the queue length after each
// operation, and one latency observation per Pop or PopBatch.
func TestRealFIFOPublishesQueueLengthAndLatency(t *testing.T) {
	defer ResetInformerNamesForTesting()
	pop := func(f *RealFIFO) { _, _ = f.Pop(func(any, bool) error { return nil }) }
	popBatch := func(f *RealFIFO) {
		_ = f.PopBatch(func([]Delta, bool) error { return nil }, func(any, bool) error { return nil })
	}
	add := func(id string) func(f *RealFIFO) { return func(f *RealFIFO) { _ = f.Add(pair{id, "1"}) } }
	tests := []struct {
		name      string
		ops       []func(f *RealFIFO)
		queued    float64
		latencies int
	}{
		{"adds", []func(*RealFIFO){add("a"), add("b"), add("c")}, 3, 0},
		{"update and delete", []func(*RealFIFO){add("a"), func(f *RealFIFO) { _ = f.Update(pair{"a", "2"}); _ = f.Delete(pair{"a", "2"}) }}, 3, 0},
		{"pop", []func(*RealFIFO){add("a"), add("b"), pop}, 1, 1},
		{"pop batch", []func(*RealFIFO){add("a"), add("b"), add("c"), popBatch}, 0, 1},
		{"replace", []func(*RealFIFO){add("old"), func(f *RealFIFO) { _ = f.Replace([]any{pair{"x", "1"}, pair{"y", "2"}}, "50") }}, 4, 0},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			name, err := NewInformerName(fmt.Sprintf("fifo-%d", i))
			if err != nil {
				t.Fatal(err)
			}
			defer name.Release()
			p := countingProvider{&countingMetric{}, &countingMetric{}}
			f := NewRealFIFOWithOptions(RealFIFOOptions{
				KeyFunction: pairKey, KnownObjects: NewStore(pairKey),
				Identifier: name.WithResource(schema.GroupVersionResource{Version: "v1", Resource: "pods"}), MetricsProvider: p,
			})
			for _, op := range tt.ops {
				op(f)
			}
			if queued, _ := p.queued.read(); queued != tt.queued {
				t.Errorf("queued = %v, want %v", queued, tt.queued)
			}
			if _, n := p.latency.read(); n != tt.latencies {
				t.Errorf("latency observations = %d, want %d", n, tt.latencies)
			}
			if f.Name() != fmt.Sprintf("fifo-%d", i) {
				t.Errorf("Name = %q, want the identifier's name", f.Name())
			}
		})
	}
}

// Upstream's TestRealFIFO_PopShouldUnblockWhenClosed, for Pop and PopBatch.
func TestRealFIFOCloseUnblocksPopAndPopBatch(t *testing.T) {
	f := NewRealFIFOWithOptions(RealFIFOOptions{KeyFunction: pairKey, AtomicEvents: true, UnlockWhileProcessing: true})
	errs := make(chan error, 2)
	go func() { _, err := f.Pop(func(any, bool) error { return nil }); errs <- err }()
	go func() {
		errs <- f.PopBatch(func([]Delta, bool) error { return nil }, func(any, bool) error { return nil })
	}()
	f.Close()
	for range 2 {
		select {
		case err := <-errs:
			if !errors.Is(err, ErrFIFOClosed) {
				t.Errorf("after Close: %v, want ErrFIFOClosed", err)
			}
		case <-time.After(30 * time.Second):
			t.Fatal("Pop or PopBatch did not return after Close")
		}
	}
	if !f.IsClosed() {
		t.Error("IsClosed is false after Close")
	}
}

// With UnlockWhileProcessing, writers queue while a Pop processes.
func TestRealFIFOUnlockWhileProcessingLetsWritersIn(t *testing.T) {
	f := NewRealFIFOWithOptions(RealFIFOOptions{KeyFunction: pairKey, AtomicEvents: true, UnlockWhileProcessing: true})
	mustSucceed(t, f.Add(pair{"a", "1"}))
	_, err := f.Pop(func(any, bool) error {
		return f.Add(pair{"b", "1"}) // would deadlock with the lock held
	})
	mustSucceed(t, err)
	if got := popRealFIFO(t, f); !reflect.DeepEqual(got, Deltas{{Type: Added, Object: pair{"b", "1"}}}) {
		t.Errorf("popped %v", got)
	}
}
