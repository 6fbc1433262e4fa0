package generators

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// Limits of the project's style (GUIDE.md) for the generator's non-test
// code: a function spans at most maxFuncLines lines, from its func keyword
// to its closing brace, and has a cyclomatic complexity of at most
// maxComplexity, counted as gocyclo counts it.
const (
	maxFuncLines  = 60
	maxComplexity = 15
)

// generatorDirs are the folders of the generator, relative to this package.
var generatorDirs = []string{".", "../cmd/informer-gen", "../templates"}

// funcShape is the size of one function declaration.
type funcShape struct {
	name       string // "(*Output).Write"
	position   string // "generators/output.go:175"
	lines      int
	complexity int
}

func TestGeneratorFunctionsAreShortAndSimple(t *testing.T) {
	shapes, err := generatorFuncShapes(generatorDirs)
	if err != nil {
		t.Fatal(err)
	}
	if len(shapes) < 50 {
		t.Fatalf("found only %d functions in %v; is the walk broken?", len(shapes), generatorDirs)
	}
	for _, s := range shapes {
		if s.lines > maxFuncLines {
			t.Errorf("%s %s: %d lines, more than %d", s.position, s.name, s.lines, maxFuncLines)
		}
		if s.complexity > maxComplexity {
			t.Errorf("%s %s: cyclomatic complexity %d, more than %d", s.position, s.name, s.complexity, maxComplexity)
		}
	}
}

// TestComplexityCountsAsGocyclo pins the counter on a function whose
// complexity gocyclo reports as 10, so that the limit above means what
// gocyclo -over 15 means.
func TestComplexityCountsAsGocyclo(t *testing.T) {
	const src = `package p

func f(a, b bool, xs []int, c chan int) int {
	if a && b || !a { // if, &&, ||: 3
		return 1
	}
	for i := 0; i < 3; i++ { // 1
	}
	for range xs { // 1
	}
	switch {
	case a: // 1
	case b: // 1
	default:
	}
	select {
	case <-c: // 1
	default:
	}
	_ = func() bool { return a && b } // literal's &&: 1
	return 0
}
`
	f, err := parser.ParseFile(token.NewFileSet(), "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	fn := f.Decls[0].(*ast.FuncDecl)
	if got, want := complexity(fn), 10; got != want {
		t.Errorf("complexity = %d, want %d (1 + 9 branches)", got, want)
	}
}

// generatorFuncShapes returns the shape of every function declared in the
// non-test Go files of dirs, sorted by position.
func generatorFuncShapes(dirs []string) ([]funcShape, error) {
	var out []funcShape
	for _, dir := range dirs {
		names, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil {
			return nil, err
		}
		for _, name := range names {
			if strings.HasSuffix(name, "_test.go") {
				continue
			}
			shapes, err := fileFuncShapes(name)
			if err != nil {
				return nil, err
			}
			out = append(out, shapes...)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].position < out[j].position })
	return out, nil
}

func fileFuncShapes(name string) ([]funcShape, error) {
	src, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, name, src, parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	var out []funcShape
	for _, decl := range f.Decls {
		fn, ok := decl.(*ast.FuncDecl)
		if !ok {
			continue
		}
		start, end := fset.Position(fn.Pos()), fset.Position(fn.End())
		out = append(out, funcShape{
			name:       funcName(fn),
			position:   fmt.Sprintf("%s:%d", filepath.ToSlash(filepath.Clean(filepath.Join("generators", name))), start.Line),
			lines:      end.Line - start.Line + 1,
			complexity: complexity(fn),
		})
	}
	return out, nil
}

// funcName returns "f", "T.m" or "(*T).m", as gocyclo names functions.
func funcName(fn *ast.FuncDecl) string {
	if fn.Recv == nil || len(fn.Recv.List) == 0 {
		return fn.Name.Name
	}
	typ := fn.Recv.List[0].Type
	if star, ok := typ.(*ast.StarExpr); ok {
		return "(*" + recvTypeName(star.X) + ")." + fn.Name.Name
	}
	return recvTypeName(typ) + "." + fn.Name.Name
}

func recvTypeName(expr ast.Expr) string {
	switch expr := expr.(type) {
	case *ast.Ident:
		return expr.Name
	case *ast.IndexExpr:
		return recvTypeName(expr.X)
	case *ast.IndexListExpr:
		return recvTypeName(expr.X)
	}
	return "?"
}

// complexity is gocyclo's cyclomatic complexity of fn: 1, plus one for
// each if, for, range, non-default case of a switch or select, && and ||,
// function literals included.
func complexity(fn *ast.FuncDecl) int {
	c := 1
	ast.Inspect(fn, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.IfStmt, *ast.ForStmt, *ast.RangeStmt:
			c++
		case *ast.CaseClause:
			if n.List != nil {
				c++
			}
		case *ast.CommClause:
			if n.Comm != nil {
				c++
			}
		case *ast.BinaryExpr:
			if n.Op == token.LAND || n.Op == token.LOR {
				c++
			}
		}
		return true
	})
	return c
}
