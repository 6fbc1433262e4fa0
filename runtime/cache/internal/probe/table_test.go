package probe

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// probeHas reports whether t stores slot s, walking its probe run as the
// owners' lookups do.
func probeHas[S Slot](t *Table[S], s S) bool {
	for i, c := t.First(Tag(s)); c != 0; i, c = t.Next(i) {
		if c == s {
			return true
		}
	}
	return false
}

// probeTableModelCase is one randomized run of a Table against a map.
type probeTableModelCase struct {
	name     string
	sizing   Sizing
	universe int // distinct values drawn
	steps    int
	tagBits  uint // the low tagBits of the tag vary, forcing collisions when small
}

var probeTableModelCases = []probeTableModelCase{
	{"key table, few values", KeySizing, 10, 2000, 32},
	{"key table, grows past many doublings", KeySizing, 5000, 60000, 32},
	{"key table, colliding tags", KeySizing, 2000, 30000, 3},
	{"id table", IDSizing, 3000, 40000, 32},
	{"id table, dense load", Sizing{MinBits: 1, MaxLoad: 15}, 500, 20000, 32},
}

// slotOf64 builds the 64-bit slot of value v (v >= 0) as the key tables
// do: a tag in the high half, v+1 in the low half.
func slotOf64(v int, tagBits uint) uint64 {
	tag := uint32(uint64(v)*0x9E3779B97F4A7C15>>32) & (1<<tagBits - 1)
	return uint64(tag)<<32 | uint64(v+1)
}

// TestProbeTableMatchesMap inserts, removes and finds slots at random, with
// growth, shrinking, clears and drops, and checks every answer and the
// final contents against a Go map.
func TestProbeTableMatchesMap(t *testing.T) {
	for seed, tc := range probeTableModelCases {
		t.Run(tc.name+"/uint64", func(t *testing.T) {
			runProbeTableModel(t, tc, uint64(seed), func(v int) uint64 { return slotOf64(v, tc.tagBits) })
		})
		t.Run(tc.name+"/uint32", func(t *testing.T) {
			runProbeTableModel(t, tc, uint64(seed), func(v int) uint32 { return uint32(v + 1) })
		})
	}
}

func runProbeTableModel[S Slot](t *testing.T, tc probeTableModelCase, seed uint64, slotOf func(int) S) {
	rng := rand.New(rand.NewPCG(seed, uint64(tc.universe)))
	tab := New[S](tc.sizing, 0)
	model := map[S]bool{}
	for step := range tc.steps {
		v := rng.IntN(tc.universe)
		s := slotOf(v)
		// Grow during the first half, shrink during the second.
		grow := rng.IntN(10) < 6
		if step > tc.steps/2 {
			grow = !grow
		}
		switch op := rng.IntN(100); {
		case op == 0 && step%7 == 0:
			tab.Clear()
			clear(model)
		case op == 1 && step%7 == 0:
			tab.Drop()
			clear(model)
		case op == 2:
			tab.Fit()
		case grow:
			if probeHas(&tab, s) != model[s] {
				t.Fatalf("step %d: has(%#x) = %v, want %v", step, s, !model[s], model[s])
			}
			switch {
			case model[s]:
				if tab.Add(s) {
					t.Fatalf("step %d: add(%#x) stored a present slot", step, s)
				}
			case rng.IntN(2) == 0:
				tab.Insert(s)
			default:
				if !tab.Add(s) {
					t.Fatalf("step %d: add(%#x) did not store a new slot", step, s)
				}
			}
			model[s] = true
		default:
			if got := tab.Remove(s); got != model[s] {
				t.Fatalf("step %d: remove(%#x) = %v, want %v", step, s, got, model[s])
			}
			delete(model, s)
		}
		if tab.Len() != len(model) {
			t.Fatalf("step %d: len = %d, want %d", step, tab.Len(), len(model))
		}
		if n := tab.Len(); n > 0 && n*16 > tab.Size()*int(tc.sizing.MaxLoad) {
			t.Fatalf("step %d: %d slots in %d positions exceed load %d/16", step, n, tab.Size(), tc.sizing.MaxLoad)
		}
		// The probe run of a tag holds every slot with the tag.
		probe := slotOf(rng.IntN(tc.universe))
		found := false
		for i, c := tab.First(Tag(probe)); c != 0; i, c = tab.Next(i) {
			found = found || c == probe
		}
		if found != model[probe] {
			t.Fatalf("step %d: probe run of %#x holds it: %v, want %v", step, probe, found, model[probe])
		}
	}
	var want, got []S
	for s := range model {
		want = append(want, s)
	}
	for _, s := range tab.Positions() {
		if s != 0 {
			got = append(got, s)
		}
	}
	slices.Sort(want)
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Fatalf("all = %d slots, want %d (%v vs %v)", len(got), len(want), got, want)
	}
}

// TestProbeTableSizing checks the sizes the policy gives.
func TestProbeTableSizing(t *testing.T) {
	tests := []struct {
		name   string
		sizing Sizing
		n      int
		want   int
	}{
		{"key table, empty", KeySizing, 0, 16},
		{"key table, at the load limit", KeySizing, 13, 16},
		{"key table, just past it", KeySizing, 14, 32},
		{"key table, large", KeySizing, 100_000, 131072},
		{"id table, empty", IDSizing, 0, 32},
		{"id table, at the load limit", IDSizing, 24, 32},
		{"id table, just past it", IDSizing, 25, 64},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tab := New[uint64](tt.sizing, 0)
			if got := tab.sizeFor(tt.n); got != tt.want {
				t.Fatalf("sizeFor(%d) = %d, want %d", tt.n, got, tt.want)
			}
			tab.Reserve(tt.n)
			if tt.n == 0 && tab.Size() != 0 {
				t.Fatalf("reserve(0) allocated %d positions", tab.Size())
			}
			if tt.n > 0 && tab.Size() != tt.want {
				t.Fatalf("reserve(%d) allocated %d positions, want %d", tt.n, tab.Size(), tt.want)
			}
		})
	}
}

// TestProbeTableRemoveWrapsAround fills the positions at the end of a table
// and past its start with one home, then removes them one by one: the
// backward shift must move slots across the wrap.
func TestProbeTableRemoveWrapsAround(t *testing.T) {
	tab := New[uint64](KeySizing, 1)
	last := tab.Size() - 1
	// A tag whose home is the last position.
	var tag uint32
	for tab.home(tag) != last {
		tag++
	}
	slots := make([]uint64, 6)
	for i := range slots {
		slots[i] = uint64(tag)<<32 | uint64(i+1)
		tab.Insert(slots[i])
	}
	for i, s := range slots {
		if !tab.Remove(s) {
			t.Fatalf("remove(%#x) found nothing", s)
		}
		for _, rest := range slots[i+1:] {
			if !probeHas(&tab, rest) {
				t.Fatalf("after removing %d slots, %#x is lost", i+1, rest)
			}
		}
		if tab.slots[last] == 0 && tab.Len() > 0 {
			t.Fatalf("after removing %d slots, the home position is empty while %d slots remain", i+1, tab.Len())
		}
	}
	if tab.Len() != 0 || slices.ContainsFunc(tab.slots, func(s uint64) bool { return s != 0 }) {
		t.Fatalf("table not empty: len %d, slots %v", tab.Len(), tab.slots)
	}
}

// TestProbeTableAdd checks that add stores a slot once, and grows the
// table only for a new slot.
func TestProbeTableAdd(t *testing.T) {
	tab := New[uint32](IDSizing, 0)
	for i := range uint32(24) {
		if !tab.Add(i + 1) {
			t.Fatalf("add(%d) of a new slot reported false", i+1)
		}
	}
	if tab.Size() != 32 {
		t.Fatalf("24 slots in %d positions, want 32", tab.Size())
	}
	// At the load limit: adding a present slot must neither store nor grow.
	if tab.Add(5) || tab.Len() != 24 || tab.Size() != 32 {
		t.Fatalf("add of a present slot: len %d, size %d", tab.Len(), tab.Size())
	}
	if !tab.Add(100) || tab.Len() != 25 || tab.Size() != 64 || !probeHas(&tab, 100) {
		t.Fatalf("add past the load limit: len %d, size %d", tab.Len(), tab.Size())
	}
}

// TestProbeTableDropKeepsSizing checks that a dropped table releases its
// positions and grows again under the same policy.
func TestProbeTableDropKeepsSizing(t *testing.T) {
	tab := New[uint32](IDSizing, 100)
	tab.Insert(5)
	tab.Drop()
	if tab.Size() != 0 || tab.Len() != 0 || probeHas(&tab, 5) {
		t.Fatalf("dropped table: size %d, len %d", tab.Size(), tab.Len())
	}
	tab.Insert(5)
	if tab.Size() != 32 || !probeHas(&tab, 5) {
		t.Fatalf("table regrown to %d positions (has 5: %v), want 32", tab.Size(), probeHas(&tab, 5))
	}
}

func TestProbeTableOperationsDoNotAllocate(t *testing.T) {
	tab := New[uint64](KeySizing, 64)
	for i := range 40 {
		tab.Insert(slotOf64(i, 32))
	}
	probe := slotOf64(7, 32)
	allocs := testing.AllocsPerRun(100, func() {
		if !tab.Remove(probe) {
			t.Fatal("missing slot")
		}
		tab.Insert(probe)
		if !probeHas(&tab, probe) || tab.Add(probe) {
			t.Fatal("slot lost")
		}
	})
	if allocs != 0 {
		t.Fatalf("remove, insert and find allocated %v times per run", allocs)
	}
}
