package cache

import "testing"

func TestObjectHasKey(t *testing.T) {
	tests := []struct {
		name string
		obj  any
		key  string
		want bool
	}{
		{"namespaced", testObject("ns", "a", "1"), "ns/a", true},
		{"other name", testObject("ns", "a", "1"), "ns/b", false},
		{"other namespace", testObject("ns", "a", "1"), "nt/a", false},
		{"name only for a namespaced object", testObject("ns", "a", "1"), "a", false},
		{"separator moved", testObject("ns", "a/b", "1"), "ns/a/b", true},
		{"separator elsewhere", testObject("n", "s/a", "1"), "ns/a", false},
		{"cluster-scoped", testObject("", "a", "1"), "a", true},
		{"cluster-scoped with a namespace key", testObject("", "a", "1"), "/a", false},
		{"tombstone", DeletedFinalStateUnknown{Key: "ns/a", Obj: testObject("ns", "b", "1")}, "ns/a", true},
		{"tombstone of another key", DeletedFinalStateUnknown{Key: "ns/b"}, "ns/a", false},
		{"explicit key", ExplicitKey("ns/a"), "ns/a", true},
		{"no metadata", 42, "42", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := objectHasKey(tt.obj, tt.key); got != tt.want {
				t.Fatalf("objectHasKey(%v, %q) = %v, want %v", tt.obj, tt.key, got, tt.want)
			}
		})
	}
}
