package queue

// DeltaType is the kind of change a Delta records.
type DeltaType string

// The kinds of change a FIFO records.
const (
	// Added is an object seen for the first time on a watch.
	Added DeltaType = "Added"
	// Updated is a new version of an object, seen on a watch.
	Updated DeltaType = "Updated"
	// Deleted is the removal of an object. Its Object is the last state:
	// the object itself when the watch reported the deletion, a
	// DeletedFinalStateUnknown tombstone when a relist revealed it.
	Deleted DeltaType = "Deleted"
	// Replaced is an object of a (re)list.
	Replaced DeltaType = "Replaced"
	// Sync is a periodic resync of an object already in the cache.
	Sync DeltaType = "Sync"
)

// Delta is one recorded change of one object.
type Delta struct {
	Type   DeltaType
	Object any
}

// Deltas is the list of changes queued for one key, oldest first.
type Deltas []Delta

// Oldest returns the oldest delta, or nil when d is empty. The informer
// does not use it; it exists so code written against client-go's Deltas
// compiles unchanged.
func (d Deltas) Oldest() *Delta {
	if len(d) == 0 {
		return nil
	}
	return &d[0]
}

// Newest returns the newest delta, or nil when d is empty.
func (d Deltas) Newest() *Delta {
	if len(d) == 0 {
		return nil
	}
	return &d[len(d)-1]
}

// DeletedFinalStateUnknown is delivered in place of an object whose deletion
// was not observed directly: the object vanished between two lists (for
// example while the watch was down), so Obj is the last state this client
// saw, which may be stale. Handlers that receive deletes through the untyped
// API must expect it; the typed API unwraps it for them.
type DeletedFinalStateUnknown struct {
	// Key is the store key of the deleted object.
	Key string
	// Obj is the last known state of the object.
	Obj any
}

// tombstoneObject returns the object a tombstone holds, or obj.
func tombstoneObject(obj any) any {
	if d, ok := obj.(DeletedFinalStateUnknown); ok {
		return d.Obj
	}
	return obj
}

// dedupDeletes merges the last two deltas when both are deletions, keeping
// the one that carries the observed final state over a tombstone.
func dedupDeletes(d Deltas) Deltas {
	n := len(d)
	if n < 2 || d[n-1].Type != Deleted || d[n-2].Type != Deleted {
		return d
	}
	if _, ok := d[n-2].Object.(DeletedFinalStateUnknown); ok {
		d[n-2] = d[n-1]
	}
	d[n-1] = Delta{}
	return d[:n-1]
}
