package conformance

import (
	"fmt"
	"sort"
	"strings"
)

// Counts tallies what runs exercised. The zero value is ready to use; it is
// not safe for concurrent use.
type Counts struct {
	// Scenarios is the number of runs counted.
	Scenarios int
	// Events is the number of watch events runtime/cache's reflector
	// received, bookmarks included.
	Events int
	// Relists are the lists after the first, by informer.
	RelistsClientGo, RelistsOurs int
	// NotesClientGo and NotesOurs are the handler calls of each informer.
	NotesClientGo, NotesOurs int
	// Noise is the number of client-go updates whose object kept its
	// resourceVersion across a relist, which runtime/cache did not send.
	Noise int
	// Recreated is the number of objects runtime/cache saw change UID
	// across a relist.
	Recreated int
	// Tombstones is the number of DeletedFinalStateUnknown deletes
	// runtime/cache delivered.
	Tombstones int
}

// Add adds o to c.
func (c *Counts) Add(o Counts) {
	c.Scenarios += o.Scenarios
	c.Events += o.Events
	c.RelistsClientGo += o.RelistsClientGo
	c.RelistsOurs += o.RelistsOurs
	c.NotesClientGo += o.NotesClientGo
	c.NotesOurs += o.NotesOurs
	c.Noise += o.Noise
	c.Recreated += o.Recreated
	c.Tombstones += o.Tombstones
}

// String renders the counts on one line.
func (c Counts) String() string {
	return fmt.Sprintf("%d scenarios, %d watch events, relists client-go %d / runtime/cache %d, handler calls client-go %d / runtime/cache %d, "+
		"client-go no-op relist updates %d (runtime/cache: 0), UID changes across relists %d, runtime/cache tombstones %d",
		c.Scenarios, c.Events, c.RelistsClientGo, c.RelistsOurs, c.NotesClientGo, c.NotesOurs, c.Noise, c.Recreated, c.Tombstones)
}

// Check verifies a run's result and returns what it exercised and every
// violation found:
//
//   - both caches equal the server's final state;
//   - each handler's calls form a consistent history per key (add of an
//     absent object, update and delete of the object last delivered, a
//     tombstone carrying exactly that object) ending in the final state,
//     and its initial-list adds are exactly the first list;
//   - runtime/cache: no update with an unchanged resourceVersion or a
//     changed UID; exactly one tombstone per object that vanished or
//     changed UID across one of its relists, carrying the last state its
//     reflector received, and after a UID change an add of the new object
//     (for a handler held long enough to coalesce: tombstones among those,
//     and no check of initial-list flags);
//   - client-go, pinned as the reference: one update per object whose
//     resourceVersion a relist left unchanged, one update from old to new
//     object per UID change, one tombstone per vanished object;
//   - every add runtime/cache's handler got of an object client-go's
//     handler also got an add of carries the same isInInitialList;
//   - per key, the states runtime/cache's handler went through are a
//     subsequence of client-go's (its UID-changing updates counting as a
//     delete and an add) and end in the same state.
func Check(r *Result) (Counts, []error) {
	var errs []error
	fail := failFunc(func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) })

	cgSum, ourSum := r.ClientGo.Trace.Summarize(), r.Ours.Trace.Summarize()
	counts := Counts{
		Scenarios:       1,
		Events:          ourSum.Events,
		RelistsClientGo: len(cgSum.Relists),
		RelistsOurs:     len(ourSum.Relists),
		NotesClientGo:   len(r.ClientGo.Notes),
		NotesOurs:       len(r.Ours.Notes),
	}

	for _, o := range []*Observed{&r.ClientGo, &r.Ours} {
		if !statesEqual(o.Store, r.Final) {
			fail("%s: cache %v, server %v", o.Name, sortedStates(o.Store), sortedStates(r.Final))
		}
	}
	cgNotes, ourNotes := notesByKey(r.ClientGo.Notes), notesByKey(r.Ours.Notes)
	lagging := r.Scenario.HoldHandlers && notifications(r.Ours.Trace) > fastCapacity
	for _, side := range []struct {
		o       *Observed
		sum     TraceSummary
		notes   map[string][]Note
		lagging bool
	}{{&r.ClientGo, cgSum, cgNotes, false}, {&r.Ours, ourSum, ourNotes, lagging}} {
		checkHistory(side.o.Name, side.notes, r.Final, side.lagging, fail)
		if !side.lagging {
			checkInitial(side.o.Name, side.o.Notes, side.sum.Initial, fail)
		}
	}

	checkInitialFlags(cgNotes, ourNotes, fail)
	checkOurDifferences(r, ourSum, ourNotes, lagging, &counts, fail)
	counts.Noise = checkClientGoReference(r, cgSum, cgNotes, fail)
	checkSameElsewhere(cgNotes, ourNotes, fail)
	return counts, errs
}

// failFunc records a failed check.
type failFunc func(format string, args ...any)

// checkOurDifferences checks runtime/cache's deliberate differences: no
// update with an unchanged resourceVersion or a changed UID, and exactly
// one tombstone per object that vanished or changed UID across a relist
// (then the add of the new object), counting tombstones and UID changes.
func checkOurDifferences(r *Result, ourSum TraceSummary, ourNotes map[string][]Note, lagging bool, counts *Counts, fail failFunc) {
	wantTombs := map[string][]State{}
	wantRecreate := map[string][][2]State{}
	for _, rl := range ourSum.Relists {
		for k, s := range rl.Vanished {
			wantTombs[k] = append(wantTombs[k], s)
		}
		for k, s := range rl.Recreated {
			wantTombs[k] = append(wantTombs[k], s[0])
			wantRecreate[k] = append(wantRecreate[k], s)
			counts.Recreated++
		}
	}
	for _, n := range r.Ours.Notes {
		if n.Kind != NoteUpdate {
			continue
		}
		switch {
		case n.Old == n.New:
			fail("runtime/cache: %s: update with unchanged resourceVersion %s (relist noise)", n.Key, n.New)
		case n.Old.UID != n.New.UID:
			fail("runtime/cache: %s: update across a UID change %s -> %s, want delete then add", n.Key, n.Old, n.New)
		}
	}
	for _, k := range unionKeys(ourNotes, wantTombs) {
		counts.Tombstones += checkOurTombstones(k, ourNotes[k], wantTombs[k], wantRecreate[k], lagging, fail)
	}
}

// checkOurTombstones checks runtime/cache's tombstones of key k (notes)
// against the states that vanished or changed UID across its relists
// (want; recreates: the UID changes, each to be followed by the add of
// the new object), and returns how many it got.
func checkOurTombstones(k string, notes []Note, want []State, recreates [][2]State, lagging bool, fail failFunc) int {
	var got []State
	for i, n := range notes {
		if !n.Tombstone {
			continue
		}
		got = append(got, n.Old)
		if !lagging && len(recreates) > 0 && n.Old == recreates[0][0] {
			// The tombstone of a UID change: the new object follows.
			if i+1 >= len(notes) || notes[i+1].Kind != NoteAdd || notes[i+1].New.UID != recreates[0][1].UID {
				fail("runtime/cache: %s: tombstone of %s not followed by the add of %s: %v", k, n.Old, recreates[0][1], notes[i+1:])
			}
			recreates = recreates[1:]
		}
	}
	switch {
	case lagging:
		// A coalescing listener drops the tombstone of an object
		// whose add the handler had not received yet.
		if !isSubsequence(got, want) {
			fail("runtime/cache: %s: tombstones %v, not a subsequence of %v (the objects that vanished or changed UID across a relist, with their last received state)", k, got, want)
		}
	case !statesSliceEqual(got, want):
		fail("runtime/cache: %s: tombstones %v, want %v (one per object that vanished or changed UID across a relist, with its last received state)", k, got, want)
	}
	if !lagging && len(recreates) > 0 {
		fail("runtime/cache: %s: UID changes %v across relists not delivered as tombstone then add: %v", k, recreates, notes)
	}
	return len(got)
}

// checkClientGoReference checks client-go, the reference, where
// runtime/cache differs: one update per object a relist left unchanged,
// one per UID change, one tombstone per vanished object. It returns the
// updates with an unchanged resourceVersion (relist noise) it got.
func checkClientGoReference(r *Result, cgSum TraceSummary, cgNotes map[string][]Note, fail failFunc) int {
	wantNoise, wantUIDUpdates := 0, 0
	cgWantTombs := map[string][]State{}
	for _, rl := range cgSum.Relists {
		wantNoise += len(rl.Unchanged)
		wantUIDUpdates += len(rl.Recreated)
		for k, s := range rl.Vanished {
			cgWantTombs[k] = append(cgWantTombs[k], s)
		}
	}
	gotNoise, gotUIDUpdates := 0, 0
	for _, n := range r.ClientGo.Notes {
		if n.Kind != NoteUpdate {
			continue
		}
		if n.Old == n.New {
			gotNoise++
		} else if n.Old.UID != n.New.UID {
			gotUIDUpdates++
		}
	}
	if gotNoise != wantNoise {
		fail("client-go reference: %d updates with an unchanged resourceVersion, want one per object a relist left unchanged: %d", gotNoise, wantNoise)
	}
	if gotUIDUpdates != wantUIDUpdates {
		fail("client-go reference: %d updates across a UID change, want one per UID change across a relist: %d", gotUIDUpdates, wantUIDUpdates)
	}
	for _, k := range unionKeys(cgNotes, cgWantTombs) {
		var got []State
		for _, n := range cgNotes[k] {
			if n.Tombstone {
				got = append(got, n.Old)
			}
		}
		if !statesSliceEqual(got, cgWantTombs[k]) {
			fail("client-go reference: %s: tombstones %v, want %v", k, got, cgWantTombs[k])
		}
	}
	return gotNoise
}

// checkSameElsewhere checks that everywhere else runtime/cache matches
// client-go: per key, its states are a subsequence of client-go's and end
// in the same one.
func checkSameElsewhere(cgNotes, ourNotes map[string][]Note, fail failFunc) {
	for _, k := range unionKeys(cgNotes, ourNotes) {
		cg := clientGoStates(cgNotes[k])
		ours := statesOf(ourNotes[k])
		if !isSubsequence(ours, cg) {
			fail("%s: runtime/cache went through %v, not a subsequence of client-go's %v", k, ours, cg)
		}
		if last(ours) != last(cg) {
			fail("%s: runtime/cache ended in %s, client-go in %s", k, last(ours), last(cg))
		}
	}
}

// fastCapacity mirrors runtime/cache's per-handler in-order buffer: a
// handler lagging by more notifications than this may get them coalesced
// per key.
const fastCapacity = 1024

// notifications bounds the notifications an informer could produce from
// trace: one per event and per listed object, one more per relist deletion.
func notifications(t Trace) int {
	n := 0
	for _, e := range t {
		if e.Kind == TraceList {
			n += 2 * len(e.Objects)
		} else {
			n++
		}
	}
	return n
}

// checkHistory verifies that one handler's calls for each key form a
// consistent history ending in the final state. A lagging (coalescing)
// handler may get a tombstone carrying a newer state of the object it
// knows, which it never saw.
func checkHistory(name string, notes map[string][]Note, final map[string]State, lagging bool, fail func(string, ...any)) {
	for _, k := range unionKeys(notes, final) {
		var cur State
		for _, n := range notes[k] {
			switch n.Kind {
			case NoteAdd:
				if !cur.Absent() {
					fail("%s: %s: %v while the handler had %s", name, k, n, cur)
				}
			case NoteUpdate:
				if cur.Absent() || n.Old != cur {
					fail("%s: %s: %v while the handler had %s", name, k, n, cur)
				}
			case NoteDelete:
				// A delete seen on the watch carries the deletion's
				// resourceVersion; a tombstone the last state received.
				if cur.Absent() || n.Old.UID != cur.UID || n.Tombstone && !lagging && n.Old != cur {
					fail("%s: %s: %v while the handler had %s", name, k, n, cur)
				}
			}
			cur = n.After()
		}
		if cur != final[k] {
			fail("%s: %s: handler ended with %s, server has %s", name, k, cur, final[k])
		}
	}
}

// checkInitial verifies that the adds marked as part of the initial list
// are exactly the objects of the first list.
func checkInitial(name string, notes []Note, initial map[string]State, fail func(string, ...any)) {
	got := map[string]State{}
	for _, n := range notes {
		if n.Kind == NoteAdd && n.Initial {
			if _, dup := got[n.Key]; dup {
				fail("%s: %s: two initial-list adds", name, n.Key)
			}
			got[n.Key] = n.New
		}
	}
	for _, k := range unionKeys(got, initial) {
		if g, w := got[k], initial[k]; g != w {
			fail("%s: %s: initial-list add %s, first list %s", name, k, g, w)
		}
	}
}

// checkInitialFlags verifies, for every add runtime/cache's handler got of
// an object client-go's handler also got an add of, that both gave it the
// same isInInitialList.
func checkInitialFlags(cgNotes, ourNotes map[string][]Note, fail func(string, ...any)) {
	for k, notes := range ourNotes {
		for _, n := range notes {
			if n.Kind != NoteAdd {
				continue
			}
			for _, cg := range cgNotes[k] {
				if cg.Kind == NoteAdd && cg.New == n.New && cg.Initial != n.Initial {
					fail("runtime/cache: %s: %v, client-go: %v", k, n, cg)
					break
				}
			}
		}
	}
}

func notesByKey(notes []Note) map[string][]Note {
	out := map[string][]Note{}
	for _, n := range notes {
		out[n.Key] = append(out[n.Key], n)
	}
	return out
}

// statesOf is the sequence of states a handler went through.
func statesOf(notes []Note) []State {
	out := make([]State, 0, len(notes))
	for _, n := range notes {
		out = append(out, n.After())
	}
	return out
}

// clientGoStates is the sequence of states client-go's handler went
// through, with an update across a UID change counted as a delete and an
// add, and repeated states (no-op relist updates) dropped.
func clientGoStates(notes []Note) []State {
	var out []State
	push := func(s State) {
		if len(out) == 0 || out[len(out)-1] != s {
			out = append(out, s)
		}
	}
	for _, n := range notes {
		if n.Kind == NoteUpdate && n.Old.UID != n.New.UID {
			push(State{})
		}
		push(n.After())
	}
	return out
}

func isSubsequence(sub, seq []State) bool {
	i := 0
	for _, s := range seq {
		if i < len(sub) && sub[i] == s {
			i++
		}
	}
	return i == len(sub)
}

func last(s []State) State {
	if len(s) == 0 {
		return State{}
	}
	return s[len(s)-1]
}

func statesSliceEqual(a, b []State) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func unionKeys[A, B any](a map[string]A, b map[string]B) []string {
	seen := map[string]bool{}
	var keys []string
	for k := range a {
		if !seen[k] {
			seen[k] = true
			keys = append(keys, k)
		}
	}
	for k := range b {
		if !seen[k] {
			seen[k] = true
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	return keys
}

func sortedStates(m map[string]State) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	b.WriteByte('{')
	for i, k := range keys {
		if i > 0 {
			b.WriteByte(' ')
		}
		fmt.Fprintf(&b, "%s:%s", k, m[k])
	}
	b.WriteByte('}')
	return b.String()
}
