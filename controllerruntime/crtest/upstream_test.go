package crtest

import (
	"bytes"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// update rewrites the copies from the module cache instead of checking them.
var update = flag.Bool("update", false, "copy controller-runtime's pkg/cache test files into ./cache")

// copiedFiles are controller-runtime's pkg/cache test files run in ./cache.
// Its other test files are internal tests of unexported code (package
// cache: defaulting_test.go, informer_cache_unit_test.go; package
// internal: informers_test.go), which cannot run outside its module.
var copiedFiles = []string{"cache_suite_test.go", "cache_test.go", "informer_cache_test.go"}

// rewrite is the one change made to each copied file: the import of
// controller-runtime's pkg/cache becomes the import of ./cache.
var rewrite = strings.NewReplacer(
	"\t\"sigs.k8s.io/controller-runtime/pkg/cache\"\n",
	"\t\"github.com/informer-gen/informer-gen/controllerruntime/crtest/cache\"\n",
)

// TestSuiteIsControllerRuntimes checks that the test files in ./cache are
// those of the controller-runtime this module requires, license headers
// included, with only their import of pkg/cache rewritten (go test -update
// copies them again).
func TestSuiteIsControllerRuntimes(t *testing.T) {
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "sigs.k8s.io/controller-runtime").Output()
	if err != nil {
		t.Fatalf("go list -m sigs.k8s.io/controller-runtime: %v", err)
	}
	upstream := filepath.Join(strings.TrimSpace(string(out)), "pkg", "cache")
	rewritten := 0
	for _, name := range copiedFiles {
		src, err := os.ReadFile(filepath.Join(upstream, name))
		if err != nil {
			t.Fatal(err)
		}
		want := []byte(rewrite.Replace(string(src)))
		if !bytes.Equal(want, src) {
			rewritten++
		}
		local := filepath.Join("cache", name)
		if *update {
			if err := os.WriteFile(local, want, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		got, err := os.ReadFile(local)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s differs from controller-runtime's %s (import rewritten); run go test -update in controllerruntime/crtest", local, filepath.Join(upstream, name))
		}
	}
	if rewritten == 0 {
		t.Error("no copied file imports sigs.k8s.io/controller-runtime/pkg/cache as rewrite expects: the suite would not run on NewInformer")
	}
}
