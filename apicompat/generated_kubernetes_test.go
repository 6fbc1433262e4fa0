package apicompat_test

import (
	"fmt"
	"go/token"
	"go/types"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/informer-gen/informer-gen/apicompat"
)

// clientGoVersion is the client-go (and k8s.io/api) release whose generated
// informers and listers ours must stand in for.
const clientGoVersion = "v0.37.2"

// kubegenModule is the scratch module informer-gen writes k8s.io/api's
// informers and listers into.
const kubegenModule = "example.com/kubegen"

// TestGeneratedKubernetesInformersAndListersMatchClientGo generates our
// informers and listers for every group of k8s.io/api, with
// k8s.io/client-go/kubernetes as the clientset, and checks that every
// exported name of every package of client-go's informers/ and listers/
// (as code-generator emitted them) exists in our output with a declaration
// code written against client-go compiles with, and that no interface of
// ours requires methods client-go's does not (code implementing them, such
// as a hand-written test factory, must compile too).
func TestGeneratedKubernetesInformersAndListersMatchClientGo(t *testing.T) {
	if testing.Short() {
		t.Skip("type-checks client-go's informers and listers and ours for all of k8s.io/api")
	}
	dir := generateKubernetes(t)

	pkgs, err := apicompat.Load(dir,
		"k8s.io/client-go/informers/...", "k8s.io/client-go/listers/...", kubegenModule+"/...")
	if err != nil {
		t.Fatal(err)
	}
	m := apicompat.ClientGoRuntime()
	m["k8s.io/client-go/informers"] = kubegenModule + "/informers"
	m["k8s.io/client-go/listers"] = kubegenModule + "/listers"

	var upstream []string
	for path := range pkgs {
		// k8s.io/client-go/listers itself is client-go's hand-written
		// lister runtime, which generated code hides (runtime/lister).
		if strings.HasPrefix(path, "k8s.io/client-go/") && path != "k8s.io/client-go/listers" {
			upstream = append(upstream, path)
		}
	}
	sort.Strings(upstream)
	if len(upstream) < 100 {
		t.Fatalf("loaded only %d client-go informer and lister packages; the patterns are wrong", len(upstream))
	}

	var names, missing, incompatible, extra int
	var problems []string
	for _, path := range upstream {
		ourPath, _ := m.Map(path)
		ours, ok := pkgs[ourPath]
		if !ok {
			n := exportedNames(pkgs[path])
			names += n
			missing += n
			problems = append(problems, fmt.Sprintf("%s: package %s not generated (%d names)", path, ourPath, n))
			continue
		}
		r := apicompat.ComparePackages(pkgs[path], ours, m)
		names += len(r.Shared) + len(r.Missing)
		missing += len(r.Missing)
		incompatible += len(r.IncompatibleNames())
		extra += len(r.ExtraMethods)
		if len(r.Missing) > 0 || len(r.Incompatible) > 0 || len(r.ExtraMethods) > 0 {
			problems = append(problems, strings.TrimSpace(r.String()))
		}
	}
	t.Logf("%d client-go packages, %d exported names: %d missing, %d incompatible; %d interfaces with extra methods",
		len(upstream), names, missing, incompatible, extra)
	if missing+incompatible+extra > 0 {
		t.Errorf("generated code is not a drop-in for client-go %s: %d names missing, %d incompatible, %d extra interface methods\n%s",
			clientGoVersion, missing, incompatible, extra, strings.Join(problems, "\n"))
	}
}

// exportedNames counts the exported package-level names of p.
func exportedNames(p *types.Package) int {
	n := 0
	for _, name := range p.Scope().Names() {
		if token.IsExported(name) {
			n++
		}
	}
	return n
}

// generateKubernetes writes a scratch module requiring k8s.io/api and
// k8s.io/client-go at clientGoVersion and this repository (replaced by the
// working tree), runs informer-gen built from the working tree over
// k8s.io/api/... into it, and returns its directory. It downloads what it
// needs, so it works from an empty module cache.
func generateKubernetes(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	generator := filepath.Join(t.TempDir(), "informer-gen")
	run(t, root, "go", "build", "-o", generator, "./cmd/informer-gen")

	goMod := fmt.Sprintf(`module %[1]s

go 1.26.0

require (
	github.com/informer-gen/informer-gen v0.0.0
	k8s.io/api %[2]s
	k8s.io/apimachinery %[2]s
	k8s.io/client-go %[2]s
)

replace github.com/informer-gen/informer-gen => %[3]s
`, kubegenModule, clientGoVersion, root)
	// deps.go imports what the generated code and the comparison read, so
	// that go mod tidy downloads it before informer-gen runs.
	deps := `package kubegen

import (
	_ "github.com/informer-gen/informer-gen/runtime/cache"
	_ "github.com/informer-gen/informer-gen/runtime/factory"
	_ "github.com/informer-gen/informer-gen/runtime/lister"
	_ "k8s.io/client-go/informers"
	_ "k8s.io/client-go/kubernetes"
)
`
	for name, content := range map[string]string{"go.mod": goMod, "deps.go": deps} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	run(t, dir, "go", "mod", "tidy")
	copyListerExpansions(t, dir)
	run(t, dir, generator, "--output-dir", ".", "--single-directory",
		"--versioned-clientset-package", "k8s.io/client-go/kubernetes", "k8s.io/api/...")
	return dir
}

// copyListerExpansions copies client-go's hand-written lister expansions
// (listers/GROUP/VERSION/TYPE_expansion.go: GetPodStatefulSets and the
// like) into dir's listers, as a project porting them would; informer-gen
// then leaves the expansion interfaces they declare to them, and they must
// compile against our generated listers.
func copyListerExpansions(t *testing.T, dir string) {
	t.Helper()
	clientGo := strings.TrimSpace(output(t, dir, "go", "list", "-m", "-f", "{{.Dir}}", "k8s.io/client-go"))
	files, err := filepath.Glob(filepath.Join(clientGo, "listers", "*", "*", "*_expansion.go"))
	if err != nil {
		t.Fatal(err)
	}
	copied := 0
	for _, f := range files {
		if filepath.Base(f) == "expansion_generated.go" {
			continue
		}
		rel, err := filepath.Rel(clientGo, f)
		if err != nil {
			t.Fatal(err)
		}
		content, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		dst := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(dst, content, 0o644); err != nil {
			t.Fatal(err)
		}
		copied++
	}
	if copied == 0 {
		t.Fatalf("no hand-written lister expansions found under %s/listers", clientGo)
	}
}

// run runs name with args in dir, outside any go.work; the test fails with
// the command's output when it fails.
func run(t *testing.T, dir, name string, args ...string) {
	t.Helper()
	output(t, dir, name, args...)
}

// output is run returning the command's standard output.
func output(t *testing.T, dir, name string, args ...string) string {
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
