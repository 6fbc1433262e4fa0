package apicompat_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/informer-gen/informer-gen/apicompat"
	"github.com/informer-gen/informer-gen/internal/scratch"
)

// TestClientGoControllerPortsByImportRewrite copies internal/clientgoctl,
// a controller and its tests written against client-go v0.37, rewriting
// only the import path of tools/cache, and runs the copy's tests (under
// the race detector) on runtime/cache.
func TestClientGoControllerPortsByImportRewrite(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs a package with the go command")
	}
	dir, err := os.MkdirTemp(".", "ported-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	rewrites := map[string]string{clientGoCache: ourCache}
	n, err := apicompat.RewriteImports("internal/clientgoctl", dir, rewrites)
	if err != nil {
		t.Fatal(err)
	}
	if n == 0 {
		t.Fatal("no import rewritten: the controller no longer uses client-go's tools/cache")
	}
	assertOnlyImportsDiffer(t, "internal/clientgoctl", dir, rewrites)

	pkg := "./" + filepath.ToSlash(dir)
	deps := goCmd(t, "list", "-deps", "-test", pkg)
	if strings.Contains(deps, clientGoCache+"\n") {
		t.Fatalf("the ported copy still depends on %s", clientGoCache)
	}
	if !strings.Contains(deps, ourCache+"\n") {
		t.Fatalf("the ported copy does not use %s", ourCache)
	}
	goCmd(t, "vet", pkg)
	t.Log(goCmd(t, "test", "-race", "-count=1", "-v", pkg))
}

// assertOnlyImportsDiffer checks that every line that changed between the
// original and the ported copy is an import rewritten by rewrites.
func assertOnlyImportsDiffer(t *testing.T, orig, ported string, rewrites map[string]string) {
	t.Helper()
	entries, err := os.ReadDir(orig)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		a, err := os.ReadFile(filepath.Join(orig, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(filepath.Join(ported, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		al, bl := bytes.Split(a, []byte("\n")), bytes.Split(b, []byte("\n"))
		if len(al) != len(bl) {
			t.Fatalf("%s: the ported copy has %d lines, the original %d", e.Name(), len(bl), len(al))
		}
		for i := range al {
			if bytes.Equal(al[i], bl[i]) {
				continue
			}
			if !rewrittenImport(al[i], bl[i], rewrites) {
				t.Fatalf("%s:%d changed beyond the import path:\n- %s\n+ %s", e.Name(), i+1, al[i], bl[i])
			}
		}
	}
}

// rewrittenImport reports whether line b is line a with one import path
// of rewrites replaced.
func rewrittenImport(a, b []byte, rewrites map[string]string) bool {
	for from, to := range rewrites {
		if bytes.Equal(bytes.Replace(a, []byte(`"`+from+`"`), []byte(`"`+to+`"`), 1), b) {
			return true
		}
	}
	return false
}

// goCmd runs the go command with args in this module (its builds, vets
// and tests with -race when this test binary has it: internal/scratch)
// and returns its combined output, failing t when it fails.
func goCmd(t *testing.T, args ...string) string {
	t.Helper()
	args = scratch.GoArgs(args...)
	cmd := exec.Command("go", args...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out.String())
	}
	return out.String()
}

// TestClientGoDynamicMonitorPortsByImportRewrite copies
// internal/clientgodyn, a garbage-collector-style monitor and its tests
// written against client-go v0.37's dynamicinformer, dynamiclister,
// metadatainformer, metadatalister and tools/cache (with client-go's fake
// dynamic and metadata clients), rewriting only those import paths, and
// runs the copy's tests (under the race detector) on the dynamic module
// and runtime/cache.
func TestClientGoDynamicMonitorPortsByImportRewrite(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs a package with the go command")
	}
	dir, err := os.MkdirTemp(".", "ported-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	rewrites := map[string]string{clientGoCache: ourCache}
	for up, ours := range dynamicPackages {
		rewrites[up] = ours
	}
	n, err := apicompat.RewriteImports("internal/clientgodyn", dir, rewrites)
	if err != nil {
		t.Fatal(err)
	}
	if n < 5 {
		t.Fatalf("%d imports rewritten, want the monitor's 5 and its test's", n)
	}
	assertOnlyImportsDiffer(t, "internal/clientgodyn", dir, rewrites)

	pkg := "./" + filepath.ToSlash(dir)
	deps := goCmd(t, "list", "-deps", "-test", pkg)
	for up, ours := range rewrites {
		if strings.Contains(deps, up+"\n") {
			t.Errorf("the ported copy still depends on %s", up)
		}
		if !strings.Contains(deps, ours+"\n") {
			t.Errorf("the ported copy does not use %s", ours)
		}
	}
	goCmd(t, "vet", pkg)
	t.Log(goCmd(t, "test", "-race", "-count=1", "-v", pkg))
}
