package generators

import (
	"fmt"
	"go/ast"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"unicode"
)

// jsonField is one member name a struct decodes, after encoding/json's
// rules for embedded structs: the Go field it goes to (path from the
// struct, through embedded structs), and how deep and whether tagged, to
// pick the dominant field of a name.
type jsonField struct {
	name    string
	path    []string
	allocs  []string // embedded pointers on the path, to allocate first: "p.Embedded"
	expr    ast.Expr
	imports *fileImports
	depth   int
	tagged  bool
}

// errReflective makes a struct decoded by jsondecode.Value: something in
// it only encoding/json's reflection decodes as it does.
type errReflective string

func (e errReflective) Error() string { return string(e) }

// writeNamed writes decodeNAME for the API package's type name.
func (w *decoderWriter) writeNamed(name string) {
	d := w.decls[name]
	ts := w.apiAlias + "." + name
	body := ""
	if w.unread != "" {
		body = fmt.Sprintf("\tjsondecode.Reflective(d, p) // decoded by reflection: %s could not be read for UnmarshalJSON methods", filepath.Base(w.unread))
	} else if st, isStruct := d.spec.Type.(*ast.StructType); isStruct {
		body = w.structBody(name, st, d.imports)
	} else {
		body = w.definedBody(d, ts)
	}
	w.funcs["decode"+name] = fmt.Sprintf("// decode%s decodes a %s.\nfunc decode%s(d *jsondecode.Decoder, p *%s) {\n%s\n}\n", name, name, name, ts, body)
}

// definedBody is the body of a type defined from a pointer, slice or map
// type: the underlying type's decoder through a pointer conversion. Any
// other (a struct type defined from a named one, which has not its
// methods) is decoded by jsondecode.Value.
func (w *decoderWriter) definedBody(d *walkDecl, ts string) string {
	switch d.spec.Type.(type) {
	case *ast.StarExpr, *ast.ArrayType, *ast.MapType:
		under, ok := w.typeString(d.spec.Type, d.imports)
		fn, okFn := w.fn(d.spec.Type, d.imports)
		if ok && okFn {
			return fmt.Sprintf("\t%s(d, (*%s)(p))", fn, under)
		}
	}
	return fmt.Sprintf("\tjsondecode.Reflective(d, p) // decoded by reflection: %s is defined from another named type", ts)
}

// structBody is the body of a struct's decoder: a switch on the member
// name, one case per field encoding/json decodes.
func (w *decoderWriter) structBody(name string, st *ast.StructType, imports *fileImports) string {
	fields, err := w.jsonFields(name, st, imports, nil, nil, 0)
	if err != nil {
		return fmt.Sprintf("\tjsondecode.Reflective(d, p) // decoded by reflection: %v", err)
	}
	var cases []string
	w.compacts[name] = compactsAs{self: true}
	for _, f := range dominantFields(fields) {
		fn, ok := w.fn(f.expr, f.imports)
		if !ok {
			w.compacts[name] = compactsAs{}
			return fmt.Sprintf("\tjsondecode.Reflective(d, p) // decoded by reflection: field %s has a type the generated code cannot name", strings.Join(f.path, "."))
		}
		c := fmt.Sprintf("\t\tcase %s:\n", strconv.Quote(f.name))
		for _, a := range f.allocs {
			c += fmt.Sprintf("\t\t\tif %s == nil {\n\t\t\t\t%s = new(%s)\n\t\t\t}\n", a, a, w.allocType(a))
		}
		cases = append(cases, c+w.fieldCall(name, f, fn))
	}
	if len(cases) == 0 {
		return "\td.Skip() // no field decodes from JSON"
	}
	return "\tif !d.Object() {\n\t\treturn\n\t}\n\tfor name, ok := d.Field(); ok; name, ok = d.Field() {\n\t\tswitch string(name) {\n" +
		strings.Join(cases, "\n") + "\n\t\tdefault:\n\t\t\td.Skip()\n\t\t}\n\t}"
}

// jsonFields lists the fields of st as encoding/json sees them, embedded
// structs' fields promoted, at depth (0 for the struct itself).
func (w *decoderWriter) jsonFields(name string, st *ast.StructType, imports *fileImports, path, allocs []string, depth int) ([]jsonField, error) {
	if depth > 8 {
		return nil, errReflective("embedded structs nest too deep")
	}
	var out []jsonField
	for _, f := range st.Fields.List {
		tag := structTag(f)
		if tag == "-" {
			continue
		}
		tagName, opts, _ := strings.Cut(tag, ",")
		if !validTagName(tagName) {
			tagName = ""
		}
		if strings.Contains(","+opts+",", ",string,") {
			return nil, errReflective("a field has the ,string option")
		}
		if len(f.Names) == 0 && tagName == "" {
			promoted, err := w.embedded(f, imports, path, allocs, depth)
			if err != nil {
				return nil, err
			}
			out = append(out, promoted...)
			continue
		}
		for _, n := range fieldNames(f) {
			if !ast.IsExported(n) {
				continue
			}
			jf := jsonField{name: n, path: append(append([]string{}, path...), n), allocs: allocs,
				expr: f.Type, imports: imports, depth: depth, tagged: tagName != ""}
			if tagName != "" {
				jf.name = tagName
			}
			out = append(out, jf)
		}
	}
	return out, nil
}

// embedded returns the promoted fields of an embedded field without a
// tag name: a struct of the API package's, or metav1.TypeMeta; an
// embedded non-struct is a field named after its type.
func (w *decoderWriter) embedded(f *ast.Field, imports *fileImports, path, allocs []string, depth int) ([]jsonField, error) {
	typ, pointer := f.Type, false
	if s, ok := typ.(*ast.StarExpr); ok {
		typ, pointer = s.X, true
	}
	goName := fieldNames(f)[0]
	sub := append(append([]string{}, path...), goName)
	if pointer {
		allocs = append(append([]string{}, allocs...), "p."+strings.Join(sub, "."))
	}
	switch e := typ.(type) {
	case *ast.SelectorExpr:
		return w.embeddedForeign(e, imports, sub, depth, pointer)
	case *ast.Ident:
		d, ok := w.decls[e.Name]
		switch {
		case !ok || w.custom[e.Name] != "" || d.spec.Assign.IsValid():
			return nil, errReflective("it embeds " + goName + ", which the generator does not decode field by field")
		case pointer && !ast.IsExported(e.Name):
			return nil, errReflective("it embeds a pointer to the unexported " + goName)
		}
		if st, isStruct := d.spec.Type.(*ast.StructType); isStruct {
			return w.jsonFields(e.Name, st, d.imports, sub, allocs, depth+1)
		}
		if !ast.IsExported(goName) {
			return nil, nil
		}
		return []jsonField{{name: goName, path: sub, allocs: allocs[:len(allocs)-boolInt(pointer)], expr: f.Type, imports: imports, depth: depth}}, nil
	}
	return nil, errReflective("it embeds " + goName)
}

// embeddedForeign returns the promoted fields of an embedded type of
// another package: metav1.TypeMeta's kind and apiVersion; any other makes
// the struct decoded by reflection.
func (w *decoderWriter) embeddedForeign(e *ast.SelectorExpr, imports *fileImports, sub []string, depth int, pointer bool) ([]jsonField, error) {
	if p, ok := w.qualifierPath(e, imports); ok && p == metav1Path && e.Sel.Name == "TypeMeta" && !pointer {
		return []jsonField{
			{name: "kind", path: append(sub[:len(sub):len(sub)], "Kind"), expr: ast.NewIdent("string"), imports: imports, depth: depth + 1, tagged: true},
			{name: "apiVersion", path: append(sub[:len(sub):len(sub)], "APIVersion"), expr: ast.NewIdent("string"), imports: imports, depth: depth + 1, tagged: true},
		}, nil
	}
	return nil, errReflective("it embeds " + sub[len(sub)-1] + ", declared in another package")
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// allocType is the type an embedded pointer on f's path points to.
func (w *decoderWriter) allocType(alloc string) string {
	last := alloc[strings.LastIndex(alloc, ".")+1:]
	if _, ok := w.decls[last]; ok {
		return w.apiAlias + "." + last
	}
	return last
}

// dominantFields keeps, of the fields of one name, the one encoding/json
// decodes: the shallowest; of several at that depth, the only tagged one;
// none when that leaves two. The result is in member-name order.
func dominantFields(fields []jsonField) []jsonField {
	sort.SliceStable(fields, func(i, j int) bool {
		a, b := fields[i], fields[j]
		if a.name != b.name {
			return a.name < b.name
		}
		if a.depth != b.depth {
			return a.depth < b.depth
		}
		return a.tagged && !b.tagged
	})
	var out []jsonField
	for i := 0; i < len(fields); {
		j := i + 1
		for j < len(fields) && fields[j].name == fields[i].name {
			j++
		}
		if j-i == 1 || fields[i].depth != fields[i+1].depth || fields[i].tagged != fields[i+1].tagged {
			out = append(out, fields[i])
		}
		i = j
	}
	return out
}

// structTag returns the json key of a field's tag.
func structTag(f *ast.Field) string {
	if f.Tag == nil {
		return ""
	}
	raw, err := strconv.Unquote(f.Tag.Value)
	if err != nil {
		return ""
	}
	return reflect.StructTag(raw).Get("json")
}

// validTagName is encoding/json's isValidTag: a tag name it uses; for
// another, it uses the Go field's name.
func validTagName(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		switch {
		case strings.ContainsRune("!#$%&()*+-./:;<=>?@[]^_{|}~ ", c):
		case !unicode.IsLetter(c) && !unicode.IsDigit(c):
			return false
		}
	}
	return true
}

// callable is fn as a call writes it: a generic function of package
// jsondecode without its type arguments, which the call infers
// (jsondecode.String(d, &p.Name), not jsondecode.String[string]).
func callable(fn string) string {
	if i := strings.IndexByte(fn, '['); i > 0 && strings.HasPrefix(fn, "jsondecode.") && strings.HasSuffix(fn, "]") {
		return fn[:i]
	}
	return fn
}
