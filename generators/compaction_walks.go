package generators

import (
	"fmt"
	"go/ast"
	"path"
	"regexp"
	"sort"
	"strings"
	"unicode"
)

// compactOptOut is the marker that keeps a field, or every value of a
// type, out of compaction: its strings are not interned and neither it
// nor the values holding it are shared.
const compactOptOut = "+informer-gen:compact=false"

// knownWalks are the walk and equality of apimachinery types every API
// package uses, written in runtime/compact; %s is the type as the
// generated file names it.
var knownWalks = map[string][2]string{
	metav1Path + ".Time":                                 {"compact.MetaTime", "compact.EqualMetaTime"},
	metav1Path + ".MicroTime":                            {"compact.MetaMicroTime", "compact.EqualMetaMicroTime"},
	metav1Path + ".ObjectMeta":                           {"compact.ObjectMeta", "compact.EqualObjectMeta"},
	metav1Path + ".TypeMeta":                             {"compact.TypeMeta", "compact.Eq[%s]"},
	metav1Path + ".OwnerReference":                       {"compact.OwnerReference", "compact.EqualOwnerReference"},
	metav1Path + ".ManagedFieldsEntry":                   {"compact.ManagedFieldsEntry", "compact.EqualManagedFieldsEntry"},
	"k8s.io/apimachinery/pkg/api/resource.Quantity":      {"compact.Quantity", "compact.EqualQuantity"},
	"k8s.io/apimachinery/pkg/util/intstr.IntOrString":    {"compact.IntOrString", "compact.Eq[%s]"},
	"k8s.io/apimachinery/pkg/types.UID":                  {"compact.StringOf[%s]", "compact.Eq[%s]"},
	"k8s.io/apimachinery/pkg/runtime.RawExtension":       {"compact.RawExtension", "compact.EqualRawExtension"},
	"k8s.io/apimachinery/pkg/apis/meta/v1.Duration":      {"compact.Value[%s]", "compact.Eq[%s]"},
	"k8s.io/apimachinery/pkg/api/resource.Format":        {"compact.StringOf[%s]", "compact.Eq[%s]"},
	"k8s.io/apimachinery/pkg/apis/meta/v1.LabelSelector": {"compact.Value[%s]", "compact.EqualValue[%s]"},
}

// builtinWalks are the walk and equality of Go's predeclared types.
var builtinWalks = map[string][2]string{
	"string": {"compact.String", "compact.Eq[string]"},
	"bool":   {"compact.Bool[bool]", "compact.Eq[bool]"},
	"any":    {"compact.Interface[any]", "compact.Never[any]"},
	"error":  {"compact.Interface[error]", "compact.Never[error]"},
}

// scalarTypes are the predeclared numeric types.
var scalarTypes = regexp.MustCompile(`^(u?int(8|16|32|64)?|uintptr|byte|rune|float(32|64))$`)

// walkDecl is a named type of the API package.
type walkDecl struct {
	spec    *ast.TypeSpec
	imports *fileImports
	optOut  bool
}

// walkWriter writes the compaction walks of one API package: for each
// named type reachable from its informer kinds, compactNAME (interns and
// shares in place, as package compact's Walk) and equalNAME (exact
// equality); for each anonymous slice, map and pointer type, a helper
// pair named after its shape (compactSliceOfContainer).
type walkWriter struct {
	apiAlias string
	apiPath  string
	decls    map[string]*walkDecl
	imports  map[string]string // import path -> name in the generated file
	names    map[string]bool   // import names taken
	funcs    map[string]string // function name -> source
	pending  []string          // named types whose functions are not written yet
	written  map[string]bool   // named types queued or written
}

// isStruct reports whether name is a struct type of the API package.
func (w *walkWriter) isStruct(name string) bool {
	d, ok := w.decls[name]
	if !ok || d.spec.Assign.IsValid() {
		return false
	}
	_, isStruct := d.spec.Type.(*ast.StructType)
	return isStruct
}

// newWalkWriter returns the writer of src's walks, in a file that imports
// src as apiAlias; with apiAlias "", in a file of src itself (the walks-only
// mode's default), which names src's types unqualified.
func newWalkWriter(src *sourcePackage, apiAlias string) *walkWriter {
	w := &walkWriter{
		apiAlias: apiAlias, apiPath: src.Path, decls: map[string]*walkDecl{},
		imports: map[string]string{}, // compact: fixed in the template
		names:   map[string]bool{"compact": true},
		funcs:   map[string]string{}, written: map[string]bool{},
	}
	if apiAlias != "" {
		w.imports[src.Path] = apiAlias
		w.names[apiAlias] = true
	}
	for _, f := range src.Files {
		if f.AST != nil {
			w.readFile(f.AST)
		}
	}
	return w
}

// readFile records the named types file declares.
func (w *walkWriter) readFile(file *ast.File) {
	imports := readImports(file)
	for _, decl := range file.Decls {
		gd, ok := decl.(*ast.GenDecl)
		if !ok {
			continue
		}
		for _, spec := range gd.Specs {
			ts, ok := spec.(*ast.TypeSpec)
			if !ok || ts.TypeParams != nil {
				continue
			}
			optOut := hasMarker(gd.Doc) || hasMarker(ts.Doc) || hasMarker(ts.Comment)
			w.decls[ts.Name.Name] = &walkDecl{spec: ts, imports: imports, optOut: optOut}
		}
	}
}

// qualified is the API package's type name as the generated file names
// it: apiv1.Foo, or Foo in a file of the API package itself.
func (w *walkWriter) qualified(name string) string {
	if w.apiAlias == "" {
		return name
	}
	return w.apiAlias + "." + name
}

// hasMarker reports whether cg holds the compaction opt-out marker.
func hasMarker(cg *ast.CommentGroup) bool {
	return cg != nil && strings.Contains(cg.Text(), compactOptOut)
}

// root returns the registration of the informer kind name, and writes
// its walks.
func (w *walkWriter) root(name string) string {
	return fmt.Sprintf("compact.Register(%s)", w.rootWalk(name))
}

// rootWalk returns the walk of the informer kind name (a function of the
// generated file, or a compact.Value instantiation), and writes its
// walks.
func (w *walkWriter) rootWalk(name string) string {
	walk, _, ok := w.identPair(name)
	if !ok {
		walk = "compact.Value[" + w.qualified(name) + "]"
	}
	w.drain()
	return walk
}

// drain writes the functions of every queued named type.
func (w *walkWriter) drain() {
	for len(w.pending) > 0 {
		name := w.pending[0]
		w.pending = w.pending[1:]
		w.writeNamed(name)
	}
}

// named returns the functions of the API package's type name, queuing
// them to be written.
func (w *walkWriter) named(name string) (string, string) {
	if !w.written[name] {
		w.written[name] = true
		w.pending = append(w.pending, name)
	}
	return "compact" + name, "equal" + name
}

// registrations returns the RegisterWalk calls of every named type
// written, sorted, so that other packages' walks find them.
func (w *walkWriter) registrations() []string {
	var out []string
	for name := range w.written {
		out = append(out, fmt.Sprintf("compact.RegisterWalk(compact%s, equal%s)", name, name))
	}
	sort.Strings(out)
	return out
}

// sortedFuncs returns the functions written, sorted by name.
func (w *walkWriter) sortedFuncs() []string {
	names := make([]string, 0, len(w.funcs))
	for n := range w.funcs {
		names = append(names, n)
	}
	sort.Strings(names)
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = w.funcs[n]
	}
	return out
}

// importList returns the imports the generated code uses (a type named
// on the way to a function not written is not imported), sorted by path.
func (w *walkWriter) importList(code []string) []importSpec {
	all := strings.Join(code, "\n")
	out := make([]importSpec, 0, len(w.imports))
	for p, alias := range w.imports {
		if regexp.MustCompile(`\b` + alias + `\.`).MatchString(all) {
			out = append(out, importSpec{Alias: alias, Path: p})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out
}

// importName returns the name the generated file imports path as.
func (w *walkWriter) importName(p string) string {
	if alias, ok := w.imports[p]; ok {
		return alias
	}
	base := path.Base(p)
	if regexp.MustCompile(`^v[0-9]`).MatchString(base) {
		base = path.Base(path.Dir(p)) + base
	}
	base = strings.Map(func(r rune) rune {
		if r < unicode.MaxASCII && (unicode.IsLetter(r) || unicode.IsDigit(r)) {
			return unicode.ToLower(r)
		}
		return -1
	}, base)
	alias := base
	for i := 2; w.names[alias]; i++ {
		alias = fmt.Sprintf("%s%d", base, i)
	}
	w.names[alias] = true
	w.imports[p] = alias
	return alias
}
