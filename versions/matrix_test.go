package versions

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// minors are the supported Kubernetes minors the generated output is tested
// against: the oldest and the newest. Each pins the newest patch release of
// its minor; k8s.io/api, k8s.io/apimachinery and k8s.io/client-go share
// their version numbers.
var minors = []struct {
	name    string
	version string
}{
	{name: "oldest supported minor", version: "v0.34.13"},
	{name: "newest supported minor", version: "v0.37.2"},
}

// apiGroups are the k8s.io/api packages generated in each scratch module:
// the core group, a namespaced and a cluster-scoped kind, and a few groups
// whose types changed between the minors.
var apiGroups = []string{
	"k8s.io/api/core/v1",
	"k8s.io/api/apps/v1",
	"k8s.io/api/batch/v1",
	"k8s.io/api/rbac/v1",
	"k8s.io/api/resource/v1",
}

// oldClientGen is the client-gen whose fake clientsets predate
// IsWatchListSemanticsUnSupported (added in v0.35): the scratch modules
// test informers on a fake it generates.
const oldClientGen = "k8s.io/code-generator/cmd/client-gen@v0.34.13"

// widgetAPI is the example project's API package, copied into each scratch
// module (as example.com/matrix/apis/stable/v1) for oldClientGen and
// informer-gen to generate from.
var widgetAPI = filepath.Join("examples", "crd", "apis", "stable", "v1")

// TestGeneratedOutputWorksOnEachKubernetesMinor generates informers and
// listers for apiGroups in a scratch module on each supported minor, then
// checks that the module resolves that minor's k8s.io/apimachinery (the
// runtime must not force a newer one, or k8s.io/api of the older minor no
// longer compiles), and that the output builds and its tests pass against
// client-go's fake clientset and a fake clientset of client-gen v0.34
// (oldClientGen), for the example's widgets; the tests check that
// informers sync on those fakes through a LIST, without waiting for a
// stream.
func TestGeneratedOutputWorksOnEachKubernetesMinor(t *testing.T) {
	if testing.Short() {
		t.Skip("downloads and compiles two client-go releases")
	}
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	smoke, err := os.ReadFile(filepath.Join("testdata", "smoke_test.go.txt"))
	if err != nil {
		t.Fatal(err)
	}
	watchList, err := os.ReadFile(filepath.Join("testdata", "watchlist_test.go.txt"))
	if err != nil {
		t.Fatal(err)
	}
	generator := filepath.Join(t.TempDir(), "informer-gen")
	run(t, root, "go", "build", "-o", generator, "./cmd/informer-gen")

	for _, m := range minors {
		t.Run(m.name+" "+m.version, func(t *testing.T) {
			dir := t.TempDir()
			writeFile(t, filepath.Join(dir, "go.mod"), scratchGoMod(root, m.version))
			writeFile(t, filepath.Join(dir, "deps.go"), scratchDeps())
			run(t, dir, "go", "mod", "tidy")

			args := []string{"--output-dir", "./generated", "--single-directory",
				"--versioned-clientset-package", "k8s.io/client-go/kubernetes"}
			run(t, dir, generator, append(args, apiGroups...)...)
			generateWidgets(t, root, dir, generator)
			writeFile(t, filepath.Join(dir, "smoke_test.go"), string(smoke))
			writeFile(t, filepath.Join(dir, "watchlist_test.go"), string(watchList))
			run(t, dir, "go", "mod", "tidy")

			for _, mod := range []string{"k8s.io/api", "k8s.io/apimachinery", "k8s.io/client-go"} {
				got := strings.TrimSpace(run(t, dir, "go", "list", "-m", "-f", "{{.Version}}", mod))
				if got != m.version {
					t.Errorf("scratch module on %s resolves %s %s: a requirement of this repository raises it", m.version, mod, got)
				}
			}
			run(t, dir, "go", "build", "-trimpath", "./...")
			out := run(t, dir, "go", "test", "-trimpath", "-count=1", "-v", "./...")
			for _, line := range strings.Split(out, "\n") {
				if strings.Contains(line, "--- ") || strings.Contains(line, "synced in") {
					t.Log(strings.TrimSpace(line))
				}
			}
		})
	}
}

// generateWidgets copies the example's API package (widgetAPI, from the
// repository at root) into the scratch module at dir, generates its
// clientset with oldClientGen into oldclient/ and its informers and listers
// with generator into widgets/.
func generateWidgets(t *testing.T, root, dir, generator string) {
	t.Helper()
	api := filepath.Join(dir, "apis", "stable", "v1")
	if err := os.MkdirAll(api, 0o755); err != nil {
		t.Fatal(err)
	}
	files, err := filepath.Glob(filepath.Join(root, widgetAPI, "*.go"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no Go files in %s: %v", widgetAPI, err)
	}
	for _, f := range files {
		content, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		writeFile(t, filepath.Join(api, filepath.Base(f)), string(content))
	}
	header := filepath.Join(t.TempDir(), "boilerplate.go.txt")
	writeFile(t, header, "")
	run(t, dir, "go", "run", oldClientGen, "--go-header-file", header,
		"--output-dir", "./oldclient", "--output-pkg", "example.com/matrix/oldclient",
		"--clientset-name", "versioned", "--input-base", "example.com/matrix/apis", "--input", "stable/v1")
	run(t, dir, "go", "mod", "tidy")
	run(t, dir, generator, "--output-dir", "./widgets", "--single-directory",
		"--versioned-clientset-package", "example.com/matrix/oldclient/versioned", "example.com/matrix/apis/stable/v1")
}

// scratchGoMod is the go.mod of a scratch module on k8s.io version v,
// using this repository (at root) for informer-gen's runtime.
func scratchGoMod(root, v string) string {
	return fmt.Sprintf(`module example.com/matrix

go 1.26.0

require (
	github.com/informer-gen/informer-gen v0.0.0
	k8s.io/api %[2]s
	k8s.io/apimachinery %[2]s
	k8s.io/client-go %[2]s
)

replace github.com/informer-gen/informer-gen => %[1]s
`, root, v)
}

// scratchDeps is a Go file importing what the generated code will, so that
// the first go mod tidy downloads it before the generator reads it.
func scratchDeps() string {
	var b strings.Builder
	b.WriteString("package matrix\n\nimport (\n")
	for _, p := range append(apiGroups,
		"k8s.io/client-go/kubernetes",
		"k8s.io/client-go/kubernetes/fake",
		"github.com/informer-gen/informer-gen/runtime/cache",
		"github.com/informer-gen/informer-gen/runtime/factory",
		"github.com/informer-gen/informer-gen/runtime/lister",
	) {
		fmt.Fprintf(&b, "\t_ %q\n", p)
	}
	b.WriteString(")\n")
	return b.String()
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// run runs name with args in dir, outside any go.work, and returns its
// standard output; the test fails with the command's output when it fails.
func run(t *testing.T, dir, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s %s in %s: %v\n%s%s", filepath.Base(name), strings.Join(args, " "), dir, err, out, stderr.String())
	}
	return string(out)
}
