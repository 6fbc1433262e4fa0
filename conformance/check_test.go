package conformance

import (
	"maps"
	"slices"
	"strings"
	"testing"
)

// TestCheckCatchesDivergences runs a scenario whose result passes Check,
// then breaks runtime/cache's side of it in the ways the suite exists to
// catch, and expects Check to say so.
func TestCheckCatchesDivergences(t *testing.T) {
	sc := Scenario{Initial: []string{"ns/a", "ns/b"}, Ops: []Op{
		{Kind: OpExpire, Gap: []Change{{Kind: ChangeRecreate, Key: "ns/a"}, {Kind: ChangeDelete, Key: "ns/b"}}},
	}}
	o := runScenario(t.Context(), sc)
	if len(o.errs) > 0 || o.result == nil {
		t.Fatalf("baseline: %v", o.errs)
	}
	base := o.result
	// runtime/cache's calls after its initial list: a: tombstone uid-1@1,
	// add uid-3@4; b: tombstone uid-2@2; then the sentinel add.
	indexOf := func(notes []Note, match func(Note) bool) int {
		i := slices.IndexFunc(notes, match)
		if i < 0 {
			t.Fatalf("no such note in %v", notes)
		}
		return i
	}
	tombstoneOf := func(key string) func(Note) bool {
		return func(n Note) bool { return n.Key == key && n.Tombstone }
	}

	tests := []struct {
		name   string
		mutate func(r *Result)
		want   string
	}{{
		name: "update for an object a relist left unchanged",
		mutate: func(r *Result) {
			s := r.Final[SentinelKey]
			r.Ours.Notes = append(r.Ours.Notes, Note{Kind: NoteUpdate, Key: SentinelKey, Old: s, New: s})
		},
		want: "relist noise",
	}, {
		name: "UID change delivered as an update",
		mutate: func(r *Result) {
			i := indexOf(r.Ours.Notes, tombstoneOf("ns/a"))
			old, add := r.Ours.Notes[i], r.Ours.Notes[i+1]
			r.Ours.Notes = slices.Replace(r.Ours.Notes, i, i+2, Note{Kind: NoteUpdate, Key: "ns/a", Old: old.Old, New: add.New})
		},
		want: "update across a UID change",
	}, {
		name: "vanished object without a tombstone",
		mutate: func(r *Result) {
			i := indexOf(r.Ours.Notes, tombstoneOf("ns/b"))
			r.Ours.Notes[i].Tombstone = false
		},
		want: "tombstones",
	}, {
		name: "tombstone with a stale state",
		mutate: func(r *Result) {
			i := indexOf(r.Ours.Notes, tombstoneOf("ns/b"))
			r.Ours.Notes[i].Old.ResourceVersion = "0"
		},
		want: "ns/b",
	}, {
		name: "cache differs from the server",
		mutate: func(r *Result) {
			r.Ours.Store = maps.Clone(r.Ours.Store)
			delete(r.Ours.Store, SentinelKey)
		},
		want: "cache",
	}, {
		name: "state client-go never went through",
		mutate: func(r *Result) {
			i := indexOf(r.Ours.Notes, func(n Note) bool { return n.Key == "ns/a" && n.Kind == NoteAdd && !n.Initial })
			r.Ours.Notes = slices.Insert(r.Ours.Notes, i+1,
				Note{Kind: NoteUpdate, Key: "ns/a", Old: r.Ours.Notes[i].New, New: State{UID: r.Ours.Notes[i].New.UID, ResourceVersion: "99"}},
				Note{Kind: NoteUpdate, Key: "ns/a", Old: State{UID: r.Ours.Notes[i].New.UID, ResourceVersion: "99"}, New: r.Ours.Notes[i].New})
		},
		want: "not a subsequence",
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := *base
			r.Ours.Notes = slices.Clone(base.Ours.Notes)
			tt.mutate(&r)
			_, errs := Check(&r)
			for _, err := range errs {
				if strings.Contains(err.Error(), tt.want) {
					return
				}
			}
			t.Errorf("Check found %v, want an error mentioning %q", errs, tt.want)
		})
	}
}
