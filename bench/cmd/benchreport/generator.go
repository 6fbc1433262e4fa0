package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"time"
)

// generatorBench compares the generators on every package of k8s.io/api
// with a +genclient type, generated against k8s.io/client-go/kubernetes:
// upstream informer-gen and lister-gen (k8s.io/code-generator, pinned in
// bench/tools), run the way upstream's kube_codegen.sh runs them, against
// one run of ours. It is not safe for concurrent use.
type generatorBench struct {
	work             string // scratch directory holding everything below
	module           string // scratch Go module the generators run in
	header           string // boilerplate file passed to every generator
	informerGen      string // upstream binaries
	listerGen        string
	ours             string
	packages         []string // input packages (import paths)
	codegenVersion   string   // k8s.io/code-generator version in bench/tools
	apiVersion       string   // k8s.io/api version of the input
	clientsetPackage string
}

// generatorRun is what one generator process cost.
type generatorRun struct {
	wall   time.Duration
	cpu    time.Duration // user + system
	maxRSS int64         // bytes (ru_maxrss of the generator process)
}

// newGeneratorBench builds the three generators (upstream ones from
// toolsDir, ours from rootDir) into a temporary directory and prepares a
// scratch module requiring k8s.io/api, k8s.io/apimachinery and
// k8s.io/client-go at apiVersion, downloading them through the module proxy
// when they are not in the module cache. Close removes the directory.
func newGeneratorBench(ctx context.Context, rootDir, toolsDir, apiVersion string) (*generatorBench, error) {
	work, err := os.MkdirTemp("", "benchreport-generator-")
	if err != nil {
		return nil, err
	}
	g := &generatorBench{
		work:             work,
		module:           filepath.Join(work, "module"),
		header:           filepath.Join(work, "boilerplate.go.txt"),
		informerGen:      filepath.Join(work, "bin", "informer-gen"),
		listerGen:        filepath.Join(work, "bin", "lister-gen"),
		ours:             filepath.Join(work, "bin", "ours-informer-gen"),
		apiVersion:       apiVersion,
		clientsetPackage: "k8s.io/client-go/kubernetes",
	}
	if err := g.prepare(ctx, rootDir, toolsDir); err != nil {
		g.Close()
		return nil, err
	}
	return g, nil
}

func (g *generatorBench) prepare(ctx context.Context, rootDir, toolsDir string) error {
	if _, err := exec.LookPath(timeBin); err != nil {
		return fmt.Errorf("the generator comparison measures with GNU time: %v (apt-get install time, or SKIP_GENERATOR=1)", err)
	}
	if _, err := goOutput(ctx, toolsDir, "build", "-o", filepath.Dir(g.informerGen)+string(filepath.Separator),
		"k8s.io/code-generator/cmd/informer-gen", "k8s.io/code-generator/cmd/lister-gen"); err != nil {
		return err
	}
	v, err := goOutput(ctx, toolsDir, "list", "-m", "-f", "{{.Version}}", "k8s.io/code-generator")
	if err != nil {
		return err
	}
	g.codegenVersion = strings.TrimSpace(v)
	if _, err := goOutput(ctx, rootDir, "build", "-o", g.ours, "./cmd/informer-gen"); err != nil {
		return err
	}
	if err := os.WriteFile(g.header, []byte("/*\nCopyright The Benchmark Authors.\n*/\n\n"), 0o644); err != nil {
		return err
	}
	if err := os.MkdirAll(g.module, 0o755); err != nil {
		return err
	}
	gomod := fmt.Sprintf("module example.com/genbench\n\ngo 1.26.0\n\nrequire (\n\tk8s.io/api %[1]s\n\tk8s.io/apimachinery %[1]s\n\tk8s.io/client-go %[1]s\n)\n", g.apiVersion)
	deps := "package genbench\n\nimport (\n\t_ \"k8s.io/api/core/v1\"\n\t_ \"k8s.io/client-go/kubernetes\"\n)\n"
	if err := os.WriteFile(filepath.Join(g.module, "go.mod"), []byte(gomod), 0o644); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(g.module, "deps.go"), []byte(deps), 0o644); err != nil {
		return err
	}
	if _, err := goOutput(ctx, g.module, "mod", "tidy"); err != nil {
		return err
	}
	if _, err := goOutput(ctx, g.module, "mod", "download"); err != nil {
		return err
	}
	apiDir, err := goOutput(ctx, g.module, "list", "-m", "-f", "{{.Dir}}", "k8s.io/api")
	if err != nil {
		return err
	}
	g.packages, err = genclientPackages("k8s.io/api", strings.TrimSpace(apiDir))
	if err != nil {
		return err
	}
	if len(g.packages) == 0 {
		return fmt.Errorf("no +genclient package in k8s.io/api %s", g.apiVersion)
	}
	return nil
}

// Close removes the scratch directory.
func (g *generatorBench) Close() error { return os.RemoveAll(g.work) }

// genclientTag is the pattern kube_codegen.sh greps input packages with.
var genclientTag = regexp.MustCompile(`(?m)^\s*//\s*\+genclient`)

// genclientPackages lists, like kube_codegen.sh, the packages under the
// module modPath in dir with a Go file holding a +genclient tag.
func genclientPackages(modPath, dir string) ([]string, error) {
	seen := map[string]bool{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return err
		}
		rel, err := filepath.Rel(dir, filepath.Dir(p))
		if err != nil || seen[rel] {
			return err
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if genclientTag.Match(src) {
			seen[rel] = true
		}
		return nil
	})
	var pkgs []string
	for rel := range seen {
		pkgs = append(pkgs, modPath+"/"+filepath.ToSlash(rel))
	}
	sort.Strings(pkgs)
	return pkgs, err
}

// outputPackage is the import path of the scratch module folder out.
func (g *generatorBench) outputPackage(out string) string { return "example.com/genbench/" + out }

// Upstream runs lister-gen then informer-gen into a fresh output folder,
// with the flags kube_codegen.sh passes (informers use the listers just
// generated), and returns each run and the number of Go files written.
func (g *generatorBench) Upstream(ctx context.Context) (informer, lister generatorRun, files int, err error) {
	out := "upstream"
	if err := os.RemoveAll(filepath.Join(g.module, out)); err != nil {
		return informer, lister, 0, err
	}
	common := []string{"-v", "0", "--go-header-file", g.header, "--plural-exceptions", "Endpoints:Endpoints"}
	lister, err = g.run(ctx, g.listerGen, append(append(common,
		"--output-dir", filepath.Join(out, "listers"),
		"--output-pkg", g.outputPackage(out+"/listers")), g.packages...))
	if err != nil {
		return informer, lister, 0, err
	}
	informer, err = g.run(ctx, g.informerGen, append(append(common,
		"--output-dir", filepath.Join(out, "informers"),
		"--output-pkg", g.outputPackage(out+"/informers"),
		"--versioned-clientset-package", g.clientsetPackage,
		"--listers-package", g.outputPackage(out+"/listers")), g.packages...))
	if err != nil {
		return informer, lister, 0, err
	}
	files, err = countGoFiles(filepath.Join(g.module, out))
	return informer, lister, files, err
}

// Ours runs our informer-gen once (informers and listers) into a fresh
// output folder and returns the run and the number of Go files written.
func (g *generatorBench) Ours(ctx context.Context) (generatorRun, int, error) {
	out := "ours"
	if err := os.RemoveAll(filepath.Join(g.module, out)); err != nil {
		return generatorRun{}, 0, err
	}
	r, err := g.run(ctx, g.ours, append([]string{
		"--go-header-file", g.header, "--plural-exceptions", "Endpoints:Endpoints",
		"--output-dir", out, "--output-pkg", g.outputPackage(out),
		"--versioned-clientset-package", g.clientsetPackage}, g.packages...))
	if err != nil {
		return r, 0, err
	}
	files, err := countGoFiles(filepath.Join(g.module, out))
	return r, files, err
}

// run runs one generator in the scratch module and measures it, through
// GNU time (timeBin): the peak RSS must come from a process forked from a
// small one. Go starts children with vfork semantics (CLONE_VM), so a
// child's ru_maxrss as seen by this process starts at this process's own
// peak, hundreds of MiB after the runtime benchmarks; GNU time forks the
// generator from its own few MiB and reports the generator's ru_maxrss
// and CPU times.
func (g *generatorBench) run(ctx context.Context, bin string, args []string) (generatorRun, error) {
	usage := filepath.Join(g.work, "usage")
	cmd := exec.CommandContext(ctx, timeBin, append([]string{"-f", "%U %S %M", "-o", usage, bin}, args...)...)
	cmd.Dir = g.module
	var output bytes.Buffer
	cmd.Stdout, cmd.Stderr = &output, &output
	start := time.Now()
	err := cmd.Run()
	r := generatorRun{wall: time.Since(start)}
	if err != nil {
		return r, fmt.Errorf("%s: %v\n%s", filepath.Base(bin), err, lastLines(output.String(), 20))
	}
	data, err := os.ReadFile(usage)
	if err != nil {
		return r, err
	}
	var user, sys float64
	var maxRSSKiB int64
	if _, err := fmt.Sscanf(lastLines(string(data), 1), "%g %g %d", &user, &sys, &maxRSSKiB); err != nil {
		return r, fmt.Errorf("reading %s output %q: %v", timeBin, data, err)
	}
	r.cpu = time.Duration((user + sys) * float64(time.Second))
	r.maxRSS = maxRSSKiB * 1024
	return r, nil
}

// timeBin is GNU time, which measures each generator process.
const timeBin = "/usr/bin/time"

func countGoFiles(dir string) (int, error) {
	n := 0
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".go") {
			n++
		}
		return err
	})
	return n, err
}

// goOutput runs the go command in dir and returns its standard output.
func goOutput(ctx context.Context, dir string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("go %s in %s: %v\n%s", strings.Join(args, " "), dir, err, lastLines(stderr.String(), 20))
	}
	return string(out), nil
}

func lastLines(s string, n int) string {
	var lines []string
	sc := bufio.NewScanner(strings.NewReader(s))
	for sc.Scan() {
		lines = append(lines, sc.Text())
	}
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}
