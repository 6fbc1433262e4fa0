package generators

import (
	"fmt"
	"go/ast"
	"reflect"
	"sort"
	"strconv"
	"strings"
)

// protoWriter writes the protobuf decoders of one API package (package
// runtime/protodecode): unmarshalNAME for each struct reachable from the
// informer kinds, decoding the fields go-to-protobuf's Unmarshal decodes
// (those with a protobuf struct tag) by their numbers and wire types. A
// struct with a field it cannot decode exactly as Unmarshal does is
// decoded by its own Unmarshal (protodecode.Unmarshaled). It reads the
// package's declarations and imports through a walkWriter.
type protoWriter struct {
	*walkWriter
	funcs   map[string]string // function name -> source
	pending []string
	written map[string]bool
	// walks are the functions of the version's compaction walks
	// (zz_generated.compaction.go), by name: a repeated, map or
	// optional field with a walk there is shared as it is decoded
	// (protodecode.SharedX, protodecoder_share.go); nil shares nothing.
	walks map[string]string
	// compacts says, of each struct decoded field by field, whether its
	// decoder shares what its walk shares.
	compacts map[string]compactsAs
	// roots are the informer kinds decoded.
	roots []string
}

func newProtoWriter(src *sourcePackage, apiAlias string) *protoWriter {
	w := &protoWriter{walkWriter: newWalkWriter(src, apiAlias), funcs: map[string]string{}, written: map[string]bool{},
		compacts: map[string]compactsAs{}}
	w.names["protodecode"] = true
	return w
}

// named returns the Func of the API package's struct type name, queuing
// it to be written.
func (w *protoWriter) named(name string) string {
	if !w.written[name] {
		w.written[name] = true
		w.pending = append(w.pending, name)
	}
	return "unmarshal" + name
}

// hasProtoTags reports whether the API package's type name is a struct
// with a field go-to-protobuf decodes (a protobuf struct tag): a type
// that decodes itself from protobuf some other way gets no decoder.
func (w *protoWriter) hasProtoTags(name string) bool {
	d, ok := w.decls[name]
	if !ok {
		return false
	}
	st, ok := d.spec.Type.(*ast.StructType)
	if !ok {
		return false
	}
	for _, f := range st.Fields.List {
		if _, ok := parseProtoTag(f); ok {
			return true
		}
	}
	return false
}

// drain writes the decoders of every queued type.
func (w *protoWriter) drain() {
	for len(w.pending) > 0 {
		name := w.pending[0]
		w.pending = w.pending[1:]
		w.writeNamed(name)
	}
}

// writeNamed writes unmarshalNAME for the API package's struct name.
func (w *protoWriter) writeNamed(name string) {
	d := w.decls[name]
	body := "\tprotodecode.Unmarshaled(d, p) // decoded by its Unmarshal: not a struct"
	if st, ok := d.spec.Type.(*ast.StructType); ok {
		body = w.structBody(name, st, d.imports)
	}
	w.funcs["unmarshal"+name] = fmt.Sprintf("// unmarshal%s decodes a %s from protobuf.\nfunc unmarshal%s(d *protodecode.Decoder, p *%s.%s) {\n%s\n}\n",
		name, name, name, w.apiAlias, name, body)
}

// structBody is the body of a struct's decoder: a switch on the field
// number, one case per field with a protobuf tag.
func (w *protoWriter) structBody(name string, st *ast.StructType, imports *fileImports) string {
	type protoCase struct {
		num  int
		stmt string
	}
	var cases []protoCase
	tagged := false
	w.compacts[name] = compactsAs{self: true}
	for _, f := range st.Fields.List {
		tag, ok := parseProtoTag(f)
		if !ok {
			continue
		}
		tagged = true
		names := fieldNames(f)
		num, err := strconv.Atoi(tag.num)
		if err != nil || len(names) != 1 {
			w.compacts[name] = compactsAs{}
			return fmt.Sprintf("\tprotodecode.Unmarshaled(d, p) // decoded by its Unmarshal: field %s has an unexpected protobuf tag", strings.Join(names, ", "))
		}
		stmt, ok := w.fieldStmt("&p."+names[0], f.Type, imports, tag)
		if !ok {
			w.compacts[name] = compactsAs{}
			return fmt.Sprintf("\tprotodecode.Unmarshaled(d, p) // decoded by its Unmarshal: the generator does not decode field %s", names[0])
		}
		cases = append(cases, protoCase{num, w.sharedStmt(name, "&p."+names[0], f.Type, stmt)})
	}
	if !tagged {
		w.compacts[name] = compactsAs{}
		return "\tprotodecode.Unmarshaled(d, p) // decoded by its Unmarshal: no field has a protobuf tag"
	}
	sort.Slice(cases, func(i, j int) bool { return cases[i].num < cases[j].num })
	var b strings.Builder
	b.WriteString("\tfor d.Next() {\n\t\tswitch d.Field() {\n")
	for i, c := range cases {
		if i > 0 && cases[i-1].num == c.num {
			w.compacts[name] = compactsAs{}
			return "\tprotodecode.Unmarshaled(d, p) // decoded by its Unmarshal: two fields have one number"
		}
		fmt.Fprintf(&b, "\t\tcase %d:\n\t\t\t%s\n", c.num, c.stmt)
	}
	b.WriteString("\t\tdefault:\n\t\t\td.Skip()\n\t\t}\n\t}")
	return b.String()
}

// fieldStmt is the statement decoding one occurrence of a field whose
// address is addr, of type expr, tagged tag. The wire type comes from
// the Go type, as go-to-protobuf's generated Unmarshal expects it: the
// tags' wire type names are not always right (core/v1's PodSpec.Priority,
// an *int32, is tagged "bytes" and decoded from a varint).
func (w *protoWriter) fieldStmt(addr string, expr ast.Expr, imports *fileImports, tag protoTag) (string, bool) {
	switch e := expr.(type) {
	case *ast.StarExpr:
		return w.scalarStmt("Opt", addr, e.X, imports, tag)
	case *ast.ArrayType:
		if e.Len != nil {
			return "", false
		}
		if id, ok := e.Elt.(*ast.Ident); ok && (id.Name == "byte" || id.Name == "uint8") {
			return "protodecode.Bytes(d, " + addr + ")", true
		}
		return w.repeatedStmt(addr, e.Elt, imports, tag)
	case *ast.MapType:
		return w.mapStmt(addr, e, imports, tag)
	case *ast.Ident:
		if d, ok := w.decls[e.Name]; ok && !d.spec.Assign.IsValid() {
			if m, isMap := d.spec.Type.(*ast.MapType); isMap {
				return w.mapStmt(addr, m, d.imports, tag)
			}
		}
	}
	return w.scalarStmt("", addr, expr, imports, tag)
}

// scalarStmt decodes a singular field (prefix "") or an optional one
// through a pointer (prefix "Opt").
func (w *protoWriter) scalarStmt(prefix, addr string, expr ast.Expr, imports *fileImports, tag protoTag) (string, bool) {
	k, fn := w.kindOf(expr, imports, tag)
	name := map[protoKind]string{protoString: "String", protoInt: "Int", protoBool: "Bool", protoFloat: "Float64", protoMessage: "Message"}[k]
	if name == "" {
		return "", false
	}
	if k == protoMessage {
		return fmt.Sprintf("protodecode.%s%s(d, %s, %s)", prefix, name, addr, fn), true
	}
	return fmt.Sprintf("protodecode.%s%s(d, %s)", prefix, name, addr), true
}

// repeatedStmt decodes one occurrence of a repeated field of elem.
func (w *protoWriter) repeatedStmt(addr string, elem ast.Expr, imports *fileImports, tag protoTag) (string, bool) {
	k, fn := w.kindOf(elem, imports, tag)
	switch k {
	case protoString:
		return "protodecode.Strings(d, " + addr + ")", true
	case protoInt:
		return "protodecode.Ints(d, " + addr + ")", true
	case protoMessage:
		return fmt.Sprintf("protodecode.Messages(d, %s, %s)", addr, fn), true
	}
	return "", false
}

// mapStmt decodes one entry of a map field.
func (w *protoWriter) mapStmt(addr string, m *ast.MapType, imports *fileImports, tag protoTag) (string, bool) {
	keyTag := protoTag{wire: "bytes", casttype: tag.castkey}
	if k, _ := w.kindOf(m.Key, imports, keyTag); k != protoString {
		return "", false
	}
	if a, ok := m.Value.(*ast.ArrayType); ok && a.Len == nil {
		if id, ok := a.Elt.(*ast.Ident); ok && (id.Name == "byte" || id.Name == "uint8") {
			return "protodecode.BytesMap(d, " + addr + ")", true
		}
		return "", false
	}
	switch k, fn := w.kindOf(m.Value, imports, protoTag{}); k {
	case protoString:
		return "protodecode.StringMap(d, " + addr + ")", true
	case protoMessage:
		return fmt.Sprintf("protodecode.MessageMap(d, %s, %s)", addr, fn), true
	}
	return "", false
}

// registrations returns the Register calls of every type written.
func (w *protoWriter) registrations() []string {
	var out []string
	for name := range w.written {
		out = append(out, fmt.Sprintf("protodecode.Register(unmarshal%s)", name))
	}
	sort.Strings(out)
	return out
}

// sortedFuncs returns the functions written, sorted by name.
func (w *protoWriter) sortedFuncs() []string {
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

// rawStructTag returns the value of key in a field's tag.
func rawStructTag(f *ast.Field, key string) string {
	if f.Tag == nil {
		return ""
	}
	raw, err := strconv.Unquote(f.Tag.Value)
	if err != nil {
		return ""
	}
	return reflect.StructTag(raw).Get(key)
}
