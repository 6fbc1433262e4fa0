package queue

// A FIFO is the Sink its informer's reflector writes to: the methods
// below are the parts of the contract a queue has nothing to do for, the
// rest are the queue's own (Add, Update, Delete, Resync: fifo.go;
// OpenFirstList: fifo_first_list.go; PrepareListed, ReplaceListed:
// fifo_list.go; AfterApplied: fifo_barrier.go; Prune: fifo_prune.go).
var _ Sink = (*FIFO)(nil)

// Bookmark does nothing: a queue keeps no resourceVersion.
func (f *FIFO) Bookmark(string) error { return nil }

// TracksResourceVersion is false: UpdateResourceVersion does nothing.
func (f *FIFO) TracksResourceVersion() bool { return false }

// UpdateResourceVersion does nothing.
func (f *FIFO) UpdateResourceVersion(string) {}

// ListTransformer is nil: PrepareListed transforms listed objects.
func (f *FIFO) ListTransformer() func(any) (any, error) { return nil }
