package generators

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// Generate runs the generator in memory: it loads the input packages,
// builds the model and renders every file. Nothing is written; call Write
// or Verify on the result. The same input always gives the same Output.
func Generate(opts Options) (*Output, error) {
	if err := opts.validate(); err != nil {
		return nil, err
	}
	dir := opts.Dir
	if dir == "" {
		wd, err := os.Getwd()
		if err != nil {
			return nil, err
		}
		dir = wd
	}
	outDir := opts.OutputDir
	if !filepath.IsAbs(outDir) {
		outDir = filepath.Join(dir, outDir)
	}
	outDir = absDir(outDir)
	outPkg := opts.OutputPackage
	if outPkg == "" {
		p, err := importPathOf(outDir)
		if err != nil {
			return nil, fmt.Errorf("--output-pkg not given and cannot be derived from --output-dir: %w", err)
		}
		outPkg = p
	}
	clientset := opts.ClientsetPackage
	clientsetFlag := "--versioned-clientset-package " + clientset
	if strings.HasPrefix(clientset, "./") || strings.HasPrefix(clientset, "../") {
		p, err := importPathOf(filepath.Join(dir, clientset))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", clientsetFlag, err)
		}
		clientset = p
		clientsetFlag += " (" + p + ")"
	}

	informersSub := filepath.FromSlash(opts.InformersSubdir)
	informersPkg := path.Join(outPkg, opts.InformersSubdir)
	if !opts.SingleDirectory {
		informersSub = filepath.Join(informersSub, "externalversions")
		informersPkg = path.Join(informersPkg, "externalversions")
	}
	out := layout{
		informersDir: filepath.Join(outDir, informersSub),
		informersPkg: informersPkg,
		listersDir:   filepath.Join(outDir, filepath.FromSlash(opts.ListersSubdir)),
		listersPkg:   path.Join(outPkg, opts.ListersSubdir),
	}

	if err := checkLayout(out, nil); err != nil {
		return nil, err
	}
	pkgs, csPkg, err := loadPackages(dir, opts.Patterns, clientset)
	if err != nil {
		return nil, err
	}
	cs, csErr := readClientset(dir, clientset, csPkg)
	var inputs []inputFolder
	if csErr == nil {
		inputs = append(inputs, inputFolder{"the clientset " + clientset, absDir(cs.dir)})
	}
	for _, p := range pkgs {
		inputs = append(inputs, inputFolder{"input package " + p.Path, absDir(p.Dir)})
	}
	if err := checkLayout(out, inputs); err != nil {
		return nil, err
	}
	decls := make([]*declarations, len(pkgs))
	for i, p := range pkgs {
		decls[i] = readDeclarations(p)
	}
	if err := newTypeResolver(dir, decls).resolveObjectMeta(decls); err != nil {
		return nil, err
	}
	exists := func(p string) bool {
		_, err := os.Stat(filepath.FromSlash(p))
		return err == nil
	}
	plural := opts.PluralExceptions
	if plural == nil {
		plural, _ = ParsePluralExceptions(DefaultPluralExceptions)
	}
	m, err := buildModel(decls, newResourceNamer(plural), outWithSlashDirs(out), exists)
	if err != nil {
		return nil, err
	}
	// Only informers use the clientset: listers alone need none.
	if len(m.InformerGroups()) > 0 {
		if csErr == nil {
			csErr = cs.check(m)
		}
		if csErr != nil {
			return nil, fmt.Errorf("%s: %w", clientsetFlag, csErr)
		}
	}
	files, err := render(plan(m, out, clientset, opts.Boilerplate))
	if err != nil {
		return nil, err
	}
	o := &Output{Files: files, Roots: []string{out.informersDir, out.listersDir}, Base: outDir, Notes: m.notes}
	unlisted, err := o.unlistedNotes()
	if err != nil {
		return nil, err
	}
	o.Notes = append(o.Notes, unlisted...)
	return o, nil
}

// outWithSlashDirs returns out with '/'-separated folders, as buildModel
// joins them with package path.
func outWithSlashDirs(out layout) layout {
	out.informersDir = filepath.ToSlash(out.informersDir)
	out.listersDir = filepath.ToSlash(out.listersDir)
	return out
}

// importPathOf derives the import path of dir (which need not exist yet)
// from the go.mod of the nearest enclosing module.
func importPathOf(dir string) (string, error) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	var rest []string
	for d := dir; ; d = filepath.Dir(d) {
		mod, err := modulePath(filepath.Join(d, "go.mod"))
		if err == nil {
			return path.Join(append([]string{mod}, rest...)...), nil
		}
		if !errors.Is(err, os.ErrNotExist) {
			return "", err
		}
		if filepath.Dir(d) == d {
			return "", fmt.Errorf("no go.mod encloses %s", dir)
		}
		rest = append([]string{filepath.Base(d)}, rest...)
	}
}

func modulePath(gomod string) (string, error) {
	f, err := os.Open(gomod)
	if err != nil {
		return "", err
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	for s.Scan() {
		line := strings.TrimSpace(s.Text())
		if rest, ok := strings.CutPrefix(line, "module"); ok && (rest == "" || rest[0] == ' ' || rest[0] == '\t') {
			return strings.Trim(strings.TrimSpace(rest), `"`), nil
		}
	}
	return "", fmt.Errorf("%s has no module line", gomod)
}
