package cache

import (
	"github.com/informer-gen/informer-gen/runtime/cache/internal/store"

	"errors"
	"slices"
	"testing"
)

// TestStoreKeyedWritesMatchPublicWrites drives two stores with the same
// operations, one through Update/Delete, one through the keyed path, and
// checks that content and indexes agree after each step.
func TestStoreKeyedWritesMatchPublicWrites(t *testing.T) {
	indexers := Indexers{NamespaceIndex: MetaNamespaceIndexFunc, labelIndex: labelValuesIndexFunc}
	public := newThreadSafeStore(DeletionHandlingMetaNamespaceKeyFunc, indexers)
	keyed := newThreadSafeStore(DeletionHandlingMetaNamespaceKeyFunc, indexers)
	swapped := newThreadSafeStore(DeletionHandlingMetaNamespaceKeyFunc, indexers)
	if !keyed.NamespaceFiled(NamespaceIndex) {
		t.Fatal("the namespace index is not filed from keys: the test would not cover that path")
	}
	steps := []struct {
		name   string
		obj    any
		delete bool
	}{
		{name: "add a", obj: testObjectWithLabels("ns1", "a", "1", map[string]string{"x": "red"})},
		{name: "add b", obj: testObjectWithLabels("ns1", "b", "1", map[string]string{"x": "blue"})},
		{name: "add cluster-scoped c", obj: testObjectWithLabels("", "c", "1", nil)},
		{name: "move a to another label value", obj: testObjectWithLabels("ns1", "a", "2", map[string]string{"x": "blue"})},
		{name: "delete b", obj: testObject("ns1", "b", "1"), delete: true},
		{name: "delete absent d", obj: testObject("ns2", "d", "1"), delete: true},
		{name: "re-add b in the other label value", obj: testObjectWithLabels("ns1", "b", "3", map[string]string{"x": "red"})},
	}
	for _, step := range steps {
		key, err := MetaNamespaceKeyFunc(step.obj)
		if err != nil {
			t.Fatal(err)
		}
		if step.delete {
			_, wantExists, _ := public.GetByKey(key)
			if err := public.Delete(step.obj); err != nil {
				t.Fatalf("%s: Delete: %v", step.name, err)
			}
			if _, exists := keyed.DeleteKeyed(key); exists != wantExists {
				t.Fatalf("%s: deleteKeyed reported exists=%v, want %v", step.name, exists, wantExists)
			}
			swapped.DeleteKeyed(key)
		} else {
			if err := public.Update(step.obj); err != nil {
				t.Fatalf("%s: Update: %v", step.name, err)
			}
			if err := keyed.PutKeyed(key, step.obj); err != nil {
				t.Fatalf("%s: putKeyed: %v", step.name, err)
			}
			if _, _, _, err := swapped.SwapKeyed(key, step.obj, nil); err != nil {
				t.Fatalf("%s: SwapKeyed: %v", step.name, err)
			}
		}
		assertSameStoreContent(t, step.name, public, keyed)
		assertSameStoreContent(t, step.name+" (SwapKeyed)", public, swapped)
	}
}

func assertSameStoreContent(t *testing.T, step string, want, got *threadSafeStore) {
	t.Helper()
	wantKeys, gotKeys := want.ListKeys(), got.ListKeys()
	slices.Sort(wantKeys)
	slices.Sort(gotKeys)
	if !slices.Equal(wantKeys, gotKeys) {
		t.Fatalf("%s: keys %v, want %v", step, gotKeys, wantKeys)
	}
	for _, key := range wantKeys {
		w, _, _ := want.GetByKey(key)
		g, _, _ := got.GetByKey(key)
		if w != g {
			t.Fatalf("%s: key %q holds %v, want %v", step, key, g, w)
		}
	}
	for _, index := range []string{NamespaceIndex, labelIndex} {
		wantVals, gotVals := want.ListIndexFuncValues(index), got.ListIndexFuncValues(index)
		slices.Sort(wantVals)
		slices.Sort(gotVals)
		if !slices.Equal(wantVals, gotVals) {
			t.Fatalf("%s: index %q values %v, want %v", step, index, gotVals, wantVals)
		}
		for _, v := range wantVals {
			wk, _ := want.IndexKeys(index, v)
			gk, _ := got.IndexKeys(index, v)
			slices.Sort(wk)
			slices.Sort(gk)
			if !slices.Equal(wk, gk) {
				t.Fatalf("%s: index %q value %q holds %v, want %v", step, index, v, gk, wk)
			}
		}
	}
}

func TestStorePutKeyedFailsAtomicallyOnIndexError(t *testing.T) {
	failing := errors.New("index refuses")
	s := newThreadSafeStore(DeletionHandlingMetaNamespaceKeyFunc, Indexers{"failing": func(obj any) ([]string, error) {
		if obj.(interface{ GetName() string }).GetName() == "bad" {
			return nil, failing
		}
		return []string{"ok"}, nil
	}})
	if err := s.PutKeyed("ns/good", testObject("ns", "good", "1")); err != nil {
		t.Fatal(err)
	}
	if err := s.PutKeyed("ns/bad", testObject("ns", "bad", "1")); !errors.Is(err, failing) {
		t.Fatalf("putKeyed of an object the index rejects: err %v, want %v", err, failing)
	}
	if err := s.PutKeyed("ns/nil", nil); !errors.Is(err, store.ErrNilObject) {
		t.Fatalf("putKeyed(nil): err %v, want %v", err, store.ErrNilObject)
	}
	if keys := s.ListKeys(); !slices.Equal(keys, []string{"ns/good"}) {
		t.Fatalf("keys after failed writes: %v, want [ns/good]", keys)
	}
}

func TestStoreListKeyedPairsKeysWithTheirObjects(t *testing.T) {
	s := newThreadSafeStore(DeletionHandlingMetaNamespaceKeyFunc, nil)
	for _, name := range []string{"a", "b", "c"} {
		if err := s.Add(testObject("ns", name, "1")); err != nil {
			t.Fatal(err)
		}
	}
	s.DeleteKeyed("ns/b")
	keys, objs := s.ListKeyed()
	if len(keys) != 2 || len(objs) != 2 {
		t.Fatalf("ListKeyed returned %d keys and %d objects, want 2 and 2", len(keys), len(objs))
	}
	for i, obj := range objs {
		if key, _ := MetaNamespaceKeyFunc(obj); key != keys[i] {
			t.Fatalf("object %d has key %q but ListKeyed paired it with %q", i, key, keys[i])
		}
	}
}

func TestStoreSwapKeyed(t *testing.T) {
	keepSameRV := func(old, obj any) bool {
		return old.(interface{ GetResourceVersion() string }).GetResourceVersion() == obj.(interface{ GetResourceVersion() string }).GetResourceVersion()
	}
	v1 := testObject("ns", "a", "1")
	v1again := testObject("ns", "a", "1")
	v2 := testObject("ns", "a", "2")
	tests := []struct {
		name        string
		stored      any // object under ns/a before the swap, nil for none
		obj         any
		keep        func(old, obj any) bool
		wantOld     any
		wantExists  bool
		wantStored  bool
		wantContent any
	}{
		{name: "absent key is inserted", obj: v1, keep: keepSameRV, wantStored: true, wantContent: v1},
		{name: "present key is replaced without keep", stored: v1, obj: v1again, wantOld: v1, wantExists: true, wantStored: true, wantContent: v1again},
		{name: "keep true leaves the stored object", stored: v1, obj: v1again, keep: keepSameRV, wantOld: v1, wantExists: true, wantStored: false, wantContent: v1},
		{name: "keep false replaces", stored: v1, obj: v2, keep: keepSameRV, wantOld: v1, wantExists: true, wantStored: true, wantContent: v2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newThreadSafeStore(DeletionHandlingMetaNamespaceKeyFunc, Indexers{NamespaceIndex: MetaNamespaceIndexFunc})
			if tt.stored != nil {
				if err := s.Add(tt.stored); err != nil {
					t.Fatal(err)
				}
			}
			old, exists, stored, err := s.SwapKeyed("ns/a", tt.obj, tt.keep)
			if err != nil {
				t.Fatal(err)
			}
			if old != tt.wantOld || exists != tt.wantExists || stored != tt.wantStored {
				t.Fatalf("SwapKeyed = (%v, %v, %v), want (%v, %v, %v)", old, exists, stored, tt.wantOld, tt.wantExists, tt.wantStored)
			}
			if got, _, _ := s.GetByKey("ns/a"); got != tt.wantContent {
				t.Fatalf("stored %v, want %v", got, tt.wantContent)
			}
			if keys, _ := s.IndexKeys(NamespaceIndex, "ns"); !slices.Equal(keys, []string{"ns/a"}) {
				t.Fatalf("namespace index holds %v, want [ns/a]", keys)
			}
		})
	}
}

func TestStoreSwapKeyedReportsTheStoredObjectOnIndexError(t *testing.T) {
	failing := errors.New("index refuses")
	s := newThreadSafeStore(DeletionHandlingMetaNamespaceKeyFunc, Indexers{"failing": func(obj any) ([]string, error) {
		if obj.(interface{ GetResourceVersion() string }).GetResourceVersion() == "bad" {
			return nil, failing
		}
		return []string{"ok"}, nil
	}})
	good := testObject("ns", "a", "1")
	if err := s.Add(good); err != nil {
		t.Fatal(err)
	}
	old, exists, stored, err := s.SwapKeyed("ns/a", testObject("ns", "a", "bad"), nil)
	if !errors.Is(err, failing) || old != good || !exists || stored {
		t.Fatalf("SwapKeyed = (%v, %v, %v, %v), want the stored object, true, false and the index error", old, exists, stored, err)
	}
	if got, _, _ := s.GetByKey("ns/a"); got != good {
		t.Fatalf("store holds %v after a failed swap, want the previous object", got)
	}
}

func TestStoreFilesTheNamespaceIndexFromKeysOnlyForMetaNamespaceFunctions(t *testing.T) {
	customKey := func(obj any) (string, error) { return MetaNamespaceKeyFunc(obj) }
	customIndex := func(obj any) ([]string, error) { return MetaNamespaceIndexFunc(obj) }
	tests := []struct {
		name    string
		keyFunc KeyFunc
		index   IndexFunc
		want    bool
	}{
		{"deletion-handling key func, namespace index", DeletionHandlingMetaNamespaceKeyFunc, MetaNamespaceIndexFunc, true},
		{"meta-namespace key func, namespace index", MetaNamespaceKeyFunc, MetaNamespaceIndexFunc, true},
		{"custom key func", customKey, MetaNamespaceIndexFunc, false},
		{"custom index func", MetaNamespaceKeyFunc, customIndex, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newThreadSafeStore(tt.keyFunc, Indexers{"ix": tt.index})
			if got := s.NamespaceFiled("ix"); got != tt.want {
				t.Fatalf("namespaceOfKey = %v, want %v", got, tt.want)
			}
			if err := s.AddIndexers(Indexers{"added": tt.index}); err != nil {
				t.Fatal(err)
			}
			if got := s.NamespaceFiled("added"); got != tt.want {
				t.Fatalf("namespaceOfKey of an index added later = %v, want %v", got, tt.want)
			}
			// Replace rebuilds the indexes: the flag survives.
			if err := s.Replace([]any{testObject("ns", "a", "1")}, "1"); err != nil {
				t.Fatal(err)
			}
			if got := s.NamespaceFiled("ix"); got != tt.want {
				t.Fatalf("namespaceOfKey after Replace = %v, want %v", got, tt.want)
			}
		})
	}
}
