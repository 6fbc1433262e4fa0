package cache

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// probeHas reports whether t stores slot s, walking its probe run as the
// owners' lookups do.
func probeHas[S probeSlot](t *probeTable[S], s S) bool {
	for i, c := t.first(probeTag(s)); c != 0; i, c = t.next(i) {
		if c == s {
			return true
		}
	}
	return false
}

// probeTableModelCase is one randomized run of a probeTable against a map.
type probeTableModelCase struct {
	name     string
	sizing   probeSizing
	universe int // distinct values drawn
	steps    int
	tagBits  uint // the low tagBits of the tag vary, forcing collisions when small
}

var probeTableModelCases = []probeTableModelCase{
	{"key table, few values", keyTableSizing, 10, 2000, 32},
	{"key table, grows past many doublings", keyTableSizing, 5000, 60000, 32},
	{"key table, colliding tags", keyTableSizing, 2000, 30000, 3},
	{"id table", idTableSizing, 3000, 40000, 32},
	{"id table, dense load", probeSizing{minBits: 1, maxLoad: 15}, 500, 20000, 32},
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

func runProbeTableModel[S probeSlot](t *testing.T, tc probeTableModelCase, seed uint64, slotOf func(int) S) {
	rng := rand.New(rand.NewPCG(seed, uint64(tc.universe)))
	tab := newProbeTable[S](tc.sizing, 0)
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
			tab.clear()
			clear(model)
		case op == 1 && step%7 == 0:
			tab.drop()
			clear(model)
		case op == 2:
			tab.fit()
		case grow:
			if probeHas(&tab, s) != model[s] {
				t.Fatalf("step %d: has(%#x) = %v, want %v", step, s, !model[s], model[s])
			}
			switch {
			case model[s]:
				if tab.add(s) {
					t.Fatalf("step %d: add(%#x) stored a present slot", step, s)
				}
			case rng.IntN(2) == 0:
				tab.insert(s)
			default:
				if !tab.add(s) {
					t.Fatalf("step %d: add(%#x) did not store a new slot", step, s)
				}
			}
			model[s] = true
		default:
			if got := tab.remove(s); got != model[s] {
				t.Fatalf("step %d: remove(%#x) = %v, want %v", step, s, got, model[s])
			}
			delete(model, s)
		}
		if tab.len() != len(model) {
			t.Fatalf("step %d: len = %d, want %d", step, tab.len(), len(model))
		}
		if n := tab.len(); n > 0 && n*16 > tab.size()*int(tc.sizing.maxLoad) {
			t.Fatalf("step %d: %d slots in %d positions exceed load %d/16", step, n, tab.size(), tc.sizing.maxLoad)
		}
		// The probe run of a tag holds every slot with the tag.
		probe := slotOf(rng.IntN(tc.universe))
		found := false
		for i, c := tab.first(probeTag(probe)); c != 0; i, c = tab.next(i) {
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
	for _, s := range tab.positions() {
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
		sizing probeSizing
		n      int
		want   int
	}{
		{"key table, empty", keyTableSizing, 0, 16},
		{"key table, at the load limit", keyTableSizing, 13, 16},
		{"key table, just past it", keyTableSizing, 14, 32},
		{"key table, large", keyTableSizing, 100_000, 131072},
		{"id table, empty", idTableSizing, 0, 32},
		{"id table, at the load limit", idTableSizing, 24, 32},
		{"id table, just past it", idTableSizing, 25, 64},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tab := newProbeTable[uint64](tt.sizing, 0)
			if got := tab.sizeFor(tt.n); got != tt.want {
				t.Fatalf("sizeFor(%d) = %d, want %d", tt.n, got, tt.want)
			}
			tab.reserve(tt.n)
			if tt.n == 0 && tab.size() != 0 {
				t.Fatalf("reserve(0) allocated %d positions", tab.size())
			}
			if tt.n > 0 && tab.size() != tt.want {
				t.Fatalf("reserve(%d) allocated %d positions, want %d", tt.n, tab.size(), tt.want)
			}
		})
	}
}

// TestProbeTableRemoveWrapsAround fills the positions at the end of a table
// and past its start with one home, then removes them one by one: the
// backward shift must move slots across the wrap.
func TestProbeTableRemoveWrapsAround(t *testing.T) {
	tab := newProbeTable[uint64](keyTableSizing, 1)
	last := tab.size() - 1
	// A tag whose home is the last position.
	var tag uint32
	for tab.home(tag) != last {
		tag++
	}
	slots := make([]uint64, 6)
	for i := range slots {
		slots[i] = uint64(tag)<<32 | uint64(i+1)
		tab.insert(slots[i])
	}
	for i, s := range slots {
		if !tab.remove(s) {
			t.Fatalf("remove(%#x) found nothing", s)
		}
		for _, rest := range slots[i+1:] {
			if !probeHas(&tab, rest) {
				t.Fatalf("after removing %d slots, %#x is lost", i+1, rest)
			}
		}
		if tab.slots[last] == 0 && tab.len() > 0 {
			t.Fatalf("after removing %d slots, the home position is empty while %d slots remain", i+1, tab.len())
		}
	}
	if tab.len() != 0 || slices.ContainsFunc(tab.slots, func(s uint64) bool { return s != 0 }) {
		t.Fatalf("table not empty: len %d, slots %v", tab.len(), tab.slots)
	}
}

// TestProbeTableAdd checks that add stores a slot once, and grows the
// table only for a new slot.
func TestProbeTableAdd(t *testing.T) {
	tab := newProbeTable[uint32](idTableSizing, 0)
	for i := range uint32(24) {
		if !tab.add(i + 1) {
			t.Fatalf("add(%d) of a new slot reported false", i+1)
		}
	}
	if tab.size() != 32 {
		t.Fatalf("24 slots in %d positions, want 32", tab.size())
	}
	// At the load limit: adding a present slot must neither store nor grow.
	if tab.add(5) || tab.len() != 24 || tab.size() != 32 {
		t.Fatalf("add of a present slot: len %d, size %d", tab.len(), tab.size())
	}
	if !tab.add(100) || tab.len() != 25 || tab.size() != 64 || !probeHas(&tab, 100) {
		t.Fatalf("add past the load limit: len %d, size %d", tab.len(), tab.size())
	}
}

// TestProbeTableDropKeepsSizing checks that a dropped table releases its
// positions and grows again under the same policy.
func TestProbeTableDropKeepsSizing(t *testing.T) {
	tab := newProbeTable[uint32](idTableSizing, 100)
	tab.insert(5)
	tab.drop()
	if tab.size() != 0 || tab.len() != 0 || probeHas(&tab, 5) {
		t.Fatalf("dropped table: size %d, len %d", tab.size(), tab.len())
	}
	tab.insert(5)
	if tab.size() != 32 || !probeHas(&tab, 5) {
		t.Fatalf("table regrown to %d positions (has 5: %v), want 32", tab.size(), probeHas(&tab, 5))
	}
}

func TestProbeTableOperationsDoNotAllocate(t *testing.T) {
	tab := newProbeTable[uint64](keyTableSizing, 64)
	for i := range 40 {
		tab.insert(slotOf64(i, 32))
	}
	probe := slotOf64(7, 32)
	allocs := testing.AllocsPerRun(100, func() {
		if !tab.remove(probe) {
			t.Fatal("missing slot")
		}
		tab.insert(probe)
		if !probeHas(&tab, probe) || tab.add(probe) {
			t.Fatal("slot lost")
		}
	})
	if allocs != 0 {
		t.Fatalf("remove, insert and find allocated %v times per run", allocs)
	}
}
