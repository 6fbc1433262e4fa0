package ring

import (
	"slices"
	"testing"
)

// After an outage of the API server longer than LeaseDuration (every
// Lease write fails, so every member loses its Lease and narrows to
// nothing), each member takes its own share back, even the one that
// reaches the server seconds before the others: none counts the others
// expired for the time it could not see them, so none claims the whole
// space, relists it and hands it back. Ranges stay disjoint throughout
// (the harness checks every Set).
func TestAfterAnOutageEachMemberTakesItsOwnShareBack(t *testing.T) {
	tests := []struct {
		name   string
		rounds int // of the outage, one second each; LeaseDuration is 15s
		// alone is how many rounds r0 writes again before the others do.
		alone int
	}{
		{name: "outage of 20s, all back at once", rounds: 20},
		{name: "outage of 20s, r0 back 5s earlier", rounds: 20, alone: 5},
		{name: "outage of 60s, r0 back 5s earlier", rounds: 60, alone: 5},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t)
			rs := startReplicas(h, 3)
			h.converge(rs, 10)
			before := map[string]Ranges{}
			for id := range rs {
				before[id] = h.held(id)
			}
			setBlocked(h, rs, true)
			for range tt.rounds {
				h.round(rs)
			}
			for id := range rs {
				if !h.held(id).Empty() {
					t.Fatalf("%s still holds %v after the outage, want nothing", id, h.held(id))
				}
			}
			setBlocked(h, rs, false, "r0")
			for range tt.alone {
				h.round(rs)
				if extra := h.held("r0").Subtract(before["r0"]); !extra.Empty() {
					t.Fatalf("r0, back first, took %.4f of the space, another member's share", extra.Fraction())
				}
			}
			setBlocked(h, rs, false)
			for n := 0; !h.converged(rs); n++ {
				if n == 20 {
					t.Fatal("not converged 20s after the outage")
				}
				h.round(rs)
				for id := range rs {
					if extra := h.held(id).Subtract(before[id]); !extra.Empty() {
						t.Fatalf("%s took %.4f of the space, another member's share, after the outage", id, extra.Fraction())
					}
				}
			}
		})
	}
}

// setBlocked makes the Lease writes of the members ids (all when none)
// fail (an outage) or succeed again.
func setBlocked(h *harness, rs map[string]*Replica, blocked bool, ids ...string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for id := range rs {
		if len(ids) == 0 || slices.Contains(ids, id) {
			h.blocked[leaseName(testRing, id)] = blocked
		}
	}
}
