package crd

import (
	"bufio"
	"bytes"
	"context"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// kubeCodegenTimeout bounds the whole kube_codegen.sh test, tool builds
// included, so that a stuck command fails it instead of hanging it.
const kubeCodegenTimeout = 10 * time.Minute

// kubeCodegenGoMod is the go.mod of the temporary project, set up as
// docs/kube-codegen.md says (informer-gen recorded as a tool); %s is the
// informer-gen repository root.
const kubeCodegenGoMod = `module example.com/kubecodegen

go 1.26.0

require (
	github.com/informer-gen/informer-gen v0.0.0
	k8s.io/apimachinery v0.37.2
	k8s.io/code-generator v0.37.2
)

tool github.com/informer-gen/informer-gen/cmd/informer-gen

replace github.com/informer-gen/informer-gen => %s
`

// roundTripTest is the test file of testdata/kubecodegen that uses the
// generated code; it joins the project once the code is generated.
const roundTripTest = "informers_test.go"

// TestGenInformersReplacesGenClientWithWatch runs code-generator v0.37.2's
// kube_codegen.sh and the repository's informer_gen.sh the way a CRD project
// does, on a copy of this example's API in a temporary module
// (testdata/kubecodegen): first with upstream's informers and listers
// (gen_client --with-watch), then with hack/update-codegen.sh, the change
// docs/kube-codegen.md describes (gen_client without --with-watch, then
// informer_gen::gen_informers with the same arguments). It checks that
// informer-gen's output replaced upstream's in the same packages, and runs
// the project's test of the generated factory and listers on the generated
// fake clientset. Modules come from the module proxy, as on a fresh
// machine.
func TestGenInformersReplacesGenClientWithWatch(t *testing.T) {
	if testing.Short() {
		t.Skip("builds code-generator's tools and client-go: skipped with -short")
	}
	ctx, cancel := context.WithTimeout(context.Background(), kubeCodegenTimeout)
	defer cancel()
	repo, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	dir := newKubeCodegenProject(t, repo)
	// The tools go to _output like hack/kube-binaries.sh's, so that a
	// later run finds them up to date instead of linking them again.
	env := append(os.Environ(), "GOBIN="+filepath.Join(repo, "_output", "kubecodegen", "bin"), "GOWORK=off", "GOFLAGS=")

	mustRun(ctx, t, dir, env, "go", "mod", "tidy")
	mustRun(ctx, t, dir, env, "bash", "hack/update-codegen-upstream.sh")
	generated := filepath.Join(dir, "pkg", "generated")
	upstreamPkgs := goPackages(t, generated, "informer", "lister")
	if n := len(headerFiles(t, generated, "lister-gen")); n == 0 {
		t.Fatalf("gen_client --with-watch wrote no lister-gen files under %s", generated)
	}

	// A project using the clientset requires client-go; go.mod lacks the
	// rest of what the clientset imports until go mod tidy, which
	// informer_gen.sh must cope with.
	mustRun(ctx, t, dir, env, "go", "get", "k8s.io/client-go@v0.37.2")
	mustRun(ctx, t, dir, env, "bash", "hack/update-codegen.sh")
	if left := headerFiles(t, generated, "lister-gen"); len(left) > 0 {
		t.Errorf("upstream listers left after informer_gen::gen_informers: %v", left)
	}
	ours := append(listed(t, filepath.Join(generated, "informer", "externalversions")), listed(t, filepath.Join(generated, "lister"))...)
	for _, f := range headerFiles(t, generated, "informer-gen") {
		if !slices.Contains(ours, f) {
			t.Errorf("%s has informer-gen's header but no manifest lists it: an upstream leftover", f)
		}
	}
	if got := goPackages(t, generated, "informer", "lister"); !slices.Equal(got, upstreamPkgs) {
		t.Errorf("informer_gen::gen_informers wrote packages %v; gen_client --with-watch wrote %v", got, upstreamPkgs)
	}

	copyFile(t, filepath.Join("testdata", "kubecodegen", roundTripTest), filepath.Join(dir, roundTripTest))
	mustRun(ctx, t, dir, env, "go", "mod", "tidy")
	mustRun(ctx, t, dir, env, "go", "test", "-race", "-count=1", "./...")
}

// newKubeCodegenProject returns a temporary module holding
// testdata/kubecodegen but its roundTripTest, and a copy of this example's
// API under pkg/apis.
func newKubeCodegenProject(t *testing.T, repo string) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS(filepath.Join("testdata", "kubecodegen"))); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(dir, roundTripTest)); err != nil {
		t.Fatal(err)
	}
	api := filepath.Join(dir, "pkg", "apis", "stable", "v1")
	if err := os.MkdirAll(api, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"doc.go", "register.go", "types.go"} {
		copyFile(t, filepath.Join("apis", "stable", "v1", f), filepath.Join(api, f))
	}
	gomod := strings.Replace(kubeCodegenGoMod, "%s", repo, 1)
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte(gomod), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// copyFile copies file src to dst.
func copyFile(t *testing.T, src, dst string) {
	t.Helper()
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dst, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// mustRun runs a command in dir and fails the test with its output if it fails.
func mustRun(ctx context.Context, t *testing.T, dir string, env []string, name string, args ...string) {
	t.Helper()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	cmd.Env = env
	start := time.Now()
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
	t.Logf("%s %s: ok in %v", name, strings.Join(args, " "), time.Since(start).Round(time.Second))
}

// goPackages returns the folders, relative to base, holding .go files under
// base's subfolders subs, sorted.
func goPackages(t *testing.T, base string, subs ...string) []string {
	t.Helper()
	var pkgs []string
	for _, sub := range subs {
		err := filepath.WalkDir(filepath.Join(base, sub), func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(p, ".go") {
				return err
			}
			rel, err := filepath.Rel(base, filepath.Dir(p))
			if err == nil && !slices.Contains(pkgs, rel) {
				pkgs = append(pkgs, rel)
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	slices.Sort(pkgs)
	return pkgs
}

// headerFiles returns the .go files under base whose "Code generated" line
// names generator.
func headerFiles(t *testing.T, base, generator string) []string {
	t.Helper()
	header := []byte("\n// Code generated by " + generator + ". DO NOT EDIT.\n")
	var files []string
	err := filepath.WalkDir(base, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".go") {
			return err
		}
		b, err := os.ReadFile(p)
		if err == nil && bytes.Contains(append([]byte("\n"), b...), header) {
			files = append(files, p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// listed returns the files the informer-gen manifest of root lists, as
// paths under root.
func listed(t *testing.T, root string) []string {
	t.Helper()
	f, err := os.Open(filepath.Join(root, ".informer-gen.manifest"))
	if err != nil {
		t.Fatalf("informer-gen's manifest: %v", err)
	}
	defer f.Close()
	var files []string
	s := bufio.NewScanner(f)
	for s.Scan() {
		if line := strings.TrimSpace(s.Text()); line != "" && !strings.HasPrefix(line, "#") {
			files = append(files, filepath.Join(root, filepath.FromSlash(line)))
		}
	}
	if err := s.Err(); err != nil {
		t.Fatal(err)
	}
	return files
}

// TestGenInformersRefusesBadArguments pins informer_gen::gen_informers'
// argument errors: each names the argument at fault and fails the sourcing
// script (as kube_codegen.sh's functions do) before anything is installed
// or generated. gen_client's flags without a value are taken alone.
func TestGenInformersRefusesBadArguments(t *testing.T) {
	script, err := filepath.Abs(filepath.Join("..", "..", "informer_gen.sh"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		args string
		want string
	}{
		{"no input dir", "--output-dir out --output-pkg example.com/out", "input-dir argument is required"},
		{"two input dirs", "apis more", "too many arguments: more (already have apis)"},
		{"unknown flag", "--with-applyconfigs apis", "unknown argument: --with-applyconfigs"},
		{"flag without value", "apis --output-dir", "--output-dir needs a value"},
		{"no output dir", "--with-watch --prefers-protobuf apis --output-pkg example.com/out", "--output-dir is required"},
		{"no output pkg", "--with-applyconfig --applyconfig-name ac --output-dir out apis", "--output-pkg is required"},
		{"--without-json-decoders is taken alone", "--without-json-decoders apis --output-pkg example.com/out", "--output-dir is required"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cmd := exec.Command("bash", "-c", `source "$0" && informer_gen::gen_informers `+tc.args+` && echo returned 0`, script)
			cmd.Dir = t.TempDir()
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			out, err := cmd.Output()
			if err == nil || len(out) > 0 {
				t.Fatalf("gen_informers %s: err %v, stdout %q; want a failure", tc.args, err, out)
			}
			want := "informer_gen::gen_informers: " + tc.want + "\n"
			if stderr.String() != want {
				t.Errorf("gen_informers %s: stderr %q; want %q", tc.args, stderr.String(), want)
			}
		})
	}
}
