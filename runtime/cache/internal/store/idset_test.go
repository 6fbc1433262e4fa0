package store

import (
	"math/rand/v2"
	"slices"
	"testing"
)

func members(s idSet) []uint32 {
	var out []uint32
	s.all(func(id uint32) bool {
		out = append(out, id)
		return true
	})
	slices.Sort(out)
	return out
}

// TestIDSetMatchesModelAcrossRepresentations grows sets through the inline,
// list and table forms and shrinks them back, checking membership each step.
func TestIDSetMatchesModelAcrossRepresentations(t *testing.T) {
	tests := []struct {
		name     string
		universe int
		steps    int
	}{
		{"small universe stays inline or list", 3, 200},
		{"medium crosses list and table", 40, 4000},
		{"large grows and shrinks tables", 3000, 30000},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(7, uint64(tc.universe)))
			var s idSet
			model := map[uint32]bool{}
			for step := range tc.steps {
				id := uint32(rng.IntN(tc.universe))
				// Bias towards growth for the first half, shrinking after.
				add := rng.IntN(10) < 7
				if step > tc.steps/2 {
					add = !add
				}
				if add {
					s.add(id)
					model[id] = true
				} else {
					s.remove(id)
					delete(model, id)
				}
				if s.len() != len(model) {
					t.Fatalf("step %d: len = %d, want %d", step, s.len(), len(model))
				}
				if s.has(id) != model[id] {
					t.Fatalf("step %d: has(%d) = %v, want %v", step, id, s.has(id), model[id])
				}
			}
			want := make([]uint32, 0, len(model))
			for id := range model {
				want = append(want, id)
			}
			slices.Sort(want)
			if got := members(s); !slices.Equal(got, want) {
				t.Fatalf("members = %v, want %v", got, want)
			}
		})
	}
}

func TestIDSetSingleMemberDoesNotAllocate(t *testing.T) {
	var s idSet
	allocs := testing.AllocsPerRun(100, func() {
		s.add(7)
		s.add(7)
		s.remove(7)
	})
	if allocs != 0 {
		t.Fatalf("single-member set allocated %v times per run", allocs)
	}
}

func TestIDSetStopsIterationWhenYieldReturnsFalse(t *testing.T) {
	for _, n := range []int{1, 5, 100} {
		var s idSet
		for i := range n {
			s.add(uint32(i))
		}
		calls := 0
		s.all(func(uint32) bool { calls++; return false })
		if calls != 1 {
			t.Fatalf("n=%d: yield called %d times after returning false", n, calls)
		}
	}
}
