package generators

import (
	"go/ast"
	"path/filepath"
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
	name       string
	position   string // file:line, for messages
	comments   []string
	objectMeta bool // a struct with an ObjectMeta field (usually embedded)
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

	for _, decl := range file.Decls {
		switch decl := decl.(type) {
		case *ast.FuncDecl:
			if decl.Recv == nil && decl.Name.Name == "Resource" {
				d.resource = true
			}
		case *ast.GenDecl:
			for _, spec := range decl.Specs {
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
					d.types = append(d.types, newDeclaredType(f, spec, endLine))
				}
			}
		}
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

	if st, ok := spec.Type.(*ast.StructType); ok && spec.TypeParams == nil {
		for _, field := range st.Fields.List {
			if fieldName(field) == "ObjectMeta" {
				t.objectMeta = true
			}
		}
	}
	return t
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
