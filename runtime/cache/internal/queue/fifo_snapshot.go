package queue

// Snapshot is what a FIFO holds at one moment, for tests and diagnostics
// that watch the queue from outside (FIFO.Snapshot).
type Snapshot struct {
	// Populated: a Replace, or a first list's Close, completed.
	Populated bool
	// Processing: a popped batch is being processed.
	Processing bool
	// Queued is the number of queued keys.
	Queued int
	// LastKey is the most recently queued key, "" when none is queued.
	LastKey string
	// InitialPending is the number of keys of the initial population
	// not yet popped and processed.
	InitialPending int
}

// Snapshot returns what f holds now, under its lock.
func (f *FIFO) Snapshot() Snapshot {
	f.mu.Lock()
	defer f.mu.Unlock()
	s := Snapshot{Populated: f.populated, Processing: f.processing, Queued: f.keys.Len(),
		InitialPending: f.initialPopulationCount}
	if e := f.keys.Last(); e != nil {
		s.LastKey = e.Key()
	}
	return s
}

// QueuedDeltas returns the number of deltas queued for key, 0 when key is
// not queued.
func (f *FIFO) QueuedDeltas(key string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	if e, ok := f.keys.Queued(key); ok {
		return len(e.Value.deltas)
	}
	return 0
}
