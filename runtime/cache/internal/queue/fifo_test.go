package queue

import (
	"fmt"
	"slices"
	"testing"
)

// obj is a test object: its key and a version.
type obj struct{ key, v string }

func keyOf(o any) (string, error) {
	switch o := o.(type) {
	case obj:
		return o.key, nil
	case DeletedFinalStateUnknown:
		return o.Key, nil
	}
	return "", fmt.Errorf("no key for %T", o)
}

// mapCache is a CacheReader over a map, applied to by apply.
type mapCache map[string]any

func (c mapCache) ListKeys() []string {
	keys := make([]string, 0, len(c))
	for k := range c {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

func (c mapCache) GetByKey(key string) (any, bool, error) { o, ok := c[key]; return o, ok, nil }
func (c mapCache) PeekByKey(key string) (any, bool)       { o, ok := c[key]; return o, ok }
func (c mapCache) Len() int                               { return len(c) }

// apply stores what b holds, as an informer does.
func (c mapCache) apply(b Batch) {
	for _, p := range b.Items {
		newest := p.Deltas.Newest()
		if newest.Type == Deleted {
			delete(c, p.Key)
			continue
		}
		c[p.Key] = newest.Object
	}
}

// popped is one batch as the test sees it.
type popped struct {
	keys        []string
	types       [][]DeltaType
	replacedAll bool
}

func popOne(t *testing.T, f *FIFO, c mapCache, max int) popped {
	t.Helper()
	var got popped
	if _, err := f.PopBatch(max, func(b Batch) {
		got.replacedAll = b.ReplacedAll
		for _, p := range b.Items {
			got.keys = append(got.keys, p.Key)
			var types []DeltaType
			for _, d := range p.Deltas {
				types = append(types, d.Type)
			}
			got.types = append(got.types, types)
		}
		c.apply(b)
	}); err != nil {
		t.Fatal(err)
	}
	return got
}

// A relist after the first list leaves the queue as one batch flagged
// ReplacedAll, with a tombstone for every key it lacks; the first list
// and watch events are not flagged.
func TestFIFOPopsARelistAsOneReplacedAllBatch(t *testing.T) {
	tests := []struct {
		name   string
		before func(f *FIFO) // after the first list was applied
		max    int
		want   popped
	}{
		{
			name: "relist with a vanished key",
			before: func(f *FIFO) {
				mustNoErr(t, f.Replace([]any{obj{"a", "2"}}, "2"))
			},
			max:  1 << 10,
			want: popped{keys: []string{"a", "b"}, types: [][]DeltaType{{Replaced}, {Deleted}}, replacedAll: true},
		},
		{
			name: "relist behind a queued watch event, max smaller than the unit",
			before: func(f *FIFO) {
				mustNoErr(t, f.Update(obj{"c", "1"}))
				mustNoErr(t, f.Replace([]any{obj{"a", "2"}, obj{"b", "2"}}, "2"))
			},
			max: 2,
			want: popped{keys: []string{"c", "a", "b"}, types: [][]DeltaType{{Updated, Deleted}, {Replaced}, {Replaced}},
				replacedAll: true},
		},
		{
			name:   "watch events only",
			before: func(f *FIFO) { mustNoErr(t, f.Update(obj{"a", "2"})); mustNoErr(t, f.Delete(obj{"b", "1"})) },
			max:    1 << 10,
			want:   popped{keys: []string{"a", "b"}, types: [][]DeltaType{{Updated}, {Deleted}}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := mapCache{}
			f := New(c, nil, Config{KeyOf: keyOf})
			mustNoErr(t, f.Replace([]any{obj{"a", "1"}, obj{"b", "1"}}, "1"))
			if first := popOne(t, f, c, 1<<10); first.replacedAll || len(first.keys) != 2 {
				t.Fatalf("first list popped as %+v, want 2 keys not flagged ReplacedAll", first)
			}
			if !f.HasSynced() {
				t.Fatal("not synced after the first list was applied")
			}
			tt.before(f)
			got := popOne(t, f, c, tt.max)
			if !slices.Equal(got.keys, tt.want.keys) || got.replacedAll != tt.want.replacedAll ||
				fmt.Sprint(got.types) != fmt.Sprint(tt.want.types) {
				t.Errorf("popped %+v, want %+v", got, tt.want)
			}
			if f.Len() != 0 {
				t.Errorf("%d keys left after the batch, want 0", f.Len())
			}
		})
	}
}

// The compactor is given the previous version of the key as its hint:
// the queued one, else the cached one.
func TestFIFOCompactsAgainstThePreviousVersion(t *testing.T) {
	c := mapCache{"a": obj{"a", "1"}}
	var hints []any
	f := New(c, func(o, hint any) any { hints = append(hints, hint); return o }, Config{KeyOf: keyOf})
	mustNoErr(t, f.Update(obj{"a", "2"}))
	mustNoErr(t, f.Update(obj{"a", "3"}))
	mustNoErr(t, f.Add(obj{"b", "1"}))
	want := []any{obj{"a", "1"}, obj{"a", "2"}, nil}
	if fmt.Sprint(hints) != fmt.Sprint(want) {
		t.Errorf("hints %v, want %v", hints, want)
	}
}

func mustNoErr(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
