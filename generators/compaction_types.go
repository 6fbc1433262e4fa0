package generators

import (
	"fmt"
	"go/ast"
	"path"
	"strings"
)

// pair returns the walk and equality functions of the type expr, written
// in a file with imports; ok is false for a type the generated file cannot
// name (an anonymous struct, an unresolved package), which is then opaque.
func (w *walkWriter) pair(expr ast.Expr, imports *fileImports) (walk, eq string, ok bool) {
	switch e := expr.(type) {
	case *ast.Ident:
		return w.identPair(e.Name)
	case *ast.SelectorExpr:
		return w.selectorPair(e, imports)
	case *ast.ParenExpr:
		return w.pair(e.X, imports)
	case *ast.StarExpr, *ast.MapType:
		return w.helper(expr, imports)
	case *ast.ArrayType:
		if id, isIdent := e.Elt.(*ast.Ident); isIdent && e.Len == nil && (id.Name == "byte" || id.Name == "uint8") {
			return "compact.Bytes", "compact.EqualBytes", true
		}
		if e.Len == nil {
			return w.helper(expr, imports)
		}
	}
	ts, ok := w.typeString(expr, imports)
	if !ok {
		return "", "", false
	}
	return "compact.Value[" + ts + "]", "compact.EqualValue[" + ts + "]", true
}

// identPair is pair of a predeclared type or a type of the API package.
func (w *walkWriter) identPair(name string) (string, string, bool) {
	if p, ok := builtinWalks[name]; ok {
		return p[0], p[1], true
	}
	if scalarTypes.MatchString(name) {
		fn := "Scalar"
		if strings.HasPrefix(name, "float") {
			fn = "Float"
		}
		return "compact." + fn + "[" + name + "]", "compact.Eq[" + name + "]", true
	}
	d, ok := w.decls[name]
	switch {
	case !ok:
		return "", "", false
	case d.spec.Assign.IsValid():
		// An alias is the type it names: its functions are that type's
		// (registering walks for it would replace the other package's).
		return w.pair(d.spec.Type, d.imports)
	}
	walk, eq := w.named(name)
	return walk, eq, true
}

// selectorPair is pair of pkg.Name.
func (w *walkWriter) selectorPair(e *ast.SelectorExpr, imports *fileImports) (string, string, bool) {
	p, ok := w.qualifierPath(e, imports)
	switch {
	case !ok:
		return "", "", false
	case p == w.apiPath:
		return w.identPair(e.Sel.Name)
	}
	ts := w.importName(p) + "." + e.Sel.Name
	if known, ok := knownWalks[p+"."+e.Sel.Name]; ok {
		return strings.ReplaceAll(known[0], "%s", ts), strings.ReplaceAll(known[1], "%s", ts), true
	}
	return "compact.Value[" + ts + "]", "compact.EqualValue[" + ts + "]", true
}

// qualifierPath returns the import path of the package e's qualifier
// names: a named import, or an unnamed one whose last element, without
// dashes, dots and underscores, is the qualifier (the generator reads
// syntax only; a package named otherwise is not resolved, and values of
// its types are left unshared).
func (w *walkWriter) qualifierPath(e *ast.SelectorExpr, imports *fileImports) (string, bool) {
	q, ok := e.X.(*ast.Ident)
	if !ok {
		return "", false
	}
	if p, ok := imports.named[q.Name]; ok {
		return p, true
	}
	for _, p := range imports.unnamed {
		if base := path.Base(p); base == q.Name || strings.NewReplacer("-", "", ".", "", "_", "").Replace(base) == q.Name {
			return p, true
		}
	}
	return "", false
}

// typeString returns expr as the generated file writes it.
func (w *walkWriter) typeString(expr ast.Expr, imports *fileImports) (string, bool) {
	switch e := expr.(type) {
	case *ast.Ident:
		if _, ok := w.decls[e.Name]; ok {
			return w.qualified(e.Name), true
		}
		_, builtin := builtinWalks[e.Name]
		return e.Name, builtin || scalarTypes.MatchString(e.Name) || e.Name == "complex64" || e.Name == "complex128"
	case *ast.SelectorExpr:
		p, ok := w.qualifierPath(e, imports)
		if !ok {
			return "", false
		}
		return w.importName(p) + "." + e.Sel.Name, true
	case *ast.ParenExpr:
		return w.typeString(e.X, imports)
	case *ast.InterfaceType:
		return "interface{}", e.Methods == nil || len(e.Methods.List) == 0
	}
	return w.compositeTypeString(expr, imports)
}

// compositeTypeString is typeString of a pointer, slice or map type.
func (w *walkWriter) compositeTypeString(expr ast.Expr, imports *fileImports) (string, bool) {
	switch e := expr.(type) {
	case *ast.StarExpr:
		return w.wrapType("*", e.X, imports)
	case *ast.ArrayType:
		if e.Len != nil {
			return "", false
		}
		return w.wrapType("[]", e.Elt, imports)
	case *ast.MapType:
		k, ok := w.typeString(e.Key, imports)
		if !ok {
			return "", false
		}
		return w.wrapType("map["+k+"]", e.Value, imports)
	}
	return "", false
}

// wrapType is prefix + elem's type string.
func (w *walkWriter) wrapType(prefix string, elem ast.Expr, imports *fileImports) (string, bool) {
	s, ok := w.typeString(elem, imports)
	return prefix + s, ok
}

// shapeName names a type expression for the helper functions of its
// shape: SliceOfContainer, MapOfResourceNameToResourceQuantity, PtrToInt64.
func shapeName(expr ast.Expr) string {
	switch e := expr.(type) {
	case *ast.Ident:
		return strings.ToUpper(e.Name[:1]) + e.Name[1:]
	case *ast.SelectorExpr:
		return shapeName(e.X) + e.Sel.Name
	case *ast.ParenExpr:
		return shapeName(e.X)
	case *ast.StarExpr:
		return "PtrTo" + shapeName(e.X)
	case *ast.ArrayType:
		return "SliceOf" + shapeName(e.Elt)
	case *ast.MapType:
		return "MapOf" + shapeName(e.Key) + "To" + shapeName(e.Value)
	}
	return "Value"
}

// helper returns the functions of a pointer, slice or map type, writing
// them on first use.
func (w *walkWriter) helper(expr ast.Expr, imports *fileImports) (string, string, bool) {
	ts, ok := w.typeString(expr, imports)
	if !ok {
		return "", "", false
	}
	shape := shapeName(expr)
	walk, eq := "compact"+shape, "equal"+shape
	if _, done := w.funcs[walk]; done {
		return walk, eq, true
	}
	w.funcs[walk] = "" // reserved: a recursive type refers to itself
	walkBody, eqBody, ok := w.helperBodies(expr, imports)
	if !ok {
		delete(w.funcs, walk)
		return "", "", false
	}
	w.funcs[walk] = fmt.Sprintf("// %s interns and shares a %s in place.\nfunc %s(t *compact.Table, p *%s, h *compact.Hash) {\n\t%s\n}\n", walk, ts, walk, ts, walkBody)
	w.funcs[eq] = fmt.Sprintf("// %s reports whether two values of type %s are equal.\nfunc %s(a, b *%s) bool {\n\treturn %s\n}\n", eq, ts, eq, ts, eqBody)
	return walk, eq, true
}

// helperBodies returns the statements of a helper pair.
func (w *walkWriter) helperBodies(expr ast.Expr, imports *fileImports) (string, string, bool) {
	switch e := expr.(type) {
	case *ast.StarExpr:
		we, ee, ok := w.pair(e.X, imports)
		return fmt.Sprintf("compact.Pointer(t, p, %s, %s, h)", we, ee), fmt.Sprintf("compact.EqualPointers(*a, *b, %s)", ee), ok
	case *ast.ArrayType:
		we, ee, ok := w.pair(e.Elt, imports)
		return fmt.Sprintf("compact.Slice(t, p, %s, %s, h)", we, ee), fmt.Sprintf("compact.EqualSlices(*a, *b, %s)", ee), ok
	case *ast.MapType:
		wk, _, okK := w.pair(e.Key, imports)
		wv, ev, okV := w.pair(e.Value, imports)
		eqBody := fmt.Sprintf("compact.EqualMaps(*a, *b, %s)", ev)
		switch {
		case wv == "compact.Quantity":
			wv = "compact.QuantityValue" // map values are read as copies
			eqBody = "compact.EqualQuantityMaps(*a, *b)"
		case strings.HasPrefix(ev, "compact.Eq["):
			eqBody = "compact.EqualComparableMaps(*a, *b)"
		}
		return fmt.Sprintf("compact.Map(t, p, %s, %s, %s, h)", wk, wv, ev), eqBody, okK && okV
	}
	return "", "", false
}

// writeNamed writes the functions of the API package's type name.
func (w *walkWriter) writeNamed(name string) {
	d := w.decls[name]
	ts := w.qualified(name)
	walkBody, eqBody := "h.Opaque() // +informer-gen:compact=false", "false"
	if st, isStruct := d.spec.Type.(*ast.StructType); isStruct && !d.optOut {
		walkBody, eqBody = w.structBodies(st, d.imports)
	} else if !d.optOut {
		walkBody, eqBody = w.definedBodies(d)
	}
	w.funcs["compact"+name] = fmt.Sprintf("// compact%s interns and shares the parts of a %s in place.\nfunc compact%s(t *compact.Table, p *%s, h *compact.Hash) {\n%s\n}\n", name, name, name, ts, walkBody)
	w.funcs["equal"+name] = fmt.Sprintf("// equal%s reports whether two values of type %s are equal.\nfunc equal%s(a, b *%s) bool {\n\treturn %s\n}\n", name, name, name, ts, eqBody)
}

// definedBodies are the bodies of a type defined from a non-struct type
// (type ResourceList map[ResourceName]resource.Quantity): the underlying
// type's functions through a pointer conversion.
func (w *walkWriter) definedBodies(d *walkDecl) (string, string) {
	under, ok := w.typeString(d.spec.Type, d.imports)
	we, ee, okPair := w.pair(d.spec.Type, d.imports)
	if !ok || !okPair {
		return "\th.Opaque() // a type the generated code cannot name", "false"
	}
	return fmt.Sprintf("\t%s(t, (*%s)(p), h)", we, under), fmt.Sprintf("%s((*%s)(a), (*%s)(b))", ee, under, under)
}

// structBodies are the bodies of a struct type: one statement and one
// equality term per field. A field opted out, unexported or of a type the
// generated code cannot name makes the struct opaque (never shared) and
// its equality false.
func (w *walkWriter) structBodies(st *ast.StructType, imports *fileImports) (string, string) {
	var walk, eq []string
	opaque := false
	for _, f := range st.Fields.List {
		we, ee, ok := w.pair(f.Type, imports)
		skip := !ok || hasMarker(f.Doc) || hasMarker(f.Comment)
		for _, name := range fieldNames(f) {
			if skip || !ast.IsExported(name) {
				opaque = true
				walk = append(walk, fmt.Sprintf("\th.Opaque() // %s", name))
				continue
			}
			walk = append(walk, fmt.Sprintf("\t%s(t, &p.%s, h)", we, name))
			eq = append(eq, fmt.Sprintf("%s(&a.%s, &b.%s)", ee, name, name))
		}
	}
	if opaque || len(eq) == 0 {
		eq = []string{fmt.Sprint(!opaque)}
	}
	return strings.Join(walk, "\n"), strings.Join(eq, " &&\n\t\t")
}

// fieldNames returns the names of a struct field: its names, or the type
// name of an embedded field.
func fieldNames(f *ast.Field) []string {
	if len(f.Names) > 0 {
		out := make([]string, len(f.Names))
		for i, n := range f.Names {
			out[i] = n.Name
		}
		return out
	}
	t := f.Type
	if s, ok := t.(*ast.StarExpr); ok {
		t = s.X
	}
	switch e := t.(type) {
	case *ast.Ident:
		return []string{e.Name}
	case *ast.SelectorExpr:
		return []string{e.Sel.Name}
	}
	return []string{"_"}
}
