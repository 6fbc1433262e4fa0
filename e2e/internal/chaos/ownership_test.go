package chaos

import (
	"math"
	"strings"
	"testing"
	"time"

	"github.com/informer-gen/informer-gen/shard"
	"github.com/informer-gen/informer-gen/shard/ring"
)

// The journals' analysis finds what it is for: two replicas holding one
// point, unless one was impaired; a point without an owner for longer
// than the bound, less the API server's downtime; a status written while
// another replica held the Widget.
func TestOwnershipAnalysisFindsViolations(t *testing.T) {
	const sec = int64(time.Second)
	lower := ring.Ranges{{First: 0, Last: math.MaxUint64 / 2}}
	upper := ring.Ranges{{First: math.MaxUint64/2 + 1, Last: math.MaxUint64}}
	uid := "uid-in-lower-half"
	for shard.Hash(uid) > math.MaxUint64/2 {
		uid += "x"
	}
	tests := []struct {
		name        string
		h           history
		wantDouble  int
		wantWhile   int
		wantUnowned time.Duration
		wantViolate []string
	}{{
		name: "disjoint handover: nothing",
		h: history{holdings: []holding{
			{replica: 0, from: 0, to: 10 * sec, ranges: lower}, {replica: 1, from: 0, to: 100 * sec, ranges: upper},
			{replica: 1, from: 12 * sec, to: 100 * sec, ranges: lower}, {replica: 0, from: 10 * sec, to: 100 * sec, ranges: nil},
		}, impaired: map[int][]span{}},
		wantUnowned: 2 * time.Second,
	}, {
		name: "overlap of live replicas: double ownership",
		h: history{holdings: []holding{
			{replica: 0, from: 0, to: 100 * sec, ranges: ring.Full()}, {replica: 1, from: 50 * sec, to: 60 * sec, ranges: lower},
		}, impaired: map[int][]span{}},
		wantDouble: 1, wantViolate: []string{"r0 and r1 both held"},
	}, {
		name: "overlap while one was paused: the documented window",
		h: history{holdings: []holding{
			{replica: 0, from: 0, to: 100 * sec, ranges: ring.Full()}, {replica: 1, from: 50 * sec, to: 60 * sec, ranges: lower},
		}, impaired: map[int][]span{0: {{40 * sec, 70 * sec}}}, faulted: map[int][]span{0: {{40 * sec, 68 * sec}}}},
		wantWhile: 1,
		// r0 paused from 40 s: the lower half is nobody's from 40 to 50 s.
		wantUnowned: 10 * time.Second,
	}, {
		name: "a paused replica owns again once continued: the grace excuses double ownership only",
		h: history{holdings: []holding{
			{replica: 0, from: 0, to: 100 * sec, ranges: ring.Full()},
		}, impaired: map[int][]span{0: {{40 * sec, 51 * sec}}}, faulted: map[int][]span{0: {{40 * sec, 49 * sec}}}},
		wantUnowned: 9 * time.Second,
	}, {
		name: "unowned past the bound, less the API server's downtime",
		h: history{holdings: []holding{
			{replica: 0, from: 0, to: 10 * sec, ranges: ring.Full()}, {replica: 1, from: 40 * sec, to: 100 * sec, ranges: ring.Full()},
		}, impaired: map[int][]span{}, down: []span{{10 * sec, 20 * sec}}},
		wantUnowned: 20 * time.Second, wantViolate: []string{"had no owner for 20s"},
	}, {
		name: "status written while another replica held the Widget",
		h: history{holdings: []holding{
			{replica: 0, from: 0, to: 100 * sec, ranges: lower}, {replica: 1, from: 0, to: 100 * sec, ranges: upper},
		}, impaired: map[int][]span{}, writes: []statusWrite{{replica: 1, uid: uid, name: "w-1", at: 30 * sec, done: 31 * sec}}},
		wantViolate: []string{"status of Widget w-1 written by r1"},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := &soak{result: newResult(42), seen: map[string]string{uid: "w-1"}}
			start := time.Unix(0, 0)
			s.checkDoubleOwnership(tt.h, start)
			s.checkUnowned(tt.h, 0, 100*sec)
			s.checkStatusWrites(tt.h, start)
			r := s.result
			if r.DoubleOwnership != tt.wantDouble || r.DoubleWhileImpaired != tt.wantWhile || r.WorstUnowned != tt.wantUnowned {
				t.Errorf("double %d, while impaired %d, worst unowned %v; want %d, %d, %v",
					r.DoubleOwnership, r.DoubleWhileImpaired, r.WorstUnowned, tt.wantDouble, tt.wantWhile, tt.wantUnowned)
			}
			if len(r.Violations) != len(tt.wantViolate) {
				t.Fatalf("violations %q, want %d like %q", r.Violations, len(tt.wantViolate), tt.wantViolate)
			}
			for i, v := range r.Violations {
				if !strings.HasPrefix(v, "seed 42: ") || !strings.Contains(v, tt.wantViolate[i]) {
					t.Errorf("violation %q, want the seed and %q", v, tt.wantViolate[i])
				}
			}
		})
	}
}
