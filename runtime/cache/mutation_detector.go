package cache

import (
	"os"
	"strconv"

	"github.com/informer-gen/informer-gen/runtime/cache/internal/controller"
	"github.com/informer-gen/informer-gen/runtime/cache/internal/mutation"
)

// This file decides when an informer runs the cache mutation detector
// (internal/mutation's Detector, the informer's controller.Observer while
// it runs).

// mutationDetectorEnv turns the cache mutation detector on for every
// informer when set to "true".
const mutationDetectorEnv = "KUBE_CACHE_MUTATION_DETECTOR"

// mutationDetectorWanted reports whether an informer runs the detector:
// when asked (explicit), when KUBE_CACHE_MUTATION_DETECTOR=true, and, with
// the test checks on (testChecks, read by the caller at construction),
// when the informer compacts its objects, so that a mutation that
// compaction would spread to other objects fails users' tests;
// KUBE_CACHE_MUTATION_DETECTOR=false turns that last one off (benchmarks).
func mutationDetectorWanted(explicit, compacting, testChecks bool) bool {
	env, err := strconv.ParseBool(os.Getenv(mutationDetectorEnv))
	switch {
	case explicit:
		return true
	case err == nil:
		return env
	}
	return compacting && testChecks
}

// newMutationDetector returns the detector of the informer named name.
func newMutationDetector(name string) *mutation.Detector { return mutation.New(name) }

// The detector is the informer's controller.Observer: Before, Stored and
// Removed.
var _ controller.Observer = (*mutation.Detector)(nil)
