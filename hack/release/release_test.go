package release

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"golang.org/x/mod/modfile"
	"golang.org/x/mod/module"
)

// rootModule is the module path of the repository's root module.
const rootModule = "github.com/informer-gen/informer-gen"

// version is the version the test releases, in a scratch repository with
// no other tag.
const version = "v0.1.0"

// consumerImports are the packages the consumer module imports: the
// runtime's and every public package of each library module.
var consumerImports = []string{
	rootModule + "/runtime/cache",
	rootModule + "/runtime/factory",
	rootModule + "/runtime/lister",
	rootModule + "/listwatch",
	rootModule + "/dynamic/dynamicinformer",
	rootModule + "/dynamic/dynamiclister",
	rootModule + "/dynamic/metadatainformer",
	rootModule + "/dynamic/metadatalister",
	rootModule + "/shard",
	rootModule + "/shard/ring",
	rootModule + "/controllerruntime",
}

// TestReleasedModulesBuildWithoutReplace releases the work tree with
// hack/release.sh in a scratch repository, serves every tagged module from
// a file-based proxy and builds a consumer that requires them all at the
// released version with no replace: each library module's tagged go.mod
// requires the root module at that version, a consumer that asks only for
// the library modules gets that root module, the go command resolves every
// package the consumer imports from the proxy, the generator runs from the
// consumer, its listers build on the fetched runtime and the consumer
// builds, with every public package of the library modules and the
// client-go they import (minutes from an empty build cache).
func TestReleasedModulesBuildWithoutReplace(t *testing.T) {
	if testing.Short() {
		t.Skip("releases in a scratch repository, downloads and builds modules with the go command")
	}
	repo := snapshot(t)
	out := run(t, repo, gitEnv(), filepath.Join(repo, "hack", "release.sh"), version)
	tags := strings.Fields(out)
	if !slices.Contains(tags, version) {
		t.Fatalf("hack/release.sh tagged %q, not the root module's %s", tags, version)
	}
	checkTidy(t, repo)
	proxy := Proxy{Dir: t.TempDir()}
	var modules []string
	for _, tag := range tags {
		subdir := strings.TrimSuffix(strings.TrimSuffix(tag, version), "/")
		m := module.Version{Path: path.Join(rootModule, subdir), Version: version}
		if subdir != "" {
			requireReleasedRoot(t, repo, tag, subdir)
		}
		if err := proxy.Add(repo, tag, subdir, m); err != nil {
			t.Fatal(err)
		}
		modules = append(modules, m.Path)
	}

	consumer := writeConsumer(t, repo)
	env := consumerEnv(t, proxy)
	// The consumer asks for the library modules only: the root module's
	// version is the one their go.mod files require.
	get := []string{"get"}
	for _, m := range modules {
		if m != rootModule {
			get = append(get, m+"@"+version)
		}
	}
	run(t, consumer, env, "go", get...)
	run(t, consumer, env, "go", "list", "-deps", ".")
	checkResolved(t, consumer, env, modules)
	run(t, consumer, env, "go", "run", rootModule+"/cmd/informer-gen",
		"--output-dir", "./generated", "--versioned-clientset-package", "k8s.io/client-go/kubernetes",
		"k8s.io/api/coordination/v1")
	run(t, consumer, env, "go", "build", "./generated/listers/...", ".")
}

// requireReleasedRoot fails the test unless the go.mod of the library
// module in subdir, at tag, requires the root module at version: a
// replace directive in it is ignored by consumers, so that requirement is
// the root module they build the library with.
func requireReleasedRoot(t *testing.T, repo, tag, subdir string) {
	t.Helper()
	name := subdir + "/go.mod"
	content := run(t, repo, nil, "git", "show", tag+":"+name)
	f, err := modfile.ParseLax(name, []byte(content), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range f.Require {
		if r.Mod.Path == rootModule {
			if r.Mod.Version != version {
				t.Errorf("%s at %s requires %s %s, not the released %s: a consumer cannot resolve it", name, tag, rootModule, r.Mod.Version, version)
			}
			return
		}
	}
	t.Errorf("%s at %s does not require %s", name, tag, rootModule)
}

// checkTidy fails the test unless every module of the released repository
// that requires one of its modules is tidy: the release commit changed the
// root module's version their builds select.
func checkTidy(t *testing.T, repo string) {
	t.Helper()
	err := filepath.WalkDir(repo, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && p != repo && (d.Name() == ".git" || strings.HasPrefix(d.Name(), "_")) {
			return filepath.SkipDir
		}
		if d.Name() != "go.mod" {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil || !strings.Contains(string(b), "\t"+rootModule) {
			return err
		}
		dir := filepath.Dir(p)
		cmd := exec.Command("go", "mod", "tidy", "-diff")
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOWORK=off")
		if out, err := cmd.CombinedOutput(); err != nil {
			rel, _ := filepath.Rel(repo, dir)
			t.Errorf("after hack/release.sh, module %s is not tidy: %v\n%s", rel, err, out)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// checkResolved fails the test unless the consumer resolves each of
// modules at version, from the module cache, without a replacement.
func checkResolved(t *testing.T, consumer string, env, modules []string) {
	t.Helper()
	args := append([]string{"list", "-m", "-f", "{{.Path}} {{.Version}}{{with .Replace}} replaced by {{.Path}} {{.Version}}{{end}}"}, modules...)
	got := strings.Split(strings.TrimSpace(run(t, consumer, env, "go", args...)), "\n")
	var want []string
	for _, m := range modules {
		want = append(want, m+" "+version)
	}
	if !slices.Equal(got, want) {
		t.Errorf("consumer resolves %q, want %q", got, want)
	}
}

// writeConsumer writes a consumer module importing consumerImports, with
// no requirement yet (go get adds them) and a go.sum seeded from the
// repository's published modules (their dependencies' checksums, so that
// the go command need not ask the checksum database for each).
func writeConsumer(t *testing.T, repo string) string {
	t.Helper()
	dir := t.TempDir()
	var src strings.Builder
	src.WriteString("// Command consumer uses informer-gen's released modules.\npackage main\n\nimport (\n")
	for _, p := range consumerImports {
		src.WriteString("\t_ \"" + p + "\"\n")
	}
	src.WriteString(")\n\nfunc main() {}\n")
	var sums []string
	for _, sub := range []string{".", "listwatch", "dynamic", "shard", "controllerruntime"} {
		b, err := os.ReadFile(filepath.Join(repo, sub, "go.sum"))
		if err != nil {
			t.Fatal(err)
		}
		sums = append(sums, strings.Split(strings.TrimSpace(string(b)), "\n")...)
	}
	slices.Sort(sums)
	files := map[string]string{
		"go.mod":  "module example.com/consumer\n\ngo 1.26.0\n",
		"main.go": src.String(),
		"go.sum":  strings.Join(slices.Compact(sums), "\n") + "\n",
	}
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// consumerEnv is the environment of the consumer's go commands: an empty
// module cache of its own, the repository's modules from proxy and every
// other module from this machine's module cache or the usual GOPROXY;
// the checksum database is not asked about the repository's modules (their
// versions exist only in proxy). Builds are -trimpath, so that the build
// cache serves later runs despite the fresh module cache, and without cgo
// (which no consumer of the modules needs), as hack/kube-binaries.sh
// builds kube-apiserver, etcd and client-gen: in hack/test.sh, whose
// background build of those comes first, the standard library's
// compilations are then theirs (77 CPU s on an empty build cache).
func consumerEnv(t *testing.T, proxy Proxy) []string {
	t.Helper()
	var goenv struct{ GOMODCACHE, GOPROXY, GOFLAGS string }
	if err := json.Unmarshal([]byte(run(t, ".", nil, "go", "env", "-json", "GOMODCACHE", "GOPROXY", "GOFLAGS")), &goenv); err != nil {
		t.Fatal(err)
	}
	cache := Proxy{Dir: filepath.Join(goenv.GOMODCACHE, "cache", "download")}
	return []string{
		"GOWORK=off",
		"GOMODCACHE=" + filepath.Join(t.TempDir(), "modcache"),
		"GOPROXY=" + proxy.URL() + "," + cache.URL() + "," + goenv.GOPROXY,
		"GOPRIVATE=", "GONOPROXY=",
		"GONOSUMDB=" + rootModule,
		"GOFLAGS=" + strings.TrimSpace(goenv.GOFLAGS+" -mod=mod -modcacherw -trimpath"),
		"CGO_ENABLED=0",
	}
}

// snapshot copies the repository's work tree (tracked files and untracked
// ones Git does not ignore, as they are now) into a scratch Git
// repository, committed, and returns its folder.
func snapshot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	list := run(t, root, nil, "git", "ls-files", "-z", "--cached", "--others", "--exclude-standard")
	dir := t.TempDir()
	for _, name := range strings.Split(strings.TrimSuffix(list, "\x00"), "\x00") {
		if err := copyFile(filepath.Join(root, name), filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	env := gitEnv()
	run(t, dir, env, "git", "init", "-q", "-b", "main")
	run(t, dir, env, "git", "add", "-A")
	run(t, dir, env, "git", "commit", "-q", "-m", "snapshot of the work tree")
	return dir
}

// copyFile copies the regular file src to dst with its permissions;
// a file deleted from the work tree but still tracked is skipped.
func copyFile(src, dst string) error {
	info, err := os.Lstat(src)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	if info.Mode()&os.ModeSymlink != 0 {
		target, err := os.Readlink(src)
		if err != nil {
			return err
		}
		return os.Symlink(target, dst)
	}
	b, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	return os.WriteFile(dst, b, info.Mode().Perm())
}

// gitEnv is the environment of git commands that commit or tag in the
// scratch repository: a fixed identity, no user or system configuration
// (no signing, no hooks of the user's).
func gitEnv() []string {
	return []string{
		"GIT_CONFIG_GLOBAL=" + os.DevNull, "GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME=release test", "GIT_AUTHOR_EMAIL=release-test@example.com",
		"GIT_COMMITTER_NAME=release test", "GIT_COMMITTER_EMAIL=release-test@example.com",
	}
}

// run runs name with args in dir, with env added to this process's
// environment, and returns its standard output; the test fails with the
// command's output when it fails.
func run(t *testing.T, dir string, env []string, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	start := time.Now()
	out, err := cmd.Output()
	t.Logf("%s %s: %v", filepath.Base(name), strings.Join(args, " "), time.Since(start).Round(time.Millisecond))
	if err != nil {
		t.Fatalf("%s %s in %s: %v\n%s%s", filepath.Base(name), strings.Join(args, " "), dir, err, out, stderr.String())
	}
	return string(out)
}
