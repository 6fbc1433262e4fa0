package delivery

// Kind says which handler method a notification calls.
type Kind uint8

const (
	// None marks no pending call; a Notification never has it.
	None Kind = iota
	// Add calls OnAdd(New, Initial).
	Add
	// Update calls OnUpdate(Old, New).
	Update
	// Delete calls OnDelete(Old).
	Delete
	// Resync calls OnResync(New), or OnUpdate(New, New) for a handler
	// without OnResync. A Batch hands it only to the listeners due for a
	// resync.
	Resync
	// kindStop is never queued: it names OnStop in logs.
	kindStop
)

// Notification is one pending handler call. Add and Resync use New,
// Update both objects, Delete Old (the last state, maybe a tombstone).
type Notification struct {
	Kind    Kind
	Initial bool   // an Add that is part of the handler's initial list
	Key     string // the object's key, which coalescing confirms with ListenerConfig.HasKey
	Old     any
	New     any
}

// String names the handler method k calls, for logs.
func (k Kind) String() string {
	switch k {
	case Add:
		return "add"
	case Update:
		return "update"
	case Delete:
		return "delete"
	case Resync:
		return "resync"
	case kindStop:
		return "stop"
	}
	return "none"
}
