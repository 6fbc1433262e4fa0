package cache

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

// TestEveryLockSaysWhatItGuards keeps the runtime's lock contracts
// honest: in every package under runtime/, each sync.Mutex or
// sync.RWMutex field of a struct carries a comment (its own, or the one
// above its group of fields) that says what it guards, using the word
// "guard" (doc.go gives the lock order).
func TestEveryLockSaysWhatItGuards(t *testing.T) {
	fset := token.NewFileSet()
	err := filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ParseComments)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			st, ok := n.(*ast.StructType)
			if !ok {
				return true
			}
			for _, field := range st.Fields.List {
				if isLock(field.Type) && !mentionsGuard(field) {
					t.Errorf("%s: lock field %s does not say what it guards", fset.Position(field.Pos()), fieldName(field))
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func isLock(e ast.Expr) bool {
	sel, ok := e.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	pkg, ok := sel.X.(*ast.Ident)
	return ok && pkg.Name == "sync" && (sel.Sel.Name == "Mutex" || sel.Sel.Name == "RWMutex")
}

func mentionsGuard(f *ast.Field) bool {
	for _, g := range []*ast.CommentGroup{f.Doc, f.Comment} {
		if g != nil && strings.Contains(strings.ToLower(g.Text()), "guard") {
			return true
		}
	}
	return false
}

func fieldName(f *ast.Field) string {
	if len(f.Names) == 0 {
		return "(embedded)"
	}
	return f.Names[0].Name
}
