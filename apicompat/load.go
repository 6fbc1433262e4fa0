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
func Load(dir string, patterns ...string) (map[string]*types.Package, error) {
	cfg := &packages.Config{
		Mode: packages.NeedName | packages.NeedTypes,
		Dir:  dir,
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
