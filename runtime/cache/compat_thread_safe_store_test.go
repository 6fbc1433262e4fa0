package cache

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

func commaIndexers() Indexers {
	return Indexers{"by": func(obj any) ([]string, error) {
		s, ok := obj.(string)
		if !ok {
			return nil, fmt.Errorf("not a string: %T", obj)
		}
		return strings.Split(s, ","), nil
	}}
}

// indexKeysOf returns the sorted keys filed under each value of index "by".
func indexKeysOf(t *testing.T, s ThreadSafeStore, values ...string) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	for _, v := range values {
		keys, err := s.IndexKeys("by", v)
		if err != nil {
			t.Fatal(err)
		}
		out[v] = keys
	}
	return out
}

// Upstream's TestThreadSafeStoreIndexingFunctionsWithMultipleValues and
// TestThreadSafeStoreDeleteRemovesEmptySetsFromIndex: the index follows
// adds, updates and deletes of multi-valued objects, IndexKeys is sorted,
// and values no object holds any more are gone.
func TestThreadSafeStoreIndexFollowsMultiValuedWrites(t *testing.T) {
	s := NewThreadSafeStore(commaIndexers(), Indices{})
	steps := []struct {
		write func()
		want  map[string][]string
	}{
		{func() { s.Add("key1", "foo"); s.Add("key2", "bar") }, map[string][]string{"foo": {"key1"}, "bar": {"key2"}, "baz": {}}},
		{func() { s.Update("key2", "foo,bar") }, map[string][]string{"foo": {"key1", "key2"}, "bar": {"key2"}, "baz": {}}},
		{func() { s.Update("key1", "foo,bar") }, map[string][]string{"foo": {"key1", "key2"}, "bar": {"key1", "key2"}, "baz": {}}},
		{func() { s.Add("key3", "foo,bar,baz") }, map[string][]string{"foo": {"key1", "key2", "key3"}, "bar": {"key1", "key2", "key3"}, "baz": {"key3"}}},
		{func() { s.Update("key1", "foo") }, map[string][]string{"foo": {"key1", "key2", "key3"}, "bar": {"key2", "key3"}, "baz": {"key3"}}},
		{func() { s.Update("key2", "bar") }, map[string][]string{"foo": {"key1", "key3"}, "bar": {"key2", "key3"}, "baz": {"key3"}}},
		{func() { s.Delete("key1") }, map[string][]string{"foo": {"key3"}, "bar": {"key2", "key3"}, "baz": {"key3"}}},
		{func() { s.Delete("key3") }, map[string][]string{"foo": {}, "bar": {"key2"}, "baz": {}}},
	}
	for i, step := range steps {
		step.write()
		got := indexKeysOf(t, s, "foo", "bar", "baz")
		for v, want := range step.want {
			if !slices.Equal(got[v], want) && (len(got[v]) != 0 || len(want) != 0) {
				t.Errorf("step %d: IndexKeys(by, %s) = %v, want %v", i, v, got[v], want)
			}
		}
	}
	vals := s.ListIndexFuncValues("by")
	slices.Sort(vals)
	if !slices.Equal(vals, []string{"bar"}) {
		t.Errorf("ListIndexFuncValues = %v, want only the value still held: [bar]", vals)
	}
	if vals := s.ListIndexFuncValues("nope"); vals == nil || len(vals) != 0 {
		t.Errorf("ListIndexFuncValues of an unknown index = %#v, want empty (not nil)", vals)
	}
}

func rvObject(rv string) *metav1.ObjectMeta { return &metav1.ObjectMeta{ResourceVersion: rv} }

// Upstream's TestThreadSafeStoreRV: the resourceVersion of the last write
// that carried one.
func TestThreadSafeStoreRecordsTheResourceVersionOfEachWrite(t *testing.T) {
	s := NewThreadSafeStore(Indexers{}, Indices{})
	steps := []struct {
		name  string
		write func()
		want  string
	}{
		{"initial", func() {}, ""},
		{"add", func() { s.Add("key1", rvObject("10")) }, "10"},
		{"add same rv", func() { s.Add("key3", rvObject("10")) }, "10"},
		{"add newer", func() { s.Add("key4", rvObject("20")) }, "20"},
		{"delete with a newer object", func() { s.DeleteWithObject("key4", rvObject("30")) }, "30"},
		{"add without metadata", func() { s.Add("key5", "just a string") }, "30"},
		{"update", func() { s.Update("key6", rvObject("40")) }, "40"},
		{"delete without object", func() { s.Delete("key6") }, "40"},
		{"replace", func() { s.Replace(map[string]any{"a": rvObject("1")}, "50") }, "50"},
		{"bookmark", func() { s.Bookmark("60") }, "60"},
		{"replace with empty rv", func() { s.Replace(map[string]any{}, "") }, ""},
	}
	for _, step := range steps {
		step.write()
		if got := s.LastStoreSyncResourceVersion(); got != step.want {
			t.Errorf("after %s: LastStoreSyncResourceVersion = %q, want %q", step.name, got, step.want)
		}
	}
}

func TestThreadSafeStoreReadsAndReplace(t *testing.T) {
	s := NewThreadSafeStore(commaIndexers(), Indices{})
	s.Add("a", "x,y")
	s.Add("b", "y")
	s.Replace(map[string]any{"c": "y,z", "d": "w"}, "7")
	if _, ok := s.Get("a"); ok {
		t.Error("Replace kept a key missing from its items")
	}
	if obj, ok := s.Get("c"); !ok || obj != "y,z" {
		t.Errorf("Get(c) = %v, %v", obj, ok)
	}
	keys := s.ListKeys()
	slices.Sort(keys)
	if !slices.Equal(keys, []string{"c", "d"}) {
		t.Errorf("ListKeys = %v", keys)
	}
	if len(s.List()) != 2 {
		t.Errorf("List = %v", s.List())
	}
	byY, err := s.ByIndex("by", "y")
	if err != nil || !slices.Equal(byY, []any{"y,z"}) {
		t.Errorf("ByIndex(by, y) = %v, %v", byY, err)
	}
	idx, err := s.Index("by", "z,w")
	slices.SortFunc(idx, func(a, b any) int { return strings.Compare(a.(string), b.(string)) })
	if err != nil || !slices.Equal(idx, []any{"w", "y,z"}) {
		t.Errorf("Index(by, z,w) = %v, %v", idx, err)
	}
	if _, err := s.ByIndex("nope", "y"); err == nil {
		t.Error("ByIndex of an unknown index did not fail")
	}
}

func TestThreadSafeStoreAddIndexersIndexesTheStoredObjects(t *testing.T) {
	s := NewThreadSafeStore(commaIndexers(), Indices{})
	s.Add("c", "y,z")
	s.Add("d", "w")
	if err := s.AddIndexers(Indexers{"len": func(obj any) ([]string, error) { return []string{fmt.Sprint(len(obj.(string)))}, nil }}); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.IndexKeys("len", "3"); !slices.Equal(got, []string{"c"}) {
		t.Errorf("an index added later does not index the stored objects: %v", got)
	}
	if err := s.AddIndexers(Indexers{"len": nil}); err == nil {
		t.Error("AddIndexers accepted a name already installed")
	}
	if _, ok := s.GetIndexers()["len"]; !ok || s.Resync() != nil {
		t.Error("GetIndexers lacks the added index, or Resync failed")
	}
}

func TestThreadSafeStorePanicsLikeClientGoWhenAnIndexFunctionFails(t *testing.T) {
	tests := []struct {
		name  string
		write func(ThreadSafeStore)
		want  string
	}{
		{"add", func(s ThreadSafeStore) { s.Add("k", 42) }, `unable to calculate an index entry for key "k" on index "by": not a string: int`},
		{"update", func(s ThreadSafeStore) { s.Update("k", 42) }, `unable to calculate an index entry for key "k" on index "by": not a string: int`},
		{"replace", func(s ThreadSafeStore) { s.Replace(map[string]any{"k": 42}, "1") }, `unable to calculate an index entry for key "k" on index "by": not a string: int`},
		{"nil object", func(s ThreadSafeStore) { s.Add("k", nil) }, `cache: ThreadSafeStore cannot store a nil object (key "k")`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := NewThreadSafeStore(commaIndexers(), Indices{})
			s.Add("old", "a")
			got := func() (msg string) {
				defer func() { msg = fmt.Sprint(recover()) }()
				tt.write(s)
				return "no panic"
			}()
			if got != tt.want {
				t.Errorf("panic = %q, want %q", got, tt.want)
			}
			if keys := s.ListKeys(); !slices.Equal(keys, []string{"old"}) {
				t.Errorf("a failed write changed the store: keys %v", keys)
			}
		})
	}
}

func TestThreadSafeStoreConcurrentWritersAndReaders(t *testing.T) {
	s := NewThreadSafeStore(commaIndexers(), Indices{})
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 200 {
				key := fmt.Sprintf("%d-%d", w, i%10)
				s.Update(key, fmt.Sprintf("v%d,w%d", i%3, w))
				_, _ = s.ByIndex("by", "v1")
				if i%7 == 0 {
					s.Delete(key)
				}
			}
		}()
	}
	wg.Wait()
	for _, key := range s.ListKeys() {
		obj, ok := s.Get(key)
		if !ok {
			t.Fatalf("listed key %s is absent", key)
		}
		for _, v := range strings.Split(obj.(string), ",") {
			keys, _ := s.IndexKeys("by", v)
			if !slices.Contains(keys, key) {
				t.Errorf("%s holds %s but is not filed under it", key, v)
			}
		}
	}
}
