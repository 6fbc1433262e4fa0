package generators

import (
	"fmt"
	"go/ast"
	"strings"
)

// An update walk (package compact's From) compacts an object that replaces
// an older version of itself: it takes every field equal to the old
// version's as it is and walks only the others. informer-gen writes one,
// updateNAME, per informer kind and per struct type that kind holds by
// value (Spec, Status), and registers the kind's with
// compact.RegisterUpdate.

// hashOnlyWalks are the walks that only hash: their fields have nothing to
// intern or share, so an update walk skips them.
var hashOnlyWalks = []string{"compact.Scalar[", "compact.Bool[", "compact.Float[", "compact.Interface[", "compact.MetaTime", "compact.MetaMicroTime"}

// knownUpdates are the update walks of the apimachinery types runtime/compact
// writes one for, by their walk.
var knownUpdates = map[string]string{
	"compact.String":     "compact.StringFrom",
	"compact.TypeMeta":   "compact.TypeMetaFrom",
	"compact.ObjectMeta": "compact.ObjectMetaFrom",
}

// rootUpdate returns the RegisterUpdate call of the informer kind name,
// writing its update walks; ok is false when name is not a struct the
// generated code walks field by field.
func (w *walkWriter) rootUpdate(name string) (string, bool) {
	fn, ok := w.update(name)
	w.drain()
	if !ok {
		return "", false
	}
	return fmt.Sprintf("compact.RegisterUpdate(%s)", fn), true
}

// valueStruct returns the struct type of the API package's type that expr
// names, when its fields are walked one by one (not opted out, not an
// alias).
func (w *walkWriter) valueStruct(expr ast.Expr) (string, *walkDecl, bool) {
	id, ok := expr.(*ast.Ident)
	if !ok {
		return "", nil, false
	}
	d, ok := w.decls[id.Name]
	if !ok || d.optOut || d.spec.Assign.IsValid() {
		return "", nil, false
	}
	_, isStruct := d.spec.Type.(*ast.StructType)
	return id.Name, d, isStruct
}

// update returns the update walk of the API package's struct type name,
// writing it on first use.
func (w *walkWriter) update(name string) (string, bool) {
	_, d, ok := w.valueStruct(&ast.Ident{Name: name})
	if !ok {
		return "", false
	}
	fn := "update" + name
	if _, done := w.funcs[fn]; done {
		return fn, true
	}
	w.funcs[fn] = "" // reserved while its fields are written
	body := w.updateBody(d.spec.Type.(*ast.StructType), d.imports)
	w.funcs[fn] = fmt.Sprintf("// %s compacts a %s that replaces old, taking every field equal to old's as it is.\n"+
		"func %s(t *compact.Table, p, old *%s) {\n\tif p == old {\n\t\treturn\n\t}\n%s}\n", fn, name, fn, w.qualified(name), body)
	return fn, true
}

// updateBody is one statement per field of st that may hold something to
// intern or share.
func (w *walkWriter) updateBody(st *ast.StructType, imports *fileImports) string {
	var b strings.Builder
	for _, f := range st.Fields.List {
		we, ee, ok := w.pair(f.Type, imports)
		if !ok || hasMarker(f.Doc) || hasMarker(f.Comment) || hashOnly(we) {
			continue
		}
		for _, name := range fieldNames(f) {
			if ast.IsExported(name) {
				fmt.Fprintf(&b, "\t%s\n", w.fieldUpdate(f.Type, name, we, ee))
			}
		}
	}
	return b.String()
}

// fieldUpdate is the statement updating field name, of type expr, whose
// walk and equality are we and ee.
func (w *walkWriter) fieldUpdate(expr ast.Expr, name, we, ee string) string {
	if known, ok := knownUpdates[we]; ok {
		return fmt.Sprintf("%s(t, &p.%s, &old.%s)", known, name, name)
	}
	if w.definedString(expr) {
		return fmt.Sprintf("compact.StringOfFrom(t, &p.%s, &old.%s)", name, name)
	}
	if typeName, _, ok := w.valueStruct(expr); ok {
		if fn, ok := w.update(typeName); ok {
			return fmt.Sprintf("%s(t, &p.%s, &old.%s)", fn, name, name)
		}
	}
	return fmt.Sprintf("compact.From(t, &p.%s, &old.%s, %s, %s)", name, name, we, ee)
}

// definedString reports whether expr names a string type of the API
// package (type PodPhase string) whose walk interns it.
func (w *walkWriter) definedString(expr ast.Expr) bool {
	id, ok := expr.(*ast.Ident)
	if !ok {
		return false
	}
	d, ok := w.decls[id.Name]
	if !ok || d.optOut {
		return false
	}
	under, ok := d.spec.Type.(*ast.Ident)
	return ok && under.Name == "string"
}

// hashOnly reports whether the walk we only hashes.
func hashOnly(we string) bool {
	for _, prefix := range hashOnlyWalks {
		if strings.HasPrefix(we, prefix) {
			return true
		}
	}
	return false
}
