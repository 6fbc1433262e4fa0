package ring

import (
	"fmt"
	"math"
	"testing"
)

func members(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("replica-%d", i)
	}
	return out
}

func TestAssignCoversTheSpaceDisjointly(t *testing.T) {
	for _, n := range []int{1, 2, 3, 10, 100} {
		got := Assign(members(n), DefaultVirtualNodes)
		var union Ranges
		total := 0.0
		for _, rs := range got {
			if !union.Intersect(rs).Empty() {
				t.Fatalf("n=%d: members overlap", n)
			}
			union = union.Union(rs)
			total += rs.Fraction()
		}
		if !union.Equal(Full()) || math.Abs(total-1) > 1e-9 {
			t.Errorf("n=%d: union %v (fraction %v), want the whole space", n, union, total)
		}
	}
}

func TestAssignDependsOnTheSetNotTheOrder(t *testing.T) {
	a := Assign([]string{"a", "b", "c"}, 16)
	b := Assign([]string{"c", "a", "b"}, 16)
	for m := range a {
		if !a[m].Equal(b[m]) {
			t.Errorf("member %s: %v vs %v", m, a[m], b[m])
		}
	}
}

// A join moves to the new member about 1/N of the space, all of it
// taken from the others; nothing moves between the old members.
func TestAssignJoinMovesOnlyWhatTheNewMemberTakes(t *testing.T) {
	for _, n := range []int{3, 10, 99} {
		before := Assign(members(n), DefaultVirtualNodes)
		all := members(n + 1)
		after := Assign(all, DefaultVirtualNodes)
		newcomer := all[n]
		moved := 0.0
		for _, m := range members(n) {
			moved += before[m].Subtract(after[m]).Fraction()
			if gained := after[m].Subtract(before[m]); !gained.Empty() {
				t.Errorf("n=%d: old member %s gained %v", n, m, gained)
			}
		}
		ideal := 1 / float64(n+1)
		if math.Abs(moved-after[newcomer].Fraction()) > 1e-9 || moved < ideal/2 || moved > ideal*2 {
			t.Errorf("n=%d: moved %.4f, newcomer holds %.4f; want about 1/N = %.4f", n, moved, after[newcomer].Fraction(), ideal)
		}
	}
}

func TestAssignSharesAreNearEqual(t *testing.T) {
	got := Assign(members(3), DefaultVirtualNodes)
	for m, rs := range got {
		if f := rs.Fraction(); f < 0.8/3 || f > 1.2/3 {
			t.Errorf("member %s holds %.3f, want about 1/3", m, f)
		}
		if n := len(rs); n > 2*DefaultVirtualNodes {
			t.Errorf("member %s has %d ranges, want at most %d", m, n, 2*DefaultVirtualNodes)
		}
	}
}
