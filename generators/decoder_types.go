package generators

import (
	"fmt"
	"go/ast"
	"os"
	"regexp"
	"sort"
	"strings"
)

// knownDecoders are the decoders of apimachinery types, written in
// runtime/jsondecode; %s is the type as the generated file names it.
var knownDecoders = map[string]string{
	metav1Path + ".Time":                                   "jsondecode.Time",
	metav1Path + ".MicroTime":                              "jsondecode.MicroTime",
	metav1Path + ".Duration":                               "jsondecode.Unmarshaler[%s]",
	metav1Path + ".FieldsV1":                               "jsondecode.Unmarshaler[%s]",
	metav1Path + ".TypeMeta":                               "jsondecode.TypeMeta",
	metav1Path + ".ListMeta":                               "jsondecode.Reflective[%s]",
	metav1Path + ".ObjectMeta":                             "jsondecode.ObjectMeta",
	metav1Path + ".OwnerReference":                         "jsondecode.OwnerReference",
	metav1Path + ".ManagedFieldsEntry":                     "jsondecode.ManagedFieldsEntry",
	metav1Path + ".LabelSelector":                          "jsondecode.LabelSelector",
	metav1Path + ".LabelSelectorRequirement":               "jsondecode.LabelSelectorRequirement",
	metav1Path + ".Condition":                              "jsondecode.Condition",
	"k8s.io/apimachinery/pkg/api/resource.Quantity":        "jsondecode.Unmarshaler[%s]",
	"k8s.io/apimachinery/pkg/api/resource.Format":          "jsondecode.String[%s]",
	"k8s.io/apimachinery/pkg/util/intstr.IntOrString":      "jsondecode.IntOrString",
	"k8s.io/apimachinery/pkg/runtime.RawExtension":         "jsondecode.Unmarshaler[%s]",
	"k8s.io/apimachinery/pkg/types.UID":                    "jsondecode.String[%s]",
	"k8s.io/apimachinery/pkg/types.NodeName":               "jsondecode.String[%s]",
	"k8s.io/apimachinery/pkg/apis/meta/v1.StatusReason":    "jsondecode.String[%s]",
	"k8s.io/apimachinery/pkg/apis/meta/v1.ConditionStatus": "jsondecode.String[%s]",
}

// scalarDecoders are the decoders of Go's predeclared types, by the
// pattern of their names; %s is the type.
var scalarDecoders = []struct {
	re *regexp.Regexp
	fn string
}{
	{regexp.MustCompile(`^string$`), "jsondecode.String[%s]"},
	{regexp.MustCompile(`^bool$`), "jsondecode.Bool[%s]"},
	{regexp.MustCompile(`^int(8|16|32|64)?$`), "jsondecode.Int[%s]"},
	{regexp.MustCompile(`^(uint(8|16|32|64|ptr)?|byte)$`), "jsondecode.Uint[%s]"},
	{regexp.MustCompile(`^float32$`), "jsondecode.Float32[%s]"},
	{regexp.MustCompile(`^float64$`), "jsondecode.Float64[%s]"},
}

// customMethod finds the methods that make encoding/json hand a type its
// value (UnmarshalJSON) or its string (UnmarshalText).
var customMethod = regexp.MustCompile(`(?m)^func \(\w*\s*\*?(\w+)\) (UnmarshalJSON|UnmarshalText)\(`)

// decoderWriter writes the JSON decoders of one API package (package
// runtime/jsondecode): decodeNAME for each named type reachable from the
// informer kinds, and a helper named after its shape for each anonymous
// pointer, slice and map type. It reads the package's declarations and
// imports through a walkWriter.
type decoderWriter struct {
	*walkWriter
	funcs   map[string]string // function name -> source
	pending []string
	written map[string]bool
	// custom are the types of the package with an UnmarshalJSON or
	// UnmarshalText method (the method's name; UnmarshalJSON when both):
	// encoding/json calls those, so they are decoded by
	// jsondecode.Unmarshaler or jsondecode.Reflective, never field by
	// field.
	custom map[string]string
	// unread is a file of the package that could not be read for its
	// methods: every type is then decoded by jsondecode.Value.
	unread string
	// walks are the functions of the version's compaction walks
	// (zz_generated.compaction.go), by name: a slice, map or pointer
	// with a walk there is shared as it is decoded (jsondecode.Shared).
	walks map[string]string
	// compacts says, of each struct decoded field by field, whether its
	// decoder shares what its walk shares (decoder_compact.go).
	compacts map[string]compactsAs
	// roots are the informer kinds.
	roots []string
}

func newDecoderWriter(src *sourcePackage, apiAlias string) *decoderWriter {
	w := &decoderWriter{walkWriter: newWalkWriter(src, apiAlias), funcs: map[string]string{},
		written: map[string]bool{}, custom: map[string]string{}, compacts: map[string]compactsAs{}}
	w.names["jsondecode"] = true
	// Every file, parsed or not: a method can sit in a file the generator
	// otherwise skips.
	for _, f := range src.Files {
		b, err := os.ReadFile(f.Name)
		if err != nil {
			w.unread = f.Name
			continue
		}
		for _, m := range customMethod.FindAllSubmatch(b, -1) {
			if w.custom[string(m[1])] != "UnmarshalJSON" {
				w.custom[string(m[1])] = string(m[2])
			}
		}
	}
	return w
}

// fn returns the decoder of the type expr (a jsondecode.Func of it, as
// Go source); ok is false for a type the generated file cannot name.
func (w *decoderWriter) fn(expr ast.Expr, imports *fileImports) (string, bool) {
	switch e := expr.(type) {
	case *ast.Ident:
		return w.identFn(e.Name)
	case *ast.SelectorExpr:
		return w.selectorFn(e, imports)
	case *ast.ParenExpr:
		return w.fn(e.X, imports)
	case *ast.StarExpr, *ast.MapType, *ast.ArrayType:
		return w.helper(expr, imports)
	}
	return w.value(expr, imports)
}

// value is the reflective decoder of expr, jsondecode.Value.
func (w *decoderWriter) value(expr ast.Expr, imports *fileImports) (string, bool) {
	ts, ok := w.typeString(expr, imports)
	if a, isArray := expr.(*ast.ArrayType); isArray && !ok {
		// An array of a literal length: the walks' typeString leaves them
		// out (they are never shared).
		if lit, isLit := a.Len.(*ast.BasicLit); isLit {
			elem, okElem := w.typeString(a.Elt, imports)
			ts, ok = "["+lit.Value+"]"+elem, okElem
		}
	}
	return "jsondecode.Value[" + ts + "]", ok
}

// identFn is fn of a predeclared type or a type of the API package.
func (w *decoderWriter) identFn(name string) (string, bool) {
	for _, s := range scalarDecoders {
		if s.re.MatchString(name) {
			return fmt.Sprintf(s.fn, name), true
		}
	}
	d, ok := w.decls[name]
	switch {
	case name == "any" || name == "error":
		return "jsondecode.Reflective[" + name + "]", true
	case !ok:
		// Not declared in a file the generator parsed (every file that
		// declares a type is: see parseAll).
		return "jsondecode.Reflective[" + w.apiAlias + "." + name + "]", true
	case d.spec.Assign.IsValid():
		return w.fn(d.spec.Type, d.imports)
	case w.custom[name] == "UnmarshalJSON":
		return "jsondecode.Unmarshaler[" + w.apiAlias + "." + name + "]", true
	case w.custom[name] != "":
		return "jsondecode.Reflective[" + w.apiAlias + "." + name + "]", true
	}
	if under := w.predeclared(d.spec.Type); under != "" {
		for _, s := range scalarDecoders {
			if s.re.MatchString(under) {
				return fmt.Sprintf(s.fn, w.apiAlias+"."+name), true
			}
		}
	}
	if !w.written[name] {
		w.written[name] = true
		w.pending = append(w.pending, name)
	}
	return "decode" + name, true
}

// predeclared returns the predeclared type a type of the API package is
// defined from, through other types of it (type HTTPHeaderName
// HeaderName; type HeaderName string: string), or "" when it is defined
// from anything else. Only the defined type's own methods matter to
// encoding/json, and identFn checked them: those of the types it is
// defined from are not its.
func (w *decoderWriter) predeclared(expr ast.Expr) string {
	for range maxRefDepth {
		id, ok := expr.(*ast.Ident)
		if !ok {
			return ""
		}
		d, ok := w.decls[id.Name]
		if !ok {
			return id.Name
		}
		expr = d.spec.Type
	}
	return ""
}

// selectorFn is fn of pkg.Name: a decoder of package jsondecode, the API
// package's own, or jsondecode.Value.
func (w *decoderWriter) selectorFn(e *ast.SelectorExpr, imports *fileImports) (string, bool) {
	p, ok := w.qualifierPath(e, imports)
	switch {
	case !ok:
		return "", false
	case p == w.apiPath:
		return w.identFn(e.Sel.Name)
	}
	ts := w.importName(p) + "." + e.Sel.Name
	if known, ok := knownDecoders[p+"."+e.Sel.Name]; ok {
		return strings.ReplaceAll(known, "%s", ts), true
	}
	return "jsondecode.Value[" + ts + "]", true
}

// helper returns the decoder of a pointer, slice or map type, writing it
// on first use.
func (w *decoderWriter) helper(expr ast.Expr, imports *fileImports) (string, bool) {
	if a, isArray := expr.(*ast.ArrayType); isArray {
		if a.Len != nil {
			return w.value(expr, imports)
		}
		if id, isIdent := a.Elt.(*ast.Ident); isIdent && (id.Name == "byte" || id.Name == "uint8") {
			return "jsondecode.Bytes", true
		}
	}
	ts, ok := w.typeString(expr, imports)
	if !ok {
		return "", false
	}
	name := "decode" + shapeName(expr)
	if _, done := w.funcs[name]; done {
		return name, true
	}
	w.funcs[name] = "" // reserved: a recursive type refers to itself
	body, ok := w.helperBody(expr, imports)
	if !ok {
		delete(w.funcs, name)
		return w.value(expr, imports)
	}
	w.funcs[name] = fmt.Sprintf("// %s decodes a %s.\nfunc %s(d *jsondecode.Decoder, p *%s) {\n\t%s\n}\n", name, ts, name, ts, body)
	return name, true
}

// helperBody returns the statement of a helper.
func (w *decoderWriter) helperBody(expr ast.Expr, imports *fileImports) (string, bool) {
	switch e := expr.(type) {
	case *ast.StarExpr:
		elem, ok := w.fn(e.X, imports)
		return fmt.Sprintf("jsondecode.Pointer(d, p, %s)", elem), ok
	case *ast.ArrayType:
		elem, ok := w.fn(e.Elt, imports)
		return fmt.Sprintf("jsondecode.Slice(d, p, %s)", elem), ok
	case *ast.MapType:
		elem, ok := w.fn(e.Value, imports)
		return fmt.Sprintf("jsondecode.Map(d, p, %s)", elem), ok && w.stringKey(e.Key)
	}
	return "", false
}

// stringKey reports whether a map key type is decoded from the JSON
// member name as it is: string, or a string type of the API package
// without an UnmarshalText method (encoding/json calls it for keys).
func (w *decoderWriter) stringKey(key ast.Expr) bool {
	id, ok := key.(*ast.Ident)
	if !ok {
		return false
	}
	if id.Name == "string" {
		return true
	}
	d, ok := w.decls[id.Name]
	if !ok || w.custom[id.Name] != "" || d.spec.Assign.IsValid() {
		return false
	}
	under, ok := d.spec.Type.(*ast.Ident)
	return ok && under.Name == "string"
}

// drain writes the decoders of every queued named type.
func (w *decoderWriter) drain() {
	for len(w.pending) > 0 {
		name := w.pending[0]
		w.pending = w.pending[1:]
		w.writeNamed(name)
	}
}

// registrations returns the Register calls of every named type written.
func (w *decoderWriter) registrations() []string {
	var out []string
	for name := range w.written {
		out = append(out, fmt.Sprintf("jsondecode.Register(decode%s)", name))
	}
	for _, name := range w.roots {
		if compactsFully(w.compacts, w.walks, name, map[string]bool{}) {
			out = append(out, fmt.Sprintf("jsondecode.RegisterCompact(decode%s)", name))
		}
	}
	sort.Strings(out)
	return out
}

// sortedFuncs returns the functions written, sorted by name.
func (w *decoderWriter) sortedFuncs() []string {
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
