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
	if opts.WalksOnly {
		return generateWalks(opts)
	}
	t, err := newTarget(opts)
	if err != nil {
		return nil, err
	}
	in, err := loadInputs(t, opts.Patterns)
	if err != nil {
		return nil, err
	}
	plural := opts.PluralExceptions
	if plural == nil {
		plural, _ = ParsePluralExceptions(DefaultPluralExceptions)
	}
	m, err := buildModel(in.decls, newResourceNamer(plural), outWithSlashDirs(t.out), fileExists)
	if err != nil {
		return nil, err
	}
	if err := in.checkClientset(m, t); err != nil {
		return nil, err
	}
	files, err := render(plan(m, t.out, t.clientset, opts.Boilerplate, decoders{json: opts.JSONDecoders, proto: opts.ProtoDecoders}))
	if err != nil {
		return nil, err
	}
	o := &Output{Files: files, Roots: t.out.roots(), Base: t.outDir, Notes: m.notes}
	unlisted, err := o.unlistedNotes()
	if err != nil {
		return nil, err
	}
	o.Notes = append(o.Notes, unlisted...)
	return o, nil
}

// fileExists reports whether there is a file at the '/'-separated path p.
func fileExists(p string) bool {
	_, err := os.Stat(filepath.FromSlash(p))
	return err == nil
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
