package taint

import (
	"fmt"

	"github.com/informer-gen/informer-gen/runtime/cache/internal/store"
	"github.com/informer-gen/informer-gen/runtime/compact"
)

// Holder is a running informer as its compaction guard's compact.Holder.
type Holder struct {
	// Cache is the informer's cache.
	Cache *store.Indexed
	// Key keys a cached object in the Held it reports.
	Key func(obj any) (string, error)
	// Marks is where the objects found holding a mutated copy are marked.
	Marks *Set
	// Relist asks the informer's reflector for a relist (a buffered
	// channel of one: a request already pending is enough).
	Relist chan<- struct{}
}

// Corrupted finds the cached objects holding the mutated part m, marks
// them so that the relist replaces them even though their
// resourceVersion did not change, and asks the reflector for that
// relist.
func (h Holder) Corrupted(m compact.Mutation) []compact.Held {
	var held []compact.Held
	for _, obj := range h.Cache.List() {
		paths := m.PathsIn(obj)
		if len(paths) == 0 {
			continue
		}
		key, err := h.Key(obj)
		if err != nil {
			key = fmt.Sprintf("<%v>", err)
		}
		h.Marks.Add(obj)
		held = append(held, compact.Held{Key: key, Type: fmt.Sprintf("%T", obj), Paths: paths})
	}
	if len(held) > 0 {
		select {
		case h.Relist <- struct{}{}:
		default: // a relist is already requested
		}
	}
	return held
}
