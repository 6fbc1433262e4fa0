package chaos

import (
	"fmt"
	"strings"
	"time"
)

// Result is a soak's figures and the invariants it found violated.
type Result struct {
	Seed    uint64
	Elapsed time.Duration
	Rounds  int
	// Faults counts the faults injected by kind.
	Faults map[Kind]int
	// WorstConvergence is the longest time from a round's last fault to
	// replicas agreeing with the server, and the round.
	WorstConvergence      time.Duration
	WorstConvergenceRound string
	// WorstUnowned is the longest a Widget's hash had no owner (minus
	// the API server's downtime in that span).
	WorstUnowned time.Duration
	// DoubleOwnership counts the spans in which two live replicas held
	// one point of the hash space; DoubleWhileImpaired those in which one
	// of the two was paused or cut off (the ring's documented window).
	DoubleOwnership     int
	DoubleWhileImpaired int
	// StatusWrites counts the Widget status writes; StatusWritesUnheld
	// those a replica wrote outside its own ranges (work in flight when
	// it released them, no other owner yet).
	StatusWrites       int
	StatusWritesUnheld int
	Writes             int64
	WriteErrors        int64
	// Violations are the invariants violated, each with the seed.
	Violations []string
}

func newResult(seed uint64) *Result { return &Result{Seed: seed, Faults: map[Kind]int{}} }

// violate records a violation, prefixed with the seed that replays it.
func (r *Result) violate(format string, args ...any) {
	r.Violations = append(r.Violations, fmt.Sprintf("seed %d: ", r.Seed)+fmt.Sprintf(format, args...))
}

func (r *Result) convergence(label string, took time.Duration) {
	if took > r.WorstConvergence {
		r.WorstConvergence, r.WorstConvergenceRound = took, label
	}
}

// Summary is the figures in a few lines.
func (r *Result) Summary() string {
	var b strings.Builder
	fmt.Fprintf(&b, "seed %d, %v, %d rounds; faults:", r.Seed, r.Elapsed.Round(time.Second), r.Rounds)
	for _, k := range Kinds {
		fmt.Fprintf(&b, " %s %d,", k, r.Faults[k])
	}
	fmt.Fprintf(&b, "\nworst convergence %v (%s), worst unowned %v, double ownership %d (%d more with a paused or cut-off replica)",
		r.WorstConvergence.Round(time.Millisecond), r.WorstConvergenceRound, r.WorstUnowned.Round(time.Millisecond), r.DoubleOwnership, r.DoubleWhileImpaired)
	fmt.Fprintf(&b, "\nstatus writes %d (%d outside the writer's ranges), churn writes %d (%d failed), violations %d",
		r.StatusWrites, r.StatusWritesUnheld, r.Writes, r.WriteErrors, len(r.Violations))
	return b.String()
}

// Markdown is the figures as a table for docs/chaos.md.
func (r *Result) Markdown() string {
	var b strings.Builder
	fmt.Fprintf(&b, "| Figure | Value |\n|---|---|\n")
	fmt.Fprintf(&b, "| Seed | %d |\n| Duration (faults, then the final check) | %v |\n| Rounds | %d |\n", r.Seed, r.Elapsed.Round(time.Second), r.Rounds)
	for _, k := range Kinds {
		fmt.Fprintf(&b, "| Faults: %s | %d |\n", k, r.Faults[k])
	}
	fmt.Fprintf(&b, "| Worst convergence after a round | %v (%s; bound %v) |\n", r.WorstConvergence.Round(time.Millisecond), r.WorstConvergenceRound, ConvergenceBound)
	fmt.Fprintf(&b, "| Worst unowned time | %v (bound %v) |\n", r.WorstUnowned.Round(time.Millisecond), LeaseDuration+SyncBound)
	fmt.Fprintf(&b, "| Double ownership, live replicas | %d |\n| Double ownership with a paused or cut-off replica | %d |\n", r.DoubleOwnership, r.DoubleWhileImpaired)
	fmt.Fprintf(&b, "| Widget status writes / outside the writer's ranges | %d / %d |\n", r.StatusWrites, r.StatusWritesUnheld)
	fmt.Fprintf(&b, "| Churn writes / failed (API server down, cut) | %d / %d |\n", r.Writes, r.WriteErrors)
	fmt.Fprintf(&b, "| Invariant violations | %d |\n", len(r.Violations))
	return b.String()
}
