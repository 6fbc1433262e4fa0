package conformance

import (
	"maps"

	"k8s.io/apimachinery/pkg/watch"
)

// TraceKind says what a TraceEntry records.
type TraceKind uint8

// The kinds of TraceEntry.
const (
	// TraceList is a List the client served.
	TraceList TraceKind = iota + 1
	// TraceEvent is a watch event the reflector received.
	TraceEvent
)

// TraceEntry is one thing a client delivered to its informer's reflector.
type TraceEntry struct {
	Kind TraceKind
	// ResourceVersion of the list, or of the event's object.
	ResourceVersion string
	// Objects of a list, by key.
	Objects map[string]State
	// Type, Key and State of an event; a bookmark has neither key nor
	// state.
	Type  watch.EventType
	Key   string
	State State
}

// Trace is what one client delivered, in delivery order.
type Trace []TraceEntry

// Relist is what one list after the first changed in what the informer
// knew: the state made of everything it had received before.
type Relist struct {
	// Vanished are the known objects absent from the list, with their last
	// known state.
	Vanished map[string]State
	// Recreated are the known objects listed with another UID: the last
	// known state and the listed one.
	Recreated map[string][2]State
	// Changed are the known objects listed with the same UID and another
	// resourceVersion: the last known state and the listed one.
	Changed map[string][2]State
	// Unchanged are the known objects listed with the same UID and
	// resourceVersion.
	Unchanged map[string]State
	// Appeared are the listed objects that were not known.
	Appeared map[string]State
}

// TraceSummary is what a trace implies for its informer.
type TraceSummary struct {
	// Initial is the content of the first list.
	Initial map[string]State
	// Relists are the later lists, in order.
	Relists []Relist
	// Known is the state made of everything delivered.
	Known map[string]State
	// Events counts the watch events delivered, bookmarks included.
	Events int
}

// Summarize replays the trace into the informer's knowledge.
func (t Trace) Summarize() TraceSummary {
	var sum TraceSummary
	known := map[string]State{}
	lists := 0
	for _, e := range t {
		switch e.Kind {
		case TraceList:
			lists++
			if lists == 1 {
				sum.Initial = maps.Clone(e.Objects)
			} else {
				sum.Relists = append(sum.Relists, diffRelist(known, e.Objects))
			}
			known = maps.Clone(e.Objects)
		case TraceEvent:
			sum.Events++
			switch e.Type {
			case watch.Added, watch.Modified:
				known[e.Key] = e.State
			case watch.Deleted:
				delete(known, e.Key)
			}
		}
	}
	sum.Known = known
	return sum
}

func diffRelist(known, listed map[string]State) Relist {
	r := Relist{
		Vanished:  map[string]State{},
		Recreated: map[string][2]State{},
		Changed:   map[string][2]State{},
		Unchanged: map[string]State{},
		Appeared:  map[string]State{},
	}
	for k, old := range known {
		now, ok := listed[k]
		switch {
		case !ok:
			r.Vanished[k] = old
		case now.UID != old.UID:
			r.Recreated[k] = [2]State{old, now}
		case now.ResourceVersion != old.ResourceVersion:
			r.Changed[k] = [2]State{old, now}
		default:
			r.Unchanged[k] = old
		}
	}
	for k, now := range listed {
		if _, ok := known[k]; !ok {
			r.Appeared[k] = now
		}
	}
	return r
}
