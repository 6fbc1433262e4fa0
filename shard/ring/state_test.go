package ring

import (
	"math"
	"os"
	"strings"
	"testing"
	"time"
)

// tableRows reads the transition table from state.go's comment.
func tableRows(t *testing.T) [][]string {
	t.Helper()
	src, err := os.ReadFile("state.go")
	if err != nil {
		t.Fatal(err)
	}
	var rows [][]string
	in := false
	for line := range strings.SplitSeq(string(src), "\n") {
		fields := strings.Fields(strings.TrimPrefix(line, "//"))
		switch {
		case len(fields) == 5 && fields[0] == "phase" && fields[1] == "event":
			in = true
		case in && len(fields) == 5:
			rows = append(rows, fields)
		case in:
			return rows
		}
	}
	t.Fatal("no transition table in state.go")
	return nil
}

func phaseNamed(t *testing.T, name string) phase {
	for p, n := range phaseNames {
		if n == name {
			return phase(p)
		}
	}
	t.Fatalf("table: no phase %q", name)
	return 0
}

func eventNamed(t *testing.T, name string) eventKind {
	for e, n := range eventNames {
		if n == name {
			return eventKind(e)
		}
	}
	t.Fatalf("table: no event %q", name)
	return 0
}

// rowSetup is a state and view in which only the row's condition holds.
func rowSetup(t *testing.T, p phase, condition string, tm timing, now time.Time) (state, view) {
	half := Ranges{{0, math.MaxUint64 / 2}}
	s := state{phase: p, held: half, recorded: half, pending: half, renewedAt: now}
	v := view{desired: half, free: half, own: half}
	switch condition {
	case "-":
	case "stopping":
		v.stopping = true
	case "renewOverdue":
		s.renewedAt = now.Add(-tm.renewDeadline - time.Second)
	case "holdsUndesired":
		s.held = Full()
	case "canClaim":
		s.held, s.recorded, v.free = nil, nil, half
	case "claimStale":
		s.held, v.own, s.renewedAt = nil, nil, now.Add(-tm.renewPeriod)
	case "claimUnseen":
		s.held, v.own = nil, nil
	case "claimContested":
		s.held, v.own, v.free = nil, half, nil
	case "renewDue":
		s.renewedAt = now.Add(-tm.renewPeriod)
	default:
		t.Fatalf("table: no condition %q", condition)
	}
	return s, v
}

func TestStateTable(t *testing.T) {
	tm := timing{renewPeriod: 2 * time.Second, renewDeadline: 10 * time.Second}
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	rows := tableRows(t)
	covered := map[phase]bool{}
	for _, row := range rows {
		t.Run(strings.Join(row, " "), func(t *testing.T) {
			from := phaseNamed(t, row[0])
			s, v := rowSetup(t, from, row[2], tm, now)
			covered[from] = true
			got, act := s.next(event{kind: eventNamed(t, row[1]), at: now, view: v}, tm)
			if got.phase.String() != row[3] || act.kind.String() != row[4] {
				t.Errorf("next = %s, %s; want %s, %s", got.phase, act.kind, row[3], row[4])
			}
		})
	}
	for p := range phaseNames {
		if phase(p) != phaseLeft && !covered[phase(p)] {
			t.Errorf("phase %s has no row in the table", phase(p))
		}
	}
}

// The Lease records a superset of what the informers hold after every
// step, whatever the events: the invariant the handover rests on.
func TestStateRecordedCoversHeldAfterEveryStep(t *testing.T) {
	tm := timing{renewPeriod: 2 * time.Second, renewDeadline: 10 * time.Second}
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	quarter := uint64(math.MaxUint64 / 4)
	views := []view{
		{desired: Ranges{{0, quarter}}},
		{desired: Ranges{{quarter, 2 * quarter}}, free: Ranges{{quarter, 2 * quarter}}},
		{desired: Full(), free: Full()},
		{desired: Ranges{{0, 3 * quarter}}, free: Ranges{{0, quarter - 1}, {2*quarter + 1, 3 * quarter}}},
	}
	outcomes := [][2]eventKind{{evRecorded, evApplied}, {evRecordFailed, evApplyFailed}}
	for seed := range 64 {
		s := state{phase: phaseJoining}
		for i := range 40 {
			now = now.Add(time.Second)
			e := event{kind: evTick, at: now, view: views[(seed+i)%len(views)]}
			for range 10 {
				var act action
				s, act = s.next(e, tm)
				if !s.held.Subtract(s.recorded).Subtract(s.pending).Empty() && s.phase != phaseLost {
					t.Fatalf("seed %d step %d: phase %s holds %v beyond recorded %v", seed, i, s.phase, s.held, s.recorded)
				}
				if act.kind == actNone {
					break
				}
				fail := (seed>>(i%6))&1 == 1
				o := outcomes[0]
				if fail {
					o = outcomes[1]
				}
				e = event{kind: map[actionKind]eventKind{actRecord: o[0], actApply: o[1], actDelete: evDeleted}[act.kind], at: now}
			}
			if !s.held.Subtract(s.recorded).Empty() && s.phase != phaseLost && s.phase != phaseJoining {
				t.Fatalf("seed %d step %d: at rest in %s holding %v beyond recorded %v", seed, i, s.phase, s.held, s.recorded)
			}
		}
	}
}
