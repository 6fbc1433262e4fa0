package generators

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/informer-gen/informer-gen/internal/scratch"
)

// goCommand runs the go command with args in dir and returns its standard
// output; the test fails with the combined output when it fails. A build,
// vet or test gets -race when this test binary has it
// (internal/scratch), so that the module's dependencies are those the
// race-enabled tests compiled already.
func goCommand(t *testing.T, dir string, args ...string) []byte {
	t.Helper()
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	args = scratch.GoArgs(args...)
	cmd := exec.Command(goBin, args...)
	cmd.Dir = dir
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go %s in %s: %v\n%s%s", strings.Join(args, " "), dir, err, out, stderr.String())
	}
	return out
}

// buildVetTest vets the packages of the module in dir and runs their
// tests, building them first when build is set (go vet alone type-checks
// the packages without test files, go build compiles them).
func buildVetTest(t *testing.T, dir string, build bool) {
	t.Helper()
	if build {
		goCommand(t, dir, "build", "./...")
	}
	goCommand(t, dir, "vet", "./...")
	goCommand(t, dir, "test", "-count=1", "./...")
}
