package generators

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// The walks-only mode (Options.WalksOnly, --walks-only) writes nothing but
// zz_generated.compaction.go for API packages that have no clientset: a
// kubebuilder project's api/v1, or k8s.io/api for controller-runtime's
// cache. Each package's object types (walkRoots) get their compaction walk
// registered from init, so importing the package registers them:
//
//   - without an output folder, the file goes into the API package itself
//     (it names the package's types unqualified);
//   - with one, into OUTPUT-DIR/GROUP/VERSION (named as the informers'
//     folders), importing the API package, plus OUTPUT-DIR's own
//     zz_generated.compaction.go importing every GROUP/VERSION package,
//     so that one blank import registers them all.

// walksRun is one walks-only run: where it reads and writes, and what it
// found on the way. It is used by one goroutine.
type walksRun struct {
	dir            string // the folder patterns are resolved from
	outDir, outPkg string // "" in place
	header         string
	files          []plannedFile
	packages       []string // OUTPUT-DIR/GROUP/VERSION import paths
	versionSource  map[string]string
	errs, notes    []string
}

// generateWalks is Generate with opts.WalksOnly, which validate checked.
func generateWalks(opts Options) (*Output, error) {
	r, err := newWalksRun(opts)
	if err != nil {
		return nil, err
	}
	decls, err := r.load(opts)
	if err != nil {
		return nil, err
	}
	explicit := explicitPatterns(opts.Patterns)
	var empty []string
	for _, d := range decls {
		roots := walkRoots(d)
		if len(roots) > 0 {
			r.addPackage(d, roots)
			continue
		}
		empty = append(empty, d.pkg.Path)
		if matchesAny(r.dir, explicit, d.pkg.Path, d.pkg.Dir) {
			r.errs = append(r.errs, fmt.Sprintf("input package %s: no object type found: --walks-only writes walks for the structs with an ObjectMeta field (or marked +kubebuilder:object:root=true with one through an embedded struct), and it has none", d.pkg.Path))
		} else {
			r.notes = append(r.notes, fmt.Sprintf("skipped %s: no type with ObjectMeta, nothing a cache holds", d.pkg.Path))
		}
	}
	if len(r.files) == 0 && len(r.errs) == 0 {
		return nil, fmt.Errorf("--walks-only: no object type (a struct with an ObjectMeta field) in %s; nothing to generate", strings.Join(empty, ", "))
	}
	if len(r.errs) > 0 {
		sort.Strings(r.errs)
		return nil, errors.New(strings.Join(r.errs, "\n"))
	}
	return r.output()
}

// newWalksRun resolves the folders of opts.
func newWalksRun(opts Options) (*walksRun, error) {
	dir, err := workDir(opts.Dir)
	if err != nil {
		return nil, err
	}
	r := &walksRun{dir: dir, header: header(opts.Boilerplate), versionSource: map[string]string{}}
	if opts.OutputDir == "" {
		return r, nil
	}
	r.outDir = opts.OutputDir
	if !filepath.IsAbs(r.outDir) {
		r.outDir = filepath.Join(dir, r.outDir)
	}
	r.outDir = absDir(r.outDir)
	r.outPkg = opts.OutputPackage
	if r.outPkg == "" {
		if r.outPkg, err = importPathOf(r.outDir); err != nil {
			return nil, fmt.Errorf("--output-pkg not given and cannot be derived from --output-dir: %w", err)
		}
	}
	return r, nil
}

// load reads the input packages, every file of them (the types an object
// holds may be declared in any), checks the lint rules and that the output
// folder holds no input, and resolves ObjectMeta through embedded structs.
func (r *walksRun) load(opts Options) ([]*declarations, error) {
	pkgs, _, err := loadPackages(r.dir, opts.Patterns, "", true)
	if err != nil {
		return nil, err
	}
	var folders []inputFolder
	decls := make([]*declarations, len(pkgs))
	for i, p := range pkgs {
		folders = append(folders, inputFolder{"input package " + p.Path, absDir(p.Dir)})
		decls[i] = readDeclarations(p)
		if err := lintPackage(decls[i], opts.LintRules); err != nil {
			return nil, err
		}
	}
	if r.outDir != "" {
		if err := checkLayout(layout{informersDir: r.outDir}, folders); err != nil {
			return nil, err
		}
	}
	return decls, newTypeResolver(r.dir, decls).resolveRoots(decls)
}

// output renders the planned files.
func (r *walksRun) output() (*Output, error) {
	o := &Output{Base: r.dir, Notes: r.notes}
	if r.outDir != "" {
		r.aggregateFile()
		o.Base, o.Roots = r.outDir, []string{r.outDir}
	}
	files, err := render(r.files)
	if err != nil {
		return nil, err
	}
	o.Files = files
	return o, nil
}

// explicitPatterns returns the patterns that name one package (no "...").
func explicitPatterns(patterns []string) []string {
	var out []string
	for _, p := range patterns {
		if !strings.Contains(p, "...") {
			out = append(out, p)
		}
	}
	return out
}

// workDir returns dir, or the process's working directory when dir is "".
func workDir(dir string) (string, error) {
	if dir != "" {
		return dir, nil
	}
	return os.Getwd()
}
