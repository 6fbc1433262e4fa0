package store

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// TestObjectTableMatchesModel inserts and removes keys at random (so probe
// runs wrap around the table end and backward shifts happen) and checks
// every lookup against a map.
func TestObjectTableMatchesModel(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	tab := newObjectTable(0)
	model := map[string]int{}
	for step := range 50000 {
		key := fmt.Sprint("k", rng.IntN(3000))
		id, ok := tab.lookup(key)
		_, want := model[key]
		if ok != want {
			t.Fatalf("step %d: lookup(%q) found=%v, want %v", step, key, ok, want)
		}
		if ok {
			if got := tab.at(id).obj.(int); got != model[key] {
				t.Fatalf("step %d: lookup(%q) = %d, want %d", step, key, got, model[key])
			}
			if rng.IntN(2) == 0 {
				tab.remove(id)
				delete(model, key)
			} else {
				tab.at(id).obj = step
				model[key] = step
			}
		} else {
			tab.insert(key, step)
			model[key] = step
		}
		if tab.len() != len(model) {
			t.Fatalf("step %d: len = %d, want %d", step, tab.len(), len(model))
		}
	}
	seen := 0
	tab.each(func(_ uint32, e *entry) bool {
		if model[e.key] != e.obj.(int) {
			t.Fatalf("each: %q = %v, want %v", e.key, e.obj, model[e.key])
		}
		seen++
		return true
	})
	if seen != len(model) {
		t.Fatalf("each visited %d entries, want %d", seen, len(model))
	}
}
