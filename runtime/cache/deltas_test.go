package cache

import "testing"

func TestDeltasOldestAndNewestPickTheEnds(t *testing.T) {
	a := Delta{Type: Added, Object: testObject("ns", "a", "1")}
	b := Delta{Type: Updated, Object: testObject("ns", "a", "2")}
	tests := []struct {
		name           string
		d              Deltas
		oldest, newest *Delta
	}{
		{"empty", nil, nil, nil},
		{"one", Deltas{a}, &a, &a},
		{"two", Deltas{a, b}, &a, &b},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			check := func(what string, got, want *Delta) {
				t.Helper()
				switch {
				case want == nil && got != nil:
					t.Errorf("%s = %+v, want nil", what, *got)
				case want != nil && (got == nil || got.Type != want.Type || got.Object != want.Object):
					t.Errorf("%s = %v, want %+v", what, got, *want)
				}
			}
			check("Oldest", tt.d.Oldest(), tt.oldest)
			check("Newest", tt.d.Newest(), tt.newest)
		})
	}
}
