package apicompat

import (
	"bytes"
	"fmt"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// RewriteImports copies the .go files of directory src into directory dst
// (which must exist), rewriting every import path that rewrites maps
// (exactly, or as a prefix followed by "/") and changing nothing else. It
// returns how many import specs it rewrote. It fails on a file that does
// not parse, naming it.
func RewriteImports(src, dst string, rewrites map[string]string) (int, error) {
	entries, err := os.ReadDir(src)
	if err != nil {
		return 0, fmt.Errorf("apicompat: reading %s: %w", src, err)
	}
	n := 0
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".go") {
			continue
		}
		path := filepath.Join(src, e.Name())
		data, err := os.ReadFile(path)
		if err != nil {
			return n, fmt.Errorf("apicompat: %w", err)
		}
		out, k, err := rewriteFile(path, data, rewrites)
		if err != nil {
			return n, err
		}
		n += k
		if err := os.WriteFile(filepath.Join(dst, e.Name()), out, 0o644); err != nil {
			return n, fmt.Errorf("apicompat: %w", err)
		}
	}
	return n, nil
}

// rewriteFile replaces the bytes of the rewritten import paths and nothing
// else (no reformatting, no import sorting).
func rewriteFile(path string, data []byte, rewrites map[string]string) ([]byte, int, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, data, parser.ImportsOnly)
	if err != nil {
		return nil, 0, fmt.Errorf("apicompat: parsing %s: %w", path, err)
	}
	var out bytes.Buffer
	last, n := 0, 0
	for _, imp := range f.Imports {
		p, err := strconv.Unquote(imp.Path.Value)
		if err != nil {
			return nil, 0, fmt.Errorf("apicompat: %s: bad import %s", path, imp.Path.Value)
		}
		np, ok := rewritePath(p, rewrites)
		if !ok {
			continue
		}
		from, to := fset.Position(imp.Path.Pos()).Offset, fset.Position(imp.Path.End()).Offset
		out.Write(data[last:from])
		out.WriteString(strconv.Quote(np))
		last = to
		n++
	}
	out.Write(data[last:])
	return out.Bytes(), n, nil
}

func rewritePath(p string, rewrites map[string]string) (string, bool) {
	for from, to := range rewrites {
		if p == from {
			return to, true
		}
		if strings.HasPrefix(p, from+"/") {
			return to + strings.TrimPrefix(p, from), true
		}
	}
	return "", false
}
