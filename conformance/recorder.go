package conformance

import (
	"fmt"
	"slices"
	"sync"
	"time"
)

// NoteKind is the handler method a Note records.
type NoteKind uint8

// The handler methods.
const (
	NoteAdd NoteKind = iota + 1
	NoteUpdate
	NoteDelete
)

var noteNames = [...]string{NoteAdd: "add", NoteUpdate: "update", NoteDelete: "delete"}

// String returns the method's short name.
func (k NoteKind) String() string {
	if int(k) < len(noteNames) && noteNames[k] != "" {
		return noteNames[k]
	}
	return fmt.Sprintf("NoteKind(%d)", uint8(k))
}

// Note is one handler call.
type Note struct {
	Kind NoteKind
	Key  string
	// Old is the object an update replaced or a delete removed (for a
	// tombstone, the object inside it); New the object an add or update
	// delivered.
	Old, New State
	// Tombstone is true for a delete that carried a DeletedFinalStateUnknown.
	Tombstone bool
	// Initial is an add's isInInitialList.
	Initial bool
}

// After is the state of the key once the handler processed n.
func (n Note) After() State {
	if n.Kind == NoteDelete {
		return State{}
	}
	return n.New
}

// String renders the note for failure messages.
func (n Note) String() string {
	switch n.Kind {
	case NoteAdd:
		return fmt.Sprintf("add(%s initial=%t)", n.New, n.Initial)
	case NoteUpdate:
		return fmt.Sprintf("update(%s -> %s)", n.Old, n.New)
	default:
		if n.Tombstone {
			return fmt.Sprintf("delete(tombstone %s)", n.Old)
		}
		return fmt.Sprintf("delete(%s)", n.Old)
	}
}

// Recorder is an event handler, for client-go's informer and ours alike
// (their handler interfaces have the same method set), that records every
// call. Unwrap recognises the informer's tombstone type.
//
// The informer calls it from its handler goroutine; Notes and View may be
// called concurrently from any goroutine.
type Recorder struct {
	// Unwrap returns the key and object inside a tombstone, and false for
	// anything else.
	Unwrap func(obj any) (key string, inner any, ok bool)
	// Delay, when set before the informer starts, is how long every call
	// takes: a slow handler.
	Delay time.Duration

	gate   sync.Mutex // held while the handler is made to lag
	holdMu sync.Mutex
	held   bool

	mu    sync.Mutex
	notes []Note
	view  map[string]State
}

// Hold makes the handler block on its next call until Release: the
// informer's notifications pile up as for a stalled handler. Hold and
// Release may be called from any goroutine; Hold while held is a no-op.
func (r *Recorder) Hold() {
	r.holdMu.Lock()
	defer r.holdMu.Unlock()
	if !r.held {
		r.held = true
		r.gate.Lock()
	}
}

// Release lets a held handler run again; it is a no-op when not held.
func (r *Recorder) Release() {
	r.holdMu.Lock()
	defer r.holdMu.Unlock()
	if r.held {
		r.held = false
		r.gate.Unlock()
	}
}

// OnAdd records an add.
func (r *Recorder) OnAdd(obj any, isInInitialList bool) {
	r.note(Note{Kind: NoteAdd, Key: keyOf(obj), New: StateOf(obj), Initial: isInInitialList})
}

// OnUpdate records an update.
func (r *Recorder) OnUpdate(oldObj, newObj any) {
	r.note(Note{Kind: NoteUpdate, Key: keyOf(newObj), Old: StateOf(oldObj), New: StateOf(newObj)})
}

// OnDelete records a delete, unwrapping a tombstone.
func (r *Recorder) OnDelete(obj any) {
	if key, inner, ok := r.Unwrap(obj); ok {
		n := Note{Kind: NoteDelete, Key: key, Tombstone: true}
		if inner != nil {
			n.Old = StateOf(inner)
		}
		r.note(n)
		return
	}
	r.note(Note{Kind: NoteDelete, Key: keyOf(obj), Old: StateOf(obj)})
}

func (r *Recorder) note(n Note) {
	r.gate.Lock()
	//lint:ignore SA2001 the empty critical section is the point: it waits for Release while the gate is held.
	r.gate.Unlock() // only waits for Release while held
	if r.Delay > 0 {
		time.Sleep(r.Delay)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.view == nil {
		r.view = map[string]State{}
	}
	r.notes = append(r.notes, n)
	if s := n.After(); s.Absent() {
		delete(r.view, n.Key)
	} else {
		r.view[n.Key] = s
	}
}

// Notes returns a copy of the calls recorded so far, in order.
func (r *Recorder) Notes() []Note {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.notes)
}

// ViewEquals reports whether the handler's view (each key's state after
// its last call) is want.
func (r *Recorder) ViewEquals(want map[string]State) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return statesEqual(r.view, want)
}

func statesEqual(a, b map[string]State) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}
