package generators

import (
	"fmt"
	"go/ast"
	"path"
	"path/filepath"
	"sort"
	"strings"
)

// kubebuilderRoot is the marker of a kubebuilder object type (and of its
// List).
const kubebuilderRoot = "+kubebuilder:object:root"

// walkRoots returns the names of d's object types, the types the
// walks-only mode registers a walk for: the structs with an ObjectMeta
// field, directly or (for a +kubebuilder:object:root type, once
// resolveRoots ran) through an embedded struct. List types (ListMeta) are
// not objects: a cache never holds one.
func walkRoots(d *declarations) []string {
	structs := map[string]bool{}
	for _, f := range d.pkg.Files {
		if f.AST == nil {
			continue
		}
		for _, decl := range f.AST.Decls {
			gd, ok := decl.(*ast.GenDecl)
			if !ok {
				continue
			}
			for _, spec := range gd.Specs {
				if ts, ok := spec.(*ast.TypeSpec); ok && !ts.Assign.IsValid() && ts.TypeParams == nil {
					_, structs[ts.Name.Name] = ts.Type.(*ast.StructType)
				}
			}
		}
	}
	var out []string
	for _, t := range d.types { // sorted by name
		if t.objectMeta && structs[t.name] {
			out = append(out, t.name)
		}
	}
	return out
}

// isKubebuilderRoot reports whether comments mark a kubebuilder object
// type (+kubebuilder:object:root or +kubebuilder:object:root=true).
func isKubebuilderRoot(comments []string) bool {
	for _, l := range comments {
		l = strings.TrimSpace(l)
		if l == kubebuilderRoot || l == kubebuilderRoot+"=true" {
			return true
		}
	}
	return false
}

// resolveRoots sets objectMeta on every +kubebuilder:object:root type of
// decls whose ObjectMeta comes from a struct it embeds.
func (r *typeResolver) resolveRoots(decls []*declarations) error {
	for _, d := range decls {
		for _, t := range d.types {
			if t.objectMeta || len(t.refs) == 0 || !isKubebuilderRoot(t.comments) {
				continue
			}
			found, _, err := r.objectMeta(d.pkg.Path, t, 0)
			if err != nil {
				return fmt.Errorf("package %s: type %s (%s): %w", d.pkg.Path, t.name, t.position, err)
			}
			t.objectMeta = found
		}
	}
	return nil
}

// addPackage plans the walks of d's object types roots: in d's folder, or
// in OUTPUT-DIR/GROUP/VERSION.
func (r *walksRun) addPackage(d *declarations, roots []string) {
	if r.outDir == "" {
		r.addInPlace(d, roots)
		return
	}
	ptags, err := parsePackageTags(d)
	if err != nil {
		r.errs = append(r.errs, fmt.Sprintf("package %s: %v", d.pkg.Path, err))
		return
	}
	_, groupPkg, _ := groupNames(d.pkg.Path, ptags)
	versionPkg := goPackageName(path.Base(d.pkg.Path))
	key := groupPkg + "/" + versionPkg
	if prev, ok := r.versionSource[key]; ok {
		r.errs = append(r.errs, fmt.Sprintf("packages %s and %s would both write their walks to %s under --output-dir; pass them in separate runs", prev, d.pkg.Path, key))
		return
	}
	r.versionSource[key] = d.pkg.Path
	alias := groupPkg + versionPkg
	if alias == "compact" {
		alias = "api" + alias
	}
	f := newCompactionFile(newWalkWriter(d.pkg, alias), roots, fileHeader{Header: r.header, Package: versionPkg})
	f.Doc = fmt.Sprintf("// Package %s registers, when imported, the compaction walks (package\n// runtime/compact) of the object types of %s.\n", versionPkg, d.pkg.Path)
	r.files = append(r.files, plannedFile{path: filepath.Join(r.outDir, groupPkg, versionPkg, compactionFileName), template: "compaction.go.tmpl", data: f})
	r.packages = append(r.packages, path.Join(r.outPkg, groupPkg, versionPkg))
}

// addInPlace plans zz_generated.compaction.go in d's own folder. Its
// functions and imports must not collide with the package's top-level
// names: the imports avoid them, a function that would collide is an
// error naming both.
func (r *walksRun) addInPlace(d *declarations, roots []string) {
	taken := topLevelNames(d.pkg)
	w := newWalkWriter(d.pkg, "")
	for name := range taken {
		w.names[name] = true
	}
	f := newCompactionFile(w, roots, fileHeader{Header: r.header, Package: d.pkg.Name})
	generated := []string{"compact"}
	for fn := range w.funcs {
		generated = append(generated, fn)
	}
	sort.Strings(generated)
	for _, name := range generated {
		if where, ok := taken[name]; ok {
			r.errs = append(r.errs, fmt.Sprintf("package %s: %s declares %s, a name the generated %s needs; rename it, or pass --output-dir to write the walks in a package of their own", d.pkg.Path, where, name, compactionFileName))
		}
	}
	r.files = append(r.files, plannedFile{path: filepath.Join(d.pkg.Dir, compactionFileName), template: "compaction.go.tmpl", data: f})
}

// topLevelNames returns the package-level names of p's files (but the
// generated walks' own file), by the file declaring each.
func topLevelNames(p *sourcePackage) map[string]string {
	out := map[string]string{}
	for _, f := range p.Files {
		base := filepath.Base(f.Name)
		if f.AST == nil || base == compactionFileName {
			continue
		}
		for _, decl := range f.AST.Decls {
			for _, name := range declNames(decl) {
				out[name] = base
			}
		}
	}
	return out
}

// declNames returns the package-level names decl declares.
func declNames(decl ast.Decl) []string {
	var out []string
	switch decl := decl.(type) {
	case *ast.FuncDecl:
		if decl.Recv == nil {
			out = append(out, decl.Name.Name)
		}
	case *ast.GenDecl:
		for _, spec := range decl.Specs {
			switch spec := spec.(type) {
			case *ast.TypeSpec:
				out = append(out, spec.Name.Name)
			case *ast.ValueSpec:
				for _, n := range spec.Names {
					out = append(out, n.Name)
				}
			}
		}
	}
	return out
}

// compactionAllFile is the data of compaction_all.go.tmpl: OUTPUT-DIR's
// zz_generated.compaction.go, which imports every GROUP/VERSION package
// of walks so that importing it registers them all.
type compactionAllFile struct {
	fileHeader
	Packages []string
}

// aggregateFile plans OUTPUT-DIR/zz_generated.compaction.go.
func (r *walksRun) aggregateFile() {
	pkgs := append([]string(nil), r.packages...)
	sort.Strings(pkgs)
	data := compactionAllFile{fileHeader: fileHeader{Header: r.header, Package: goPackageName(filepath.Base(r.outDir))}, Packages: pkgs}
	r.files = append(r.files, plannedFile{path: filepath.Join(r.outDir, compactionFileName), template: "compaction_all.go.tmpl", data: data})
}
