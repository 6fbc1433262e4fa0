package cache

import (
	"slices"
	"sync"
	"testing"
)

// Upstream's TestUpdateCallsPush, TestDeleteCallsPush, TestReadsDoNotCallPush
// and TestReplaceCallsPush: every write pushes the whole content once;
// reads push nothing; a failed write pushes nothing.
func TestUndeltaStorePushesTheContentAfterEveryWrite(t *testing.T) {
	tests := []struct {
		name  string
		write func(s *UndeltaStore) error
		want  []pair // nil: no push
	}{
		{"add", func(s *UndeltaStore) error { return s.Add(pair{"b", "2"}) }, []pair{{"a", "1"}, {"b", "2"}}},
		{"update", func(s *UndeltaStore) error { return s.Update(pair{"a", "9"}) }, []pair{{"a", "9"}}},
		{"delete", func(s *UndeltaStore) error { return s.Delete(pair{"a", ""}) }, []pair{}},
		{"replace", func(s *UndeltaStore) error { return s.Replace([]any{pair{"c", "3"}}, "5") }, []pair{{"c", "3"}}},
		{"reads", func(s *UndeltaStore) error {
			s.List()
			s.ListKeys()
			_, _, _ = s.Get(pair{"a", ""})
			_, _, _ = s.GetByKey("a")
			return nil
		}, nil},
		{"failed add", func(s *UndeltaStore) error { _ = s.Add(42); return nil }, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var mu sync.Mutex
			var pushes [][]any
			s := NewUndeltaStore(func(content []any) {
				mu.Lock()
				defer mu.Unlock()
				pushes = append(pushes, content)
			}, pairKey)
			if err := s.Store.Add(pair{"a", "1"}); err != nil { // the inner store: no push
				t.Fatal(err)
			}
			if err := tt.write(s); err != nil {
				t.Fatal(err)
			}
			if tt.want == nil {
				if len(pushes) != 0 {
					t.Errorf("pushed %v, want no push", pushes)
				}
				return
			}
			if len(pushes) != 1 {
				t.Fatalf("pushed %d times, want once", len(pushes))
			}
			got := make([]pair, 0, len(pushes[0]))
			for _, obj := range pushes[0] {
				got = append(got, obj.(pair))
			}
			slices.SortFunc(got, func(x, y pair) int { return cmpString(x.id, y.id) })
			if !slices.Equal(got, tt.want) {
				t.Errorf("pushed %v, want %v", got, tt.want)
			}
		})
	}
}
