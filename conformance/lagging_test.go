package conformance

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// TestLaggingHandlersConverge holds both handlers while thousands of
// changes and an expiry go by, far more than runtime/cache's in-order
// buffer holds, so its listener coalesces per key. Check still requires
// its states to be a subsequence of client-go's, its tombstones to be
// among the expected ones and both to end in the server's final state.
func TestLaggingHandlersConverge(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	keys := make([]string, 300)
	for i := range keys {
		keys[i] = fmt.Sprintf("lag/o%03d", i)
	}
	present := map[string]bool{}
	for _, k := range keys[:250] {
		present[k] = true
	}
	change := func() Change {
		k := keys[rng.IntN(len(keys))]
		if !present[k] {
			present[k] = true
			return Change{Kind: ChangeAdd, Key: k}
		}
		switch r := rng.IntN(20); {
		case r < 14:
			return Change{Kind: ChangeUpdate, Key: k}
		case r < 17:
			delete(present, k)
			return Change{Kind: ChangeDelete, Key: k}
		default:
			return Change{Kind: ChangeRecreate, Key: k}
		}
	}
	sc := Scenario{Initial: keys[:250], HoldHandlers: true}
	for i := range 2500 {
		if i == 1200 {
			gap := make([]Change, 60)
			for j := range gap {
				gap[j] = change()
			}
			sc.Ops = append(sc.Ops, Op{Kind: OpBookmark}, Op{Kind: OpExpire, Gap: gap})
			continue
		}
		sc.Ops = append(sc.Ops, Op{Kind: OpChange, Change: change()})
	}

	o := runScenario(t.Context(), sc)
	if len(o.errs) > 0 {
		for _, err := range o.errs[:min(len(o.errs), 20)] {
			t.Error(err)
		}
		t.Fatalf("%d violations", len(o.errs))
	}
	// Without coalescing, runtime/cache's handler gets every call
	// client-go's gets except the no-op relist updates and with one more
	// per UID change (delete and add instead of an update).
	uncoalesced := o.counts.NotesClientGo - o.counts.Noise + o.counts.Recreated
	if o.counts.NotesOurs >= uncoalesced {
		t.Errorf("runtime/cache's handler got %d calls, client-go's %d (%d no-op, %d UID changes): the handlers did not lag enough to coalesce",
			o.counts.NotesOurs, o.counts.NotesClientGo, o.counts.Noise, o.counts.Recreated)
	}
	t.Logf("%v", o.counts)
}
