package generators

import (
	"fmt"
	"go/parser"
	"go/token"
	"os"
	"strings"

	"golang.org/x/tools/go/packages"
)

// metav1Path is the package of ObjectMeta and TypeMeta. It is never
// loaded: none of its types but ObjectMeta itself (recognised by name)
// matters here.
const metav1Path = "k8s.io/apimachinery/pkg/apis/meta/v1"

// maxRefDepth bounds how many defined types, aliases and embedded structs
// are followed from a +genclient type, against cycles.
const maxRefDepth = 16

// typeResolver finds ObjectMeta where the syntax of a +genclient type does
// not show it: in the type a defined type or alias names (type X v1.Y,
// type X = v1.Y), or in an embedded struct, in the same or another
// package. It stays syntax only: other packages are located with one `go
// list` per importing file (names and files, no dependencies), and parsed
// only when a type is looked up in them. It is used by one goroutine.
type typeResolver struct {
	dir      string
	packages map[string]*typeIndex // by import path; nil value: not found
}

// typeIndex is the top-level types of one package, parsed lazily.
type typeIndex struct {
	pkg    *sourcePackage
	types  map[string]*declaredType
	parsed bool // every file was read
}

// newTypeResolver returns a resolver that knows the input packages'
// declarations already and resolves other import paths from dir.
func newTypeResolver(dir string, decls []*declarations) *typeResolver {
	r := &typeResolver{dir: dir, packages: map[string]*typeIndex{}}
	for _, d := range decls {
		// loadPackages parsed every file of an input package that
		// declares a type.
		idx := &typeIndex{pkg: d.pkg, types: map[string]*declaredType{}, parsed: true}
		for _, t := range d.types {
			idx.types[t.name] = t
		}
		r.packages[d.pkg.Path] = idx
	}
	return r
}

// resolveObjectMeta sets objectMeta (and objectMetaJSON) on every
// +genclient type of decls whose ObjectMeta comes from a type it refers
// to.
func (r *typeResolver) resolveObjectMeta(decls []*declarations) error {
	for _, d := range decls {
		for _, t := range d.types {
			if t.objectMeta || len(t.refs) == 0 || !mentionsGenclient(t.comments) {
				continue
			}
			found, json, err := r.objectMeta(d.pkg.Path, t, 0)
			if err != nil {
				return fmt.Errorf("package %s: type %s (%s): %w", d.pkg.Path, t.name, t.position, err)
			}
			t.objectMeta, t.objectMetaJSON = found, json
		}
	}
	return nil
}

func mentionsGenclient(lines []string) bool {
	for _, l := range lines {
		if strings.Contains(l, "+genclient") {
			return true
		}
	}
	return false
}

// objectMeta reports whether t, declared in package pkgPath, has an
// ObjectMeta field of its own or through its refs, and whether that field
// has a json tag.
func (r *typeResolver) objectMeta(pkgPath string, t *declaredType, depth int) (found, json bool, err error) {
	if t.objectMeta {
		return true, t.objectMetaJSON, nil
	}
	if depth >= maxRefDepth {
		return false, false, nil
	}
	for _, ref := range t.refs {
		targetPkg, target, err := r.lookup(pkgPath, t.imports, ref)
		if err != nil {
			return false, false, err
		}
		if target == nil {
			continue
		}
		if found, json, err := r.objectMeta(targetPkg, target, depth+1); err != nil || found {
			return found, json, err
		}
	}
	return false, false, nil
}

// lookup finds the declaration ref names in a file of package pkgPath with
// imports; nil when it is not a type declared in Go source (a builtin, a
// type of metav1).
func (r *typeResolver) lookup(pkgPath string, imports *fileImports, ref typeRef) (string, *declaredType, error) {
	target := pkgPath
	if ref.Qualifier != "" {
		p, err := r.importPath(imports, ref.Qualifier)
		if err != nil || p == "" {
			return "", nil, err
		}
		target = p
	}
	if target == metav1Path {
		return "", nil, nil
	}
	idx := r.packages[target]
	if idx == nil {
		return "", nil, nil
	}
	t := idx.types[ref.Name]
	if t == nil && !idx.parsed {
		if err := idx.parseAll(); err != nil {
			return "", nil, err
		}
		t = idx.types[ref.Name]
	}
	return target, t, nil
}

// importPath returns the import path a file with imports refers to by the
// package name qualifier: its named import, or the unnamed import whose
// package clause declares that name ("" when none does).
func (r *typeResolver) importPath(imports *fileImports, qualifier string) (string, error) {
	if p, ok := imports.named[qualifier]; ok {
		if err := r.load([]string{p}); err != nil {
			return "", err
		}
		return p, nil
	}
	if err := r.load(imports.unnamed); err != nil {
		return "", err
	}
	for _, p := range imports.unnamed {
		if idx := r.packages[p]; idx != nil && idx.pkg.Name == qualifier {
			return p, nil
		}
	}
	return "", nil
}

// load locates the packages of paths not known yet, in one go list call.
func (r *typeResolver) load(paths []string) error {
	var missing []string
	for _, p := range paths {
		if _, ok := r.packages[p]; !ok && p != metav1Path && p != "C" {
			missing = append(missing, p)
		}
	}
	if len(missing) == 0 {
		return nil
	}
	for _, p := range missing {
		r.packages[p] = nil
	}
	pkgs, err := packages.Load(&packages.Config{Mode: packages.NeedName | packages.NeedFiles, Dir: r.dir}, missing...)
	if err != nil {
		return fmt.Errorf("locating %s: %w", strings.Join(missing, ", "), err)
	}
	for _, p := range pkgs {
		if len(p.Errors) > 0 || len(p.GoFiles) == 0 {
			continue // not resolvable here: the type is simply not followed
		}
		r.packages[p.PkgPath] = &typeIndex{pkg: newSourcePackage(p), types: map[string]*declaredType{}}
	}
	return nil
}

// parseAll reads the type declarations of every file of idx not parsed
// yet. Files without any type declaration (declaresType) are skipped
// unparsed.
func (idx *typeIndex) parseAll() error {
	idx.parsed = true
	for _, f := range idx.pkg.Files {
		if f.AST != nil {
			continue
		}
		src, err := os.ReadFile(f.Name)
		if err != nil {
			return err
		}
		if !declaresType(src) {
			continue
		}
		fset := token.NewFileSet()
		file, err := parser.ParseFile(fset, f.Name, src, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		d := &declarations{pkg: idx.pkg}
		d.readFile(&sourceFile{Name: f.Name, AST: file, Fset: fset})
		for _, t := range d.types {
			if _, ok := idx.types[t.name]; !ok {
				idx.types[t.name] = t
			}
		}
	}
	return nil
}
