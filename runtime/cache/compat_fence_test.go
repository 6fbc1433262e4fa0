package cache

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// compatNote is what the doc of every exported type of a compat_*.go file
// says.
const compatNote = "Compatibility code, kept for code written against client-go: the informer\n// does not use it."

// parsedFiles parses the package's non-test files, by file name.
func parsedFiles(t *testing.T) map[string]*ast.File {
	t.Helper()
	paths, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	files := map[string]*ast.File{}
	for _, p := range paths {
		if strings.HasSuffix(p, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, p, nil, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		files[p] = f
	}
	return files
}

// compatDecls returns the package-level names declared in compat_*.go
// files, with the file of each, and reports each exported type whose doc
// lacks compatNote.
func compatDecls(t *testing.T, files map[string]*ast.File) map[string]string {
	t.Helper()
	decls := map[string]string{}
	for name, f := range files {
		if !strings.HasPrefix(name, "compat_") {
			continue
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil {
					decls[d.Name.Name] = name
				}
			case *ast.GenDecl:
				for _, spec := range d.Specs {
					ts, ok := spec.(*ast.TypeSpec)
					if !ok {
						continue
					}
					decls[ts.Name.Name] = name
					if ts.Name.IsExported() && (d.Doc == nil || !strings.Contains("// "+strings.ReplaceAll(strings.TrimSpace(d.Doc.Text()), "\n", "\n// "), compatNote)) {
						t.Errorf("%s: the doc of type %s does not say %q", name, ts.Name.Name, compatNote)
					}
				}
			}
		}
	}
	return decls
}

// The compatibility code is fenced: client-go's older stores and queues,
// which the informer never uses, live in files named compat_*.go, each
// exported type's doc says so, and no other file of the package uses a
// type or function they declare (the informer's path never reaches them).
func TestCompatibilityCodeIsFencedInCompatFiles(t *testing.T) {
	files := parsedFiles(t)
	decls := compatDecls(t, files)
	if len(decls) == 0 {
		t.Fatal("no compat_*.go declarations found")
	}
	for name, f := range files {
		if !strings.HasPrefix(name, "compat_") {
			checkUses(t, name, f, decls)
		}
	}
}

// checkUses reports each identifier under n that names one of decls:
// names that declare (fields, methods, parameters), field keys of
// composite literals and the selected names of selectors are not uses.
func checkUses(t *testing.T, file string, n ast.Node, decls map[string]string) {
	t.Helper()
	ast.Inspect(n, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.SelectorExpr:
			checkUses(t, file, n.X, decls)
			return false
		case *ast.KeyValueExpr:
			if _, isName := n.Key.(*ast.Ident); !isName {
				checkUses(t, file, n.Key, decls)
			}
			checkUses(t, file, n.Value, decls)
			return false
		case *ast.Field:
			checkUses(t, file, n.Type, decls)
			return false
		case *ast.FuncDecl:
			if n.Recv != nil {
				checkUses(t, file, n.Recv, decls)
			}
			checkUses(t, file, n.Type, decls)
			if n.Body != nil {
				checkUses(t, file, n.Body, decls)
			}
			return false
		case *ast.Ident:
			if from, ok := decls[n.Name]; ok {
				t.Errorf("%s uses %s, compatibility code of %s", file, n.Name, from)
			}
		}
		return true
	})
}
