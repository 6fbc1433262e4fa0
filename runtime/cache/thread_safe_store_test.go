package cache

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

const labelIndex = "by-label-value"

// labelValuesIndexFunc files an object under each of its label values, so
// an object may have zero, one or many index values (with duplicates).
func labelValuesIndexFunc(obj any) ([]string, error) {
	m, err := meta.Accessor(obj)
	if err != nil {
		return nil, err
	}
	var vals []string
	for _, v := range m.GetLabels() {
		vals = append(vals, v)
	}
	return vals, nil
}

func nameIndexFunc(obj any) ([]string, error) {
	m, err := meta.Accessor(obj)
	if err != nil {
		return nil, err
	}
	return []string{m.GetName()}, nil
}

func testIndexers() Indexers {
	return Indexers{
		NamespaceIndex: MetaNamespaceIndexFunc,
		labelIndex:     labelValuesIndexFunc,
		"by-name":      nameIndexFunc,
	}
}

// checkIndexes recomputes every index of idx from its content and fails the
// test when the store's answers differ from the recomputed ones.
func checkIndexes(t *testing.T, idx Indexer) {
	t.Helper()
	for name, fn := range idx.GetIndexers() {
		want := map[string][]string{}
		for _, obj := range idx.List() {
			key, err := MetaNamespaceKeyFunc(obj)
			if err != nil {
				t.Fatal(err)
			}
			vals, err := fn(obj)
			if err != nil {
				t.Fatal(err)
			}
			for _, v := range uniqueSorted(vals) {
				want[v] = append(want[v], key)
			}
		}
		gotValues := idx.ListIndexFuncValues(name)
		sort.Strings(gotValues)
		wantValues := make([]string, 0, len(want))
		for v := range want {
			wantValues = append(wantValues, v)
		}
		sort.Strings(wantValues)
		if !slices.Equal(gotValues, wantValues) {
			t.Fatalf("index %q values = %v, want %v", name, gotValues, wantValues)
		}
		for v, wantKeys := range want {
			gotKeys, err := idx.IndexKeys(name, v)
			if err != nil {
				t.Fatal(err)
			}
			sort.Strings(gotKeys)
			sort.Strings(wantKeys)
			if !slices.Equal(gotKeys, wantKeys) {
				t.Fatalf("index %q value %q keys = %v, want %v", name, v, gotKeys, wantKeys)
			}
			objs, err := idx.ByIndex(name, v)
			if err != nil {
				t.Fatal(err)
			}
			if len(objs) != len(wantKeys) {
				t.Fatalf("index %q value %q: ByIndex returned %d objects, want %d", name, v, len(objs), len(wantKeys))
			}
		}
	}
}

func uniqueSorted(vals []string) []string {
	out := slices.Clone(vals)
	sort.Strings(out)
	return slices.Compact(out)
}

func keysOf(t *testing.T, objs []any) []string {
	t.Helper()
	keys := make([]string, 0, len(objs))
	for _, o := range objs {
		k, err := MetaNamespaceKeyFunc(o)
		if err != nil {
			t.Fatal(err)
		}
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func TestIndexerKeepsIndexesExactThroughMutations(t *testing.T) {
	type op struct {
		kind string // add, update, delete, replace
		objs []*metav1.PartialObjectMetadata
	}
	l := func(kv ...string) map[string]string {
		m := map[string]string{}
		for i := 0; i < len(kv); i += 2 {
			m[kv[i]] = kv[i+1]
		}
		return m
	}
	tests := []struct {
		name     string
		ops      []op
		wantKeys []string
	}{
		{
			name: "add then update moves the object to its new index values",
			ops: []op{
				{"add", []*metav1.PartialObjectMetadata{testObjectWithLabels("a", "x", "1", l("app", "web", "tier", "front"))}},
				{"update", []*metav1.PartialObjectMetadata{testObjectWithLabels("a", "x", "2", l("app", "db"))}},
			},
			wantKeys: []string{"a/x"},
		},
		{
			name: "update of an absent key inserts it",
			ops: []op{
				{"update", []*metav1.PartialObjectMetadata{testObjectWithLabels("a", "x", "1", l("app", "web"))}},
			},
			wantKeys: []string{"a/x"},
		},
		{
			name: "delete removes every index value",
			ops: []op{
				{"add", []*metav1.PartialObjectMetadata{testObjectWithLabels("a", "x", "1", l("app", "web", "dup", "web")), testObjectWithLabels("a", "y", "1", l("app", "web"))}},
				{"delete", []*metav1.PartialObjectMetadata{testObject("a", "x", "")}},
			},
			wantKeys: []string{"a/y"},
		},
		{
			name: "delete of an absent key is not an error",
			ops: []op{
				{"delete", []*metav1.PartialObjectMetadata{testObject("a", "x", "")}},
			},
		},
		{
			name: "replace drops old content and the last duplicate wins",
			ops: []op{
				{"add", []*metav1.PartialObjectMetadata{testObjectWithLabels("a", "x", "1", l("app", "web")), testObjectWithLabels("b", "z", "1", nil)}},
				{"replace", []*metav1.PartialObjectMetadata{testObjectWithLabels("a", "x", "5", l("app", "old")), testObjectWithLabels("a", "x", "6", l("app", "new")), testObject("c", "w", "6")}},
			},
			wantKeys: []string{"a/x", "c/w"},
		},
		{
			name: "cluster-scoped objects index under the empty namespace",
			ops: []op{
				{"add", []*metav1.PartialObjectMetadata{testObject("", "node-1", "1"), testObject("", "node-2", "1")}},
			},
			wantKeys: []string{"node-1", "node-2"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			idx := NewIndexer(MetaNamespaceKeyFunc, testIndexers())
			for _, o := range tc.ops {
				var err error
				switch o.kind {
				case "add", "update", "delete":
					for _, obj := range o.objs {
						switch o.kind {
						case "add":
							err = idx.Add(obj)
						case "update":
							err = idx.Update(obj)
						case "delete":
							err = idx.Delete(obj)
						}
						if err != nil {
							t.Fatalf("%s: %v", o.kind, err)
						}
					}
				case "replace":
					list := make([]any, len(o.objs))
					for i, obj := range o.objs {
						list[i] = obj
					}
					if err = idx.Replace(list, "9"); err != nil {
						t.Fatal(err)
					}
				}
				checkIndexes(t, idx)
			}
			if got := keysOf(t, idx.List()); !slices.Equal(got, tc.wantKeys) && len(got)+len(tc.wantKeys) > 0 {
				t.Fatalf("keys = %v, want %v", got, tc.wantKeys)
			}
			gotKeys := idx.ListKeys()
			sort.Strings(gotKeys)
			if !slices.Equal(gotKeys, tc.wantKeys) && len(gotKeys)+len(tc.wantKeys) > 0 {
				t.Fatalf("ListKeys = %v, want %v", gotKeys, tc.wantKeys)
			}
		})
	}
}

func TestIndexerReplaceKeepsLatestObject(t *testing.T) {
	idx := NewIndexer(MetaNamespaceKeyFunc, testIndexers())
	if err := idx.Replace([]any{testObject("a", "x", "5"), testObject("a", "x", "6")}, "6"); err != nil {
		t.Fatal(err)
	}
	got, ok, err := idx.GetByKey("a/x")
	if err != nil || !ok {
		t.Fatalf("GetByKey: %v %v", ok, err)
	}
	if rv := got.(*metav1.PartialObjectMetadata).ResourceVersion; rv != "6" {
		t.Fatalf("resourceVersion = %q, want 6", rv)
	}
}

// TestIndexerMatchesModelUnderRandomOperations runs long random sequences of
// adds, updates and deletes (enough to cross every set representation and
// to grow and shrink the tables) against a map model.
func TestIndexerMatchesModelUnderRandomOperations(t *testing.T) {
	for seed := uint64(1); seed <= 3; seed++ {
		t.Run(fmt.Sprint("seed", seed), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(seed, seed))
			idx := NewIndexer(MetaNamespaceKeyFunc, testIndexers())
			model := map[string]*metav1.PartialObjectMetadata{}
			for step := range 6000 {
				ns := fmt.Sprint("ns", rng.IntN(4))
				name := fmt.Sprint("o", rng.IntN(400))
				key := ns + "/" + name
				switch r := rng.IntN(10); {
				case r < 6:
					labels := map[string]string{}
					for j := range rng.IntN(4) {
						labels[fmt.Sprint("k", j)] = fmt.Sprint("v", rng.IntN(30))
					}
					obj := testObjectWithLabels(ns, name, fmt.Sprint(step), labels)
					if err := idx.Update(obj); err != nil {
						t.Fatal(err)
					}
					model[key] = obj
				default:
					if err := idx.Delete(testObject(ns, name, "")); err != nil {
						t.Fatal(err)
					}
					delete(model, key)
				}
				if step%500 == 0 {
					checkIndexes(t, idx)
				}
				got, ok, _ := idx.GetByKey(key)
				if want, wantOK := model[key]; ok != wantOK || (ok && got != want) {
					t.Fatalf("step %d: GetByKey(%q) = %v,%v want %v,%v", step, key, got, ok, want, wantOK)
				}
			}
			checkIndexes(t, idx)
			if len(idx.List()) != len(model) {
				t.Fatalf("List has %d objects, model %d", len(idx.List()), len(model))
			}
			for key, want := range model {
				got, ok, _ := idx.GetByKey(key)
				if !ok || got != want {
					t.Fatalf("GetByKey(%q) = %v,%v want %v", key, got, ok, want)
				}
			}
			// Drain everything: tables and sets must empty cleanly.
			for _, want := range model {
				if err := idx.Delete(want); err != nil {
					t.Fatal(err)
				}
			}
			if n := len(idx.ListKeys()); n != 0 {
				t.Fatalf("%d keys left after deleting all", n)
			}
			for name := range idx.GetIndexers() {
				if vals := idx.ListIndexFuncValues(name); len(vals) != 0 {
					t.Fatalf("index %q keeps values %v after deleting all", name, vals)
				}
			}
		})
	}
}

func TestIndexerAddIndexersIndexesExistingObjects(t *testing.T) {
	idx := NewIndexer(MetaNamespaceKeyFunc, Indexers{NamespaceIndex: MetaNamespaceIndexFunc})
	for i := range 50 {
		if err := idx.Add(testObjectWithLabels(fmt.Sprint("ns", i%3), fmt.Sprint("o", i), "1", map[string]string{"app": fmt.Sprint("app", i%5)})); err != nil {
			t.Fatal(err)
		}
	}
	if err := idx.AddIndexers(Indexers{labelIndex: labelValuesIndexFunc}); err != nil {
		t.Fatal(err)
	}
	checkIndexes(t, idx)
	keys, err := idx.IndexKeys(labelIndex, "app3")
	if err != nil {
		t.Fatal(err)
	}
	if len(keys) != 10 {
		t.Fatalf("IndexKeys(app3) = %d keys, want 10", len(keys))
	}
	// Later writes maintain the new index too.
	if err := idx.Update(testObjectWithLabels("ns0", "o3", "2", map[string]string{"app": "moved"})); err != nil {
		t.Fatal(err)
	}
	checkIndexes(t, idx)
	if got := idx.GetIndexers(); len(got) != 2 {
		t.Fatalf("GetIndexers has %d indexers, want 2", len(got))
	}
}

func TestIndexerAddIndexersRejectsDuplicateName(t *testing.T) {
	idx := NewIndexer(MetaNamespaceKeyFunc, Indexers{NamespaceIndex: MetaNamespaceIndexFunc})
	err := idx.AddIndexers(Indexers{"fresh": nameIndexFunc, NamespaceIndex: nameIndexFunc})
	if err == nil || !strings.Contains(err.Error(), NamespaceIndex) {
		t.Fatalf("AddIndexers error = %v, want one naming %q", err, NamespaceIndex)
	}
	if _, ok := idx.GetIndexers()["fresh"]; ok {
		t.Fatal("a failed AddIndexers installed some of its indexers")
	}
}

func TestIndexerAddIndexersFailsAtomicallyOnIndexError(t *testing.T) {
	idx := NewIndexer(MetaNamespaceKeyFunc, nil)
	if err := idx.Add(testObject("a", "x", "1")); err != nil {
		t.Fatal(err)
	}
	boom := errors.New("boom")
	err := idx.AddIndexers(Indexers{"bad": func(any) ([]string, error) { return nil, boom }})
	if !errors.Is(err, boom) {
		t.Fatalf("AddIndexers error = %v, want boom", err)
	}
	if len(idx.GetIndexers()) != 0 {
		t.Fatal("failed AddIndexers left an indexer installed")
	}
}

// TestIndexerUnknownIndexErrorsAreClientGos pins client-go's message for a
// read through a missing index (callers compare it) and its empty, not
// nil, ListIndexFuncValues.
func TestIndexerUnknownIndexErrorsAreClientGos(t *testing.T) {
	idx := NewIndexer(MetaNamespaceKeyFunc, nil)
	calls := map[string]func() error{
		"Index":     func() error { _, err := idx.Index("missing", testObject("a", "b", "")); return err },
		"IndexKeys": func() error { _, err := idx.IndexKeys("missing", "a"); return err },
		"ByIndex":   func() error { _, err := idx.ByIndex("missing", "a"); return err },
	}
	for name, call := range calls {
		if err := call(); err == nil || err.Error() != "Index with name missing does not exist" {
			t.Errorf("%s error = %v, want client-go's %q", name, err, "Index with name missing does not exist")
		}
	}
	if vals := idx.ListIndexFuncValues("missing"); vals == nil || len(vals) != 0 {
		t.Errorf("ListIndexFuncValues(missing) = %#v, want an empty slice", vals)
	}
}

func TestIndexerIndexUnionsValuesWithoutDuplicates(t *testing.T) {
	idx := NewIndexer(MetaNamespaceKeyFunc, Indexers{labelIndex: labelValuesIndexFunc})
	objs := []*metav1.PartialObjectMetadata{
		testObjectWithLabels("a", "both", "1", map[string]string{"x": "red", "y": "blue"}),
		testObjectWithLabels("a", "red", "1", map[string]string{"x": "red"}),
		testObjectWithLabels("a", "blue", "1", map[string]string{"y": "blue"}),
		testObjectWithLabels("a", "green", "1", map[string]string{"x": "green"}),
	}
	for _, o := range objs {
		if err := idx.Add(o); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		name  string
		probe map[string]string
		want  []string
	}{
		{"one value", map[string]string{"x": "red"}, []string{"a/both", "a/red"}},
		{"two values overlap", map[string]string{"p": "red", "q": "blue"}, []string{"a/blue", "a/both", "a/red"}},
		{"no match", map[string]string{"p": "pink"}, []string{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := idx.Index(labelIndex, testObjectWithLabels("z", "probe", "", tc.probe))
			if err != nil {
				t.Fatal(err)
			}
			if keys := keysOf(t, got); !slices.Equal(keys, tc.want) {
				t.Fatalf("Index = %v, want %v", keys, tc.want)
			}
		})
	}
}

func TestStoreRejectsNilAndKeylessObjectsWithoutChange(t *testing.T) {
	idx := NewIndexer(MetaNamespaceKeyFunc, testIndexers())
	if err := idx.Add(testObject("a", "x", "1")); err != nil {
		t.Fatal(err)
	}
	if err := idx.Add(nil); err == nil {
		t.Error("Add(nil) succeeded")
	}
	if err := idx.Add(42); err == nil {
		t.Error("Add(42) succeeded")
	}
	if err := idx.Replace([]any{testObject("b", "y", "2"), 42}, "2"); err == nil {
		t.Error("Replace with a keyless object succeeded")
	}
	if keys := idx.ListKeys(); !slices.Equal(keys, []string{"a/x"}) {
		t.Fatalf("after failed writes keys = %v, want [a/x]", keys)
	}
}

func TestIndexerWriteFailsAtomicallyWhenAnIndexFuncFails(t *testing.T) {
	boom := errors.New("boom")
	failing := func(obj any) ([]string, error) {
		if obj.(*metav1.PartialObjectMetadata).Name == "bad" {
			return nil, boom
		}
		return []string{"ok"}, nil
	}
	idx := NewIndexer(MetaNamespaceKeyFunc, Indexers{"a-first": nameIndexFunc, "z-failing": failing})
	if err := idx.Add(testObject("a", "x", "1")); err != nil {
		t.Fatal(err)
	}
	if err := idx.Add(testObject("a", "bad", "1")); !errors.Is(err, boom) {
		t.Fatalf("Add error = %v, want boom", err)
	}
	if err := idx.Replace([]any{testObject("a", "y", "1"), testObject("a", "bad", "1")}, "1"); !errors.Is(err, boom) {
		t.Fatalf("Replace error = %v, want boom", err)
	}
	if keys := idx.ListKeys(); !slices.Equal(keys, []string{"a/x"}) {
		t.Fatalf("keys = %v, want [a/x]", keys)
	}
	if vals := idx.ListIndexFuncValues("a-first"); !slices.Equal(vals, []string{"x"}) {
		t.Fatalf("a-first values = %v, want [x]", vals)
	}
}

func TestIndexerGetIndexersReturnsACopy(t *testing.T) {
	idx := NewIndexer(MetaNamespaceKeyFunc, Indexers{NamespaceIndex: MetaNamespaceIndexFunc})
	got := idx.GetIndexers()
	got["intruder"] = nameIndexFunc
	if _, ok := idx.GetIndexers()["intruder"]; ok {
		t.Fatal("mutating the result of GetIndexers changed the store")
	}
}

func TestStoreWithoutIndexesGetAndResync(t *testing.T) {
	s := NewStore(MetaNamespaceKeyFunc)
	obj := testObject("a", "x", "1")
	if err := s.Add(obj); err != nil {
		t.Fatal(err)
	}
	got, ok, err := s.Get(testObject("a", "x", ""))
	if err != nil || !ok || got != obj {
		t.Fatalf("Get = %v,%v,%v want the stored object", got, ok, err)
	}
	if err := s.Resync(); err != nil {
		t.Fatal(err)
	}
	if _, ok, _ := s.GetByKey("a/y"); ok {
		t.Fatal("GetByKey of an absent key reported it present")
	}
}

// TestIndexerConcurrentReadersAndWriters runs writers and readers at once;
// -race checks the locking, and each reader checks that ByIndex answers are
// consistent with GetByKey at the same moment.
func TestIndexerConcurrentReadersAndWriters(t *testing.T) {
	idx := NewIndexer(MetaNamespaceKeyFunc, testIndexers())
	const writers, readers, perWriter = 4, 4, 400
	var wg sync.WaitGroup
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ns := fmt.Sprint("ns", w)
			for i := range perWriter {
				obj := testObjectWithLabels(ns, fmt.Sprint("o", i%50), fmt.Sprint(i), map[string]string{"app": fmt.Sprint("a", i%7)})
				var err error
				switch i % 5 {
				case 4:
					err = idx.Delete(obj)
				default:
					err = idx.Update(obj)
				}
				if err != nil {
					t.Error(err)
					return
				}
				if i%100 == 99 {
					if err := idx.Replace(idx.List(), ""); err != nil {
						t.Error(err)
						return
					}
				}
			}
		}()
	}
	for r := range readers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range perWriter {
				objs, err := idx.ByIndex(NamespaceIndex, fmt.Sprint("ns", (r+i)%writers))
				if err != nil {
					t.Error(err)
					return
				}
				for _, o := range objs {
					if o == nil {
						t.Error("ByIndex returned a nil object")
						return
					}
				}
				_ = idx.List()
				_ = idx.ListIndexFuncValues(labelIndex)
				_, _, _ = idx.GetByKey("ns0/o1")
			}
		}()
	}
	wg.Wait()
	checkIndexes(t, idx)
}

// TestIndexerIndexReadsAsClientGo pins what client-go's indexer returns
// and callers see: IndexKeys sorted, Index never nil, an index function's
// error from Index as it is, and MetaNamespaceIndexFunc's message.
func TestIndexerIndexReadsAsClientGo(t *testing.T) {
	boom := errors.New("boom")
	idx := NewIndexer(MetaNamespaceKeyFunc, Indexers{
		NamespaceIndex: MetaNamespaceIndexFunc,
		"none":         func(any) ([]string, error) { return nil, nil },
		"failing": func(obj any) ([]string, error) {
			if _, ok := obj.(string); ok {
				return nil, boom
			}
			return []string{"v"}, nil
		},
	})
	for _, name := range []string{"m", "c", "x", "a"} {
		if err := idx.Add(testObject("ns", name, "1")); err != nil {
			t.Fatal(err)
		}
	}
	if keys, err := idx.IndexKeys(NamespaceIndex, "ns"); err != nil || !slices.Equal(keys, []string{"ns/a", "ns/c", "ns/m", "ns/x"}) {
		t.Errorf("IndexKeys = %q, %v; want the keys sorted", keys, err)
	}
	if objs, err := idx.Index("none", testObject("ns", "a", "1")); err != nil || objs == nil || len(objs) != 0 {
		t.Errorf("Index through no value = %#v, %v; want an empty slice", objs, err)
	}
	if _, err := idx.Index("failing", "a string"); err != boom {
		t.Errorf("Index with a failing index function: error %v, want the function's own", err)
	}
	_, err := idx.Index(NamespaceIndex, "a string")
	if want := "object has no meta: object does not implement the Object interfaces"; err == nil || err.Error() != want {
		t.Errorf("Index(namespace, a string): error %v, want %q", err, want)
	}
}
