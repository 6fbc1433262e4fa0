package generators

import (
	"bytes"
	"errors"
	"fmt"
	"go/ast"
	"go/build"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strings"
	"sync"

	"golang.org/x/tools/go/packages"
)

// sourcePackage is an input package read from source, syntax only.
//
// Loading deliberately stops at syntax: resolving the patterns is one `go
// list` without dependencies, and each file is parsed once, in parallel. No
// package is type-checked, because nothing the generator needs (type names,
// comments, an ObjectMeta field, the SchemeGroupVersion and Resource
// declarations) requires types, and type-checking the dependency graph of an
// API package (apimachinery and beyond) is what makes gengo-based
// generators slow.
type sourcePackage struct {
	Path  string // import path
	Name  string // package name
	Dir   string // directory
	Files []*sourceFile
}

type sourceFile struct {
	Name string // path on disk
	AST  *ast.File
	Fset *token.FileSet
	// Unmarshalers are the types of the file with a protobuf Unmarshal
	// method (go-to-protobuf's generated.pb.go), found in files that are
	// not parsed too.
	Unmarshalers []string
}

// unmarshalMethod matches the Unmarshal method go-to-protobuf generates.
var unmarshalMethod = regexp.MustCompile(`(?m)^func \(\w+ \*(\w+)\) Unmarshal\(dAtA \[\]byte\) error \{`)

// loadPackages resolves patterns from dir and parses the non-test Go files
// of the matched packages that mayMatter or declare a type (see
// parseAll). The result is sorted by import path. The
// package extra (an import path; "" for none) is located by the same `go
// list` call, which costs less than a second one, and returned apart,
// unparsed and never among the inputs; nil when go list did not report it.
// With all, every file is parsed, even one mayMatter skips (the lint rules
// look at every type).
func loadPackages(dir string, patterns []string, extra string, all bool) ([]*sourcePackage, *packages.Package, error) {
	cfg := &packages.Config{
		Mode: packages.NeedName | packages.NeedFiles,
		Dir:  dir,
	}
	query := patterns
	if extra != "" {
		query = append(patterns[:len(patterns):len(patterns)], extra)
	}
	pkgs, err := packages.Load(cfg, query...)
	if err != nil {
		return nil, nil, fmt.Errorf("resolving input packages %q: %w", patterns, err)
	}
	extraPkg, out, err := sourcePackages(pkgs, dir, patterns, extra)
	if err != nil {
		return nil, nil, err
	}
	if len(out) == 0 {
		msg := fmt.Sprintf("no Go package matches %s (from directory %q)", strings.Join(quoteAll(patterns), " "), dir)
		if missing, _ := unrequiredPatterns(dir, patterns); len(missing) > 0 {
			msg += fmt.Sprintf("; no module in go.mod provides %s: add it with go get %s", strings.Join(missing, ", "), strings.Join(missing, " "))
		}
		return nil, nil, errors.New(msg)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	if err := parseAll(out, all); err != nil {
		return nil, nil, err
	}
	return out, extraPkg, nil
}

// sourcePackages returns the package extra among pkgs (nil when absent),
// and the input packages of pkgs, unparsed, each once. extra is an input
// too when a pattern matches it. Packages go list reported errors for are
// an error.
func sourcePackages(pkgs []*packages.Package, dir string, patterns []string, extra string) (*packages.Package, []*sourcePackage, error) {
	var extraPkg *packages.Package
	var errs []error
	seen := map[string]bool{}
	var out []*sourcePackage
	for _, p := range pkgs {
		if extra != "" && (p.PkgPath == extra || p.ID == extra) {
			extraPkg = p
			if len(p.Errors) > 0 || len(p.GoFiles) == 0 || !matchesAny(dir, patterns, p.PkgPath, parentDir(p.GoFiles[0])) {
				continue
			}
		}
		for _, e := range p.Errors {
			errs = append(errs, fmt.Errorf("input package %s: %s", p.PkgPath, e.Msg))
		}
		if len(p.Errors) > 0 || seen[p.PkgPath] {
			continue
		}
		seen[p.PkgPath] = true
		out = append(out, newSourcePackage(p))
	}
	return extraPkg, out, errors.Join(errs...)
}

// newSourcePackage returns the unparsed source package of p.
func newSourcePackage(p *packages.Package) *sourcePackage {
	sp := &sourcePackage{Path: p.PkgPath, Name: p.Name}
	for _, f := range p.GoFiles {
		sp.Files = append(sp.Files, &sourceFile{Name: f})
	}
	if len(p.GoFiles) > 0 {
		sp.Dir = parentDir(p.GoFiles[0])
	}
	return sp
}

// parseAll parses the files of pkgs on GOMAXPROCS goroutines: those that
// mayMatter or declare a type or, with all, every one. Every named type of
// an input package is thus known (the JSON decoders and compaction walks
// follow a field into any of them, such as a struct declared in a file of
// shared types and embedded by a +genclient type), while the large
// generated files that declare none (generated.pb.go, swagger docs, deep
// copies) stay unparsed. Each file has its own FileSet so that workers
// never share one.
func parseAll(pkgs []*sourcePackage, all bool) error {
	var files []*sourceFile
	for _, p := range pkgs {
		files = append(files, p.Files...)
	}
	work := make(chan *sourceFile)
	errs := make([]error, len(files))
	index := make(map[*sourceFile]int, len(files))
	for i, f := range files {
		index[f] = i
	}
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(files)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for f := range work {
				src, err := os.ReadFile(f.Name)
				if err != nil {
					errs[index[f]] = err
					continue
				}
				for _, m := range unmarshalMethod.FindAllSubmatch(src, -1) {
					f.Unmarshalers = append(f.Unmarshalers, string(m[1]))
				}
				if !all && !mayMatter(src) && !declaresType(src) {
					continue
				}
				f.Fset = token.NewFileSet()
				f.AST, errs[index[f]] = parser.ParseFile(f.Fset, f.Name, src, parser.ParseComments|parser.SkipObjectResolution)
			}
		}()
	}
	for _, f := range files {
		work <- f
	}
	close(work)
	wg.Wait()
	return errors.Join(errs...)
}

// relevantText is what a file must contain to hold anything the generator
// reads: a +genclient type, SchemeGroupVersion, Resource or a package tag.
var relevantText = [][]byte{
	[]byte("genclient"), []byte("SchemeGroupVersion"), []byte("func Resource("), []byte("var Resource"),
	[]byte("groupName"), []byte("groupGoName"), []byte("informer-gen"), []byte("lister-gen"),
}

// resourceInVarBlock finds "Resource = ..." inside a var block.
var resourceInVarBlock = regexp.MustCompile(`(?m)^\tResource\s*=`)

// mayMatter reports whether src can hold something the generator reads.
// Files that cannot (typically large generated ones such as generated.pb.go
// or swagger docs, which are also only worth skipping when they mention
// none of these words) are not parsed.
func mayMatter(src []byte) bool {
	for _, word := range relevantText {
		if bytes.Contains(src, word) {
			return true
		}
	}
	return resourceInVarBlock.Match(src)
}

// declaresType reports whether src may declare a named type: whether a
// line starts, after blanks, with the keyword type followed by a blank or
// a parenthesis. That holds for every type declaration of a gofmt'd file
// (at the start of a line), and for the rare line of a raw string or a
// function body that looks like one, which only costs a parse.
func declaresType(src []byte) bool {
	for i := 0; ; {
		j := bytes.Index(src[i:], []byte("type"))
		if j < 0 {
			return false
		}
		j += i
		if startsLine(src, j) && j+4 < len(src) && bytes.IndexByte([]byte(" \t("), src[j+4]) >= 0 {
			return true
		}
		i = j + 4
	}
}

// startsLine reports whether only blanks precede offset i on its line.
func startsLine(src []byte, i int) bool {
	for i > 0 {
		i--
		switch src[i] {
		case '\n':
			return true
		case ' ', '\t':
		default:
			return false
		}
	}
	return true
}

// matchesAny reports whether a pattern of patterns, resolved from dir,
// matches the package with import path pkgPath in folder pkgDir, the way
// go list matches ("..." matching any string).
func matchesAny(dir string, patterns []string, pkgPath, pkgDir string) bool {
	for _, p := range patterns {
		prefix, _, wildcard := strings.Cut(p, "...")
		subject, want := pkgPath, prefix
		if build.IsLocalImport(p) || filepath.IsAbs(p) {
			subject, want = filepath.ToSlash(pkgDir), filepath.ToSlash(filepath.Join(dir, prefix))
			if strings.HasSuffix(prefix, "/") {
				want += "/"
			}
		}
		if subject == want || (wildcard && (strings.HasPrefix(subject, want) || subject+"/" == want)) {
			return true
		}
	}
	return false
}

// unrequiredPatterns returns the import-path patterns (not ./relative or
// absolute folders) that no module of dir's build list can provide: the
// pattern matched nothing because its module is not required in go.mod.
// ok is false when the build list cannot be read.
func unrequiredPatterns(dir string, patterns []string) (missing []string, ok bool) {
	cmd := exec.Command("go", "list", "-m", "-f", "{{.Path}}", "all")
	cmd.Dir = dir
	listed, err := cmd.Output()
	if err != nil {
		return nil, false
	}
	modules := strings.Fields(string(listed))
	for _, p := range patterns {
		if build.IsLocalImport(p) || filepath.IsAbs(p) {
			continue
		}
		prefix, _, wildcard := strings.Cut(p, "...")
		prefix = strings.TrimSuffix(prefix, "/")
		provided := false
		for _, m := range modules {
			if prefix == m || strings.HasPrefix(prefix, m+"/") || (wildcard && strings.HasPrefix(m, prefix)) {
				provided = true
				break
			}
		}
		if !provided {
			missing = append(missing, p)
		}
	}
	return missing, true
}

func parentDir(file string) string {
	i := strings.LastIndexAny(file, `/\`)
	if i < 0 {
		return "."
	}
	return file[:i]
}

func quoteAll(s []string) []string {
	out := make([]string, len(s))
	for i, v := range s {
		out[i] = fmt.Sprintf("%q", v)
	}
	return out
}
