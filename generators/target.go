package generators

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// target is where a run reads from and writes to, resolved from the
// options: the working folder, the output folders and packages, and the
// clientset's import path.
type target struct {
	dir    string // the folder patterns and relative paths are resolved from
	outDir string // the absolute --output-dir
	out    layout
	// clientset is the clientset's import path; clientsetFlag names the
	// flag (and the resolved path) in messages.
	clientset, clientsetFlag string
	// lintRules are the tag-checking rules applied to the inputs.
	lintRules []string
}

// newTarget resolves the folders and packages of opts, which validate
// checked.
func newTarget(opts Options) (*target, error) {
	t := &target{dir: opts.Dir, lintRules: opts.LintRules}
	if t.dir == "" {
		wd, err := os.Getwd()
		if err != nil {
			return nil, err
		}
		t.dir = wd
	}
	t.outDir = opts.OutputDir
	if !filepath.IsAbs(t.outDir) {
		t.outDir = filepath.Join(t.dir, t.outDir)
	}
	t.outDir = absDir(t.outDir)
	outPkg := opts.OutputPackage
	if outPkg == "" {
		p, err := importPathOf(t.outDir)
		if err != nil {
			return nil, fmt.Errorf("--output-pkg not given and cannot be derived from --output-dir: %w", err)
		}
		outPkg = p
	}
	if err := t.resolveClientset(opts.ClientsetPackage); err != nil {
		return nil, err
	}
	t.out = newLayout(opts, t.outDir, outPkg)
	return t, checkLayout(t.out, nil)
}

// resolveClientset sets the clientset's import path, resolving a ./relative
// folder against the module of t.dir.
func (t *target) resolveClientset(clientset string) error {
	t.clientset = clientset
	t.clientsetFlag = "--versioned-clientset-package " + clientset
	if !strings.HasPrefix(clientset, "./") && !strings.HasPrefix(clientset, "../") {
		return nil
	}
	p, err := importPathOf(filepath.Join(t.dir, clientset))
	if err != nil {
		return fmt.Errorf("%s: %w", t.clientsetFlag, err)
	}
	t.clientset = p
	t.clientsetFlag += " (" + p + ")"
	return nil
}

// newLayout returns the informers and listers folders and packages under
// outDir, whose import path is outPkg. A tree the run does not write has
// no folder: the informers with ListersOnly, the listers with
// ListersPackage (whose import path the informers use).
func newLayout(opts Options, outDir, outPkg string) layout {
	if opts.ListersOnly {
		return layout{listersDir: outDir, listersPkg: outPkg}
	}
	informersSub, informersPkg := filepath.FromSlash(opts.InformersSubdir), path.Join(outPkg, opts.InformersSubdir)
	if opts.ListersPackage != "" {
		informersSub, informersPkg = ".", outPkg
	}
	if !opts.SingleDirectory {
		informersSub = filepath.Join(informersSub, "externalversions")
		informersPkg = path.Join(informersPkg, "externalversions")
	}
	l := layout{informersDir: filepath.Join(outDir, informersSub), informersPkg: informersPkg, listersPkg: opts.ListersPackage}
	if opts.ListersPackage == "" {
		l.listersDir = filepath.Join(outDir, filepath.FromSlash(opts.ListersSubdir))
		l.listersPkg = path.Join(outPkg, opts.ListersSubdir)
	}
	return l
}
