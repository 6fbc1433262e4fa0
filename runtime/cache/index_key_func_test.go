package cache

import (
	"errors"
	"testing"
)

func TestIndexFuncToKeyFuncAdapterKeysByTheOnlyIndexValue(t *testing.T) {
	failed := errors.New("index failed")
	for _, tc := range []struct {
		name    string
		values  []string
		err     error
		want    string
		wantErr string
	}{
		{name: "one value is the key", values: []string{"a"}, want: "a"},
		{name: "the index function's error", err: failed, wantErr: "index failed"},
		{name: "no value", values: []string{}, wantErr: "unexpected empty indexKeys"},
		{name: "two values", values: []string{"a", "b"}, wantErr: "too many keys: [a b]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			key := IndexFuncToKeyFuncAdapter(func(any) ([]string, error) { return tc.values, tc.err })
			got, err := key(nil)
			if tc.wantErr != "" {
				if err == nil || err.Error() != tc.wantErr {
					t.Fatalf("got (%q, %v), want error %q", got, err, tc.wantErr)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Fatalf("got (%q, %v), want %q", got, err, tc.want)
			}
		})
	}
}

func TestFakeCustomStoreCallsItsFunctionsOrReturnsZeroValues(t *testing.T) {
	var calls []string
	rec := func(name string) { calls = append(calls, name) }
	set := &FakeCustomStore{
		AddFunc:                          func(any) error { rec("Add"); return nil },
		UpdateFunc:                       func(any) error { rec("Update"); return nil },
		DeleteFunc:                       func(any) error { rec("Delete"); return nil },
		ListFunc:                         func() []any { rec("List"); return []any{1} },
		ListKeysFunc:                     func() []string { rec("ListKeys"); return []string{"k"} },
		GetFunc:                          func(any) (any, bool, error) { rec("Get"); return 1, true, nil },
		GetByKeyFunc:                     func(string) (any, bool, error) { rec("GetByKey"); return 1, true, nil },
		ReplaceFunc:                      func([]any, string) error { rec("Replace"); return nil },
		ResyncFunc:                       func() error { rec("Resync"); return nil },
		BookmarkFunc:                     func(string) { rec("Bookmark") },
		LastStoreSyncResourceVersionFunc: func() string { rec("LastStoreSyncResourceVersion"); return "7" },
	}
	exercise := func(s *FakeCustomStore) (list []any, keys []string, exists bool, rv string) {
		_ = s.Add(1)
		_ = s.Update(1)
		_ = s.Delete(1)
		list = s.List()
		keys = s.ListKeys()
		_, exists, _ = s.Get(1)
		_, _, _ = s.GetByKey("k")
		_ = s.Replace(nil, "1")
		_ = s.Resync()
		s.Bookmark("2")
		rv = s.LastStoreSyncResourceVersion()
		return
	}
	list, keys, exists, rv := exercise(set)
	want := []string{"Add", "Update", "Delete", "List", "ListKeys", "Get", "GetByKey", "Replace", "Resync", "Bookmark", "LastStoreSyncResourceVersion"}
	if len(calls) != len(want) || len(list) != 1 || len(keys) != 1 || !exists || rv != "7" {
		t.Fatalf("calls %v, list %v, keys %v, exists %v, rv %q", calls, list, keys, exists, rv)
	}
	for i := range want {
		if calls[i] != want[i] {
			t.Fatalf("calls %v, want %v", calls, want)
		}
	}
	list, keys, exists, rv = exercise(&FakeCustomStore{})
	if list != nil || keys != nil || exists || rv != "" {
		t.Fatalf("zero store: list %v, keys %v, exists %v, rv %q", list, keys, exists, rv)
	}
}
