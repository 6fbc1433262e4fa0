package cache

import (
	"os"
	"strconv"

	"github.com/informer-gen/informer-gen/runtime/cache/internal/taint"
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
	return g.Hold(taint.Holder{Cache: s.indexer.Indexed, Key: DeletionHandlingMetaNamespaceKeyFunc, Marks: &tainted, Relist: relist})
}

// tainted are the cached objects found holding a mutated shared part: a
// relist replaces them even when the server's resourceVersion is theirs
// (unchangedRelist).
var tainted taint.Set
