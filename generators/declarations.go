package generators

import (
	"go/ast"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"
)

// declarations is what the generator reads from one input package.
type declarations struct {
	pkg *sourcePackage
	// types are the package's top-level named types, sorted by name.
	types []*declaredType
	// packageComments are the comment lines above the package clause, per
	// file (sorted by file name): where +groupName and the package opt-outs
	// live.
	packageComments []fileComment
	// schemeGroupVersion and resource record whether the package declares
	// SchemeGroupVersion and Resource, which generated code refers to.
	schemeGroupVersion bool
	resource           bool
}

type fileComment struct {
	file  string // base name
	lines []string
}

// declaredType is a top-level named type with its comments, attached as
// gengo attaches them: the doc comment directly above the declaration and
// the detached block before it (where +genclient lines often sit).
type declaredType struct {
	name     string
	position string // file:line, for messages
	comments []string
	// objectMeta is whether the type is a struct with an ObjectMeta field
	// (usually embedded), directly or, once resolved, through refs.
	objectMeta bool
	// objectMetaJSON is whether that field has a json tag; upstream
	// informer-gen takes a package whose ObjectMeta has none for an
	// internal (unversioned) API package.
	objectMetaJSON bool
	// typeMetaInline is whether the type is a struct embedding TypeMeta
	// with a json tag of no name (`json:",inline"`): what marks a package
	// of versioned API types to upstream's --lint-rules.
	typeMetaInline bool
	// refs are the types ObjectMeta may come from when the type has no
	// ObjectMeta field of its own: the type it is defined from or aliases
	// (type X v1.Y, type X = v1.Y, type X Y), or the structs it embeds.
	refs []typeRef
	// imports are the imports of the declaring file, to resolve refs.
	imports *fileImports
}

// typeRef names a type as written in source: Qualifier is the package name
// before the dot ("" for the declaring package).
type typeRef struct {
	Qualifier, Name string
}

func (r typeRef) String() string {
	if r.Qualifier == "" {
		return r.Name
	}
	return r.Qualifier + "." + r.Name
}

// fileImports are the imports of one file: by explicit name, and the
// import paths imported under their package clause's name.
type fileImports struct {
	named   map[string]string
	unnamed []string
}

// readDeclarations collects the declarations of p.
func readDeclarations(p *sourcePackage) *declarations {
	d := &declarations{pkg: p}
	for _, f := range p.Files {
		d.readFile(f)
	}
	sort.Slice(d.types, func(i, j int) bool { return d.types[i].name < d.types[j].name })
	sort.Slice(d.packageComments, func(i, j int) bool { return d.packageComments[i].file < d.packageComments[j].file })
	return d
}

// readFile adds the package comments, types, SchemeGroupVersion and
// Resource that the parsed file f declares.
func (d *declarations) readFile(f *sourceFile) {
	file := f.AST
	if file == nil { // skipped: holds nothing the generator reads
		return
	}
	endLine := make(map[int]*ast.CommentGroup, len(file.Comments))
	var pkgLines []string
	for _, cg := range file.Comments {
		endLine[f.Fset.Position(cg.End()).Line] = cg
		if cg.End() < file.Package {
			pkgLines = append(pkgLines, splitLines(cg.Text())...)
		}
	}
	if len(pkgLines) > 0 {
		d.packageComments = append(d.packageComments, fileComment{file: filepath.Base(f.Name), lines: pkgLines})
	}

	imports := readImports(file)
	for _, decl := range file.Decls {
		switch decl := decl.(type) {
		case *ast.FuncDecl:
			if decl.Recv == nil && decl.Name.Name == "Resource" {
				d.resource = true
			}
		case *ast.GenDecl:
			for _, spec := range decl.Specs {
				d.readSpec(f, spec, endLine, imports)
			}
		}
	}
}

// readImports returns the imports of file.
func readImports(file *ast.File) *fileImports {
	imports := &fileImports{named: map[string]string{}}
	for _, spec := range file.Imports {
		p, err := strconv.Unquote(spec.Path.Value)
		if err != nil {
			continue
		}
		if spec.Name != nil {
			imports.named[spec.Name.Name] = p
		} else {
			imports.unnamed = append(imports.unnamed, p)
		}
	}
	return imports
}

// readSpec records a type, or the SchemeGroupVersion and Resource
// variables, that spec of file f declares.
func (d *declarations) readSpec(f *sourceFile, spec ast.Spec, endLine map[int]*ast.CommentGroup, imports *fileImports) {
	switch spec := spec.(type) {
	case *ast.ValueSpec:
		for _, n := range spec.Names {
			switch n.Name {
			case "SchemeGroupVersion":
				d.schemeGroupVersion = true
			case "Resource":
				d.resource = true
			}
		}
	case *ast.TypeSpec:
		t := newDeclaredType(f, spec, endLine)
		t.imports = imports
		d.types = append(d.types, t)
	}
}

func newDeclaredType(f *sourceFile, spec *ast.TypeSpec, endLine map[int]*ast.CommentGroup) *declaredType {
	pos := f.Fset.Position(spec.Name.Pos())
	t := &declaredType{
		name:     spec.Name.Name,
		position: filepath.Base(f.Name) + ":" + strconv.Itoa(pos.Line),
	}
	// Same rule as gengo's parser: the doc comment ends on the line above
	// the name; the "second closest" block ends two lines above the doc
	// comment (or the name), i.e. after one blank line.
	doc := endLine[pos.Line-1]
	var second *ast.CommentGroup
	if doc == nil {
		second = endLine[pos.Line-2]
	} else {
		second = endLine[f.Fset.Position(doc.List[0].Slash).Line-2]
	}
	t.comments = append(splitLines(second.Text()), splitLines(doc.Text())...)

	if spec.TypeParams != nil {
		return t
	}
	switch typ := spec.Type.(type) {
	case *ast.StructType:
		for _, field := range typ.Fields.List {
			if fieldName(field) == "ObjectMeta" {
				t.objectMeta = true
				t.objectMetaJSON = field.Tag != nil && strings.Contains(field.Tag.Value, "json:")
			} else if len(field.Names) == 0 {
				t.typeMetaInline = t.typeMetaInline || isInlineTypeMeta(field)
				if ref, ok := refOf(field.Type); ok {
					t.refs = append(t.refs, ref)
				}
			}
		}
	default: // type X Y, type X = Y
		if ref, ok := refOf(spec.Type); ok {
			t.refs = append(t.refs, ref)
		}
	}
	return t
}

// isInlineTypeMeta reports whether the embedded field is TypeMeta with a
// json tag naming no field, as upstream's lint rules test it.
func isInlineTypeMeta(field *ast.Field) bool {
	if fieldName(field) != "TypeMeta" || field.Tag == nil {
		return false
	}
	tag, err := strconv.Unquote(field.Tag.Value)
	if err != nil {
		return false
	}
	json, ok := reflect.StructTag(tag).Lookup("json")
	name, _, _ := strings.Cut(json, ",")
	return ok && name == ""
}

// refOf returns the named type expr refers to (through a pointer), if any.
func refOf(expr ast.Expr) (typeRef, bool) {
	if star, ok := expr.(*ast.StarExpr); ok {
		expr = star.X
	}
	switch expr := expr.(type) {
	case *ast.Ident:
		return typeRef{Name: expr.Name}, true
	case *ast.SelectorExpr:
		if q, ok := expr.X.(*ast.Ident); ok {
			return typeRef{Qualifier: q.Name, Name: expr.Sel.Name}, true
		}
	}
	return typeRef{}, false
}

// fieldName returns the name of a struct field, the type name for an
// embedded one (ObjectMeta for metav1.ObjectMeta), "" otherwise.
func fieldName(field *ast.Field) string {
	if len(field.Names) > 0 {
		for _, n := range field.Names {
			if n.Name == "ObjectMeta" {
				return n.Name
			}
		}
		return field.Names[0].Name
	}
	typ := field.Type
	if star, ok := typ.(*ast.StarExpr); ok {
		typ = star.X
	}
	switch typ := typ.(type) {
	case *ast.Ident:
		return typ.Name
	case *ast.SelectorExpr:
		return typ.Sel.Name
	}
	return ""
}

// splitLines splits a comment's text into lines, nil for no text.
func splitLines(text string) []string {
	text = strings.TrimRight(text, "\n")
	if text == "" {
		return nil
	}
	return strings.Split(text, "\n")
}
