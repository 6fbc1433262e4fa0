package cache

import (
	"os"
	"strconv"
	"testing"
)

// testChecksEnv is the switch of the informers' test checks: "true" turns
// them on, "false" off, in any binary; unset, they are on in test binaries
// (testing.Testing) and off otherwise.
//
// The test checks are: the cache mutation detector of every informer that
// compacts its objects (a mutation of a shared part would change other
// objects; KUBE_CACHE_MUTATION_DETECTOR, when set, still decides the
// detector), and a check after each handler call that the handler did not
// mutate the objects it was given.
const testChecksEnv = "INFORMER_GEN_TEST_CHECKS"

// testChecks reports whether informers made now run the test checks (see
// testChecksEnv). An informer reads it once, at construction: it is the
// only place the package asks whether it runs in a test binary.
func testChecks() bool {
	if on, err := strconv.ParseBool(os.Getenv(testChecksEnv)); err == nil {
		return on
	}
	return testing.Testing()
}
