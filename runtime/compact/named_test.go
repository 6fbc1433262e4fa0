package compact

import (
	"slices"
	"testing"
)

type namedWalkThing struct{ Name string }

type namedWalkOther struct{ Name string }

// TransformWith calls the walks it is given, not the registry's: the
// update walk when the old version is of the type, the full walk
// otherwise; an object of another type gets its own type's compaction.
func TestTransformWithCallsTheWalksItIsGiven(t *testing.T) {
	var walked, updated []string
	walk := func(t *Table, p *namedWalkThing, h *Hash) { walked = append(walked, p.Name) }
	update := func(t *Table, p, old *namedWalkThing) { updated = append(updated, p.Name+"<"+old.Name) }
	fn := TransformWith(NewTable(), walk, update)
	tests := []struct {
		name            string
		obj, old        any
		walked, updated []string
	}{
		{"no old version: full walk", &namedWalkThing{"a"}, nil, []string{"a"}, nil},
		{"old version of the type: update walk", &namedWalkThing{"b"}, &namedWalkThing{"a"}, nil, []string{"b<a"}},
		{"old version of another type: full walk", &namedWalkThing{"c"}, &namedWalkOther{"x"}, []string{"c"}, nil},
		{"another type: not these walks", &namedWalkOther{"d"}, nil, nil, nil},
		{"nil: nothing", nil, nil, nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			walked, updated = nil, nil
			fn(tt.obj, tt.old)
			if !slices.Equal(walked, tt.walked) || !slices.Equal(updated, tt.updated) {
				t.Errorf("walked %v, updated %v; want %v, %v", walked, updated, tt.walked, tt.updated)
			}
		})
	}
	t.Run("no update walk: full walk", func(t *testing.T) {
		walked, updated = nil, nil
		TransformWith(NewTable(), walk, nil)(&namedWalkThing{"e"}, &namedWalkThing{"a"})
		if !slices.Equal(walked, []string{"e"}) || updated != nil {
			t.Errorf("walked %v, updated %v; want [e], none", walked, updated)
		}
	})
}
