package apicompat

import (
	"fmt"
	"go/types"
	"strings"

	"golang.org/x/tools/go/packages"
)

// Load type-checks the packages matching patterns, as the go command sees
// them from directory dir (whose go.mod decides the module versions), and
// returns them by import path. Packages that fail to load or type-check
// are an error naming the package and its first errors.
//
// The go command compiles what Load type-checks with -trimpath: a
// package's compilation then does not depend on the folder it is in, so
// a scratch module's packages (apicompat's ported module, made in a new
// temporary folder each run) are found in the build cache on the next
// run, and its dependencies are compiled once for this module's Load and
// the scratch module's builds and tests, which use -trimpath too.
func Load(dir string, patterns ...string) (map[string]*types.Package, error) {
	cfg := &packages.Config{
		Mode:       packages.NeedName | packages.NeedTypes,
		Dir:        dir,
		BuildFlags: []string{"-trimpath"},
	}
	pkgs, err := packages.Load(cfg, patterns...)
	if err != nil {
		return nil, fmt.Errorf("apicompat: loading %s from %s: %w", strings.Join(patterns, " "), dir, err)
	}
	out := make(map[string]*types.Package, len(pkgs))
	var errs []string
	for _, p := range pkgs {
		for i, e := range p.Errors {
			if i == 3 {
				errs = append(errs, fmt.Sprintf("%s: %d more errors", p.PkgPath, len(p.Errors)-i))
				break
			}
			errs = append(errs, fmt.Sprintf("%s: %v", p.PkgPath, e))
		}
		if p.Types != nil {
			out[p.PkgPath] = p.Types
		}
	}
	if len(errs) > 0 {
		return nil, fmt.Errorf("apicompat: loading %s from %s:\n%s", strings.Join(patterns, " "), dir, strings.Join(errs, "\n"))
	}
	return out, nil
}
