package cache

import (
	"fmt"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"unsafe"
	"weak"

	"github.com/informer-gen/informer-gen/runtime/compact"
)

// compactionGuardEnv is the switch of the compaction guard: "true" turns
// it on, "false" off, for every compacting informer made in any binary
// (SharedIndexInformerOptions.DisableCompactionGuard still turns it off).
// Unset, it is on outside test binaries: in test binaries the mutation
// detector (test_checks.go) finds mutations at once, with the stack.
const compactionGuardEnv = "INFORMER_GEN_COMPACTION_GUARD"

// compactionGuardWanted reports whether an informer compacting (or not)
// with opts runs the compaction guard; testChecks is the informer's
// testChecks().
func compactionGuardWanted(opts SharedIndexInformerOptions, compacting, testChecks bool) bool {
	if !compacting || opts.DisableCompactionGuard {
		return false
	}
	if on, err := strconv.ParseBool(os.Getenv(compactionGuardEnv)); err == nil {
		return on
	}
	return !testChecks
}

// holdGuardLocked makes the informer, about to run the reflector r, a
// holder of its compaction guard when it runs one, and returns the
// release to call once it stopped. It wires r's relist requests to the
// guard's repairs.
func (s *sharedIndexInformer) holdGuardLocked(r *Reflector) (release func()) {
	if !compactionGuardWanted(s.opts, s.compact, s.testChecks) {
		return func() {}
	}
	g := s.opts.CompactionGuard
	if g == nil {
		g = compact.DefaultGuard()
	}
	relist := make(chan struct{}, 1)
	r.relist = relist
	return g.Hold(guardHolder{s: s, relist: relist})
}

// guardHolder is a running informer as its compaction guard's Holder.
type guardHolder struct {
	s      *sharedIndexInformer
	relist chan<- struct{}
}

// Corrupted finds the cached objects holding the mutated part m, marks
// them so that the relist replaces them even though their
// resourceVersion did not change (unchangedRelist), and asks the
// reflector for that relist.
func (h guardHolder) Corrupted(m compact.Mutation) []compact.Held {
	var held []compact.Held
	for _, obj := range h.s.indexer.List() {
		paths := m.PathsIn(obj)
		if len(paths) == 0 {
			continue
		}
		key, err := DeletionHandlingMetaNamespaceKeyFunc(obj)
		if err != nil {
			key = fmt.Sprintf("<%v>", err)
		}
		tainted.add(obj)
		held = append(held, compact.Held{Key: key, Type: fmt.Sprintf("%T", obj), Paths: paths})
	}
	if len(held) > 0 {
		select {
		case h.relist <- struct{}{}:
		default: // a relist is already requested
		}
	}
	return held
}

// tainted are the cached objects found holding a mutated shared part: a
// relist replaces them even when the server's resourceVersion is theirs.
var tainted taintSet

// taintSet is a set of objects by identity, held weakly: an object
// replaced in the cache and collected leaves the set at the next add.
type taintSet struct {
	// n is the number of objects in the set: has costs one atomic load
	// while it is 0, as it is unless a mutation was found.
	n  atomic.Int64
	mu sync.Mutex // guards objs
	// objs maps an object's data pointer to a weak pointer to it.
	objs map[unsafe.Pointer]weak.Pointer[byte]
}

// dataOf is the data word of obj: its pointer, for the pointers to
// structs informers cache.
func dataOf(obj any) unsafe.Pointer { return (*[2]unsafe.Pointer)(unsafe.Pointer(&obj))[1] }

// add puts obj in the set and drops the objects collected since.
func (t *taintSet) add(obj any) {
	p := dataOf(obj)
	if p == nil {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.objs == nil {
		t.objs = map[unsafe.Pointer]weak.Pointer[byte]{}
	}
	for q, w := range t.objs {
		if w.Value() == nil {
			delete(t.objs, q)
		}
	}
	t.objs[p] = weak.Make((*byte)(p))
	t.n.Store(int64(len(t.objs)))
}

// has reports whether obj is in the set.
func (t *taintSet) has(obj any) bool {
	if t.n.Load() == 0 {
		return false
	}
	p := dataOf(obj)
	t.mu.Lock()
	defer t.mu.Unlock()
	w, ok := t.objs[p]
	return ok && unsafe.Pointer(w.Value()) == p
}
