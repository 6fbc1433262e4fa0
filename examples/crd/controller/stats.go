package controller

import "sync/atomic"

// Stats counts the work a Controller has done since New.
type Stats struct {
	// Reconciles is the number of keys reconciled successfully, including
	// keys whose Widget needed no change or no longer existed.
	Reconciles uint64
	// StatusUpdates is the number of status writes the API server accepted.
	StatusUpdates uint64
	// Conflicts is the number of status writes rejected with 409 Conflict
	// (and requeued).
	Conflicts uint64
	// Failures is the number of reconciles that failed otherwise (and were
	// requeued).
	Failures uint64
}

// stats holds the live counters behind Stats.
type stats struct {
	reconciles    atomic.Uint64
	statusUpdates atomic.Uint64
	conflicts     atomic.Uint64
	failures      atomic.Uint64
}

func (s *stats) snapshot() Stats {
	return Stats{
		Reconciles:    s.reconciles.Load(),
		StatusUpdates: s.statusUpdates.Load(),
		Conflicts:     s.conflicts.Load(),
		Failures:      s.failures.Load(),
	}
}
