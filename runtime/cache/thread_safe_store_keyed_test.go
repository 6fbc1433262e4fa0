package cache

import (
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
			if _, exists := keyed.deleteKeyed(key); exists != wantExists {
				t.Fatalf("%s: deleteKeyed reported exists=%v, want %v", step.name, exists, wantExists)
			}
		} else {
			if err := public.Update(step.obj); err != nil {
				t.Fatalf("%s: Update: %v", step.name, err)
			}
			if err := keyed.putKeyed(key, step.obj); err != nil {
				t.Fatalf("%s: putKeyed: %v", step.name, err)
			}
		}
		assertSameStoreContent(t, step.name, public, keyed)
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
	if err := s.putKeyed("ns/good", testObject("ns", "good", "1")); err != nil {
		t.Fatal(err)
	}
	if err := s.putKeyed("ns/bad", testObject("ns", "bad", "1")); !errors.Is(err, failing) {
		t.Fatalf("putKeyed of an object the index rejects: err %v, want %v", err, failing)
	}
	if err := s.putKeyed("ns/nil", nil); !errors.Is(err, errNilObject) {
		t.Fatalf("putKeyed(nil): err %v, want %v", err, errNilObject)
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
	s.deleteKeyed("ns/b")
	keys, objs := s.listKeyed()
	if len(keys) != 2 || len(objs) != 2 {
		t.Fatalf("listKeyed returned %d keys and %d objects, want 2 and 2", len(keys), len(objs))
	}
	for i, obj := range objs {
		if key, _ := MetaNamespaceKeyFunc(obj); key != keys[i] {
			t.Fatalf("object %d has key %q but listKeyed paired it with %q", i, key, keys[i])
		}
	}
}
