package apicompat

import (
	"fmt"
	"go/token"
	"go/types"
)

// Compare loads upstream and ours from directory dir (see Load) and
// compares them; see ComparePackages.
func Compare(dir, upstream, ours string, m Mapping) (*Report, error) {
	pkgs, err := Load(dir, upstream, ours)
	if err != nil {
		return nil, err
	}
	up, ok := pkgs[upstream]
	if !ok {
		return nil, fmt.Errorf("apicompat: package %s not loaded from %s", upstream, dir)
	}
	our, ok := pkgs[ours]
	if !ok {
		return nil, fmt.Errorf("apicompat: package %s not loaded from %s", ours, dir)
	}
	return ComparePackages(up, our, m), nil
}

// ComparePackages compares every exported name of upstream with the same
// name in ours. Named types of packages m relates are matched by name
// (see the package documentation); m need not relate upstream to ours
// itself.
func ComparePackages(upstream, ours *types.Package, m Mapping) *Report {
	c := &comparer{m: m, reexported: reexports(ours)}
	r := &Report{Upstream: upstream.Path(), Ours: ours.Path()}
	for _, name := range upstream.Scope().Names() {
		if !token.IsExported(name) {
			continue
		}
		uo := upstream.Scope().Lookup(name)
		oo := ours.Scope().Lookup(name)
		if oo == nil {
			r.Missing = append(r.Missing, name)
			continue
		}
		r.Shared = append(r.Shared, name)
		inc, extra := c.object(name, uo, oo)
		r.Incompatible = append(r.Incompatible, inc...)
		r.ExtraMethods = append(r.ExtraMethods, extra...)
	}
	r.sortAll()
	return r
}

type comparer struct {
	m Mapping
	// reexported maps a type declared in one of our packages to the
	// alias another of ours declares for it (runtime/cache's
	// "type Indexers = store.Indexers"): the alias's package and name
	// are the type's as far as matching goes.
	reexported map[*types.TypeName][]alias
}

// alias is a type alias's package path and name.
type alias struct{ path, name string }

// reexports returns, for ours and every package it imports, directly or
// not, the types that a package-level alias of another package names
// (controller-runtime's pattern: a front package aliasing the types of
// an internal one).
func reexports(ours *types.Package) map[*types.TypeName][]alias {
	out := map[*types.TypeName][]alias{}
	seen := map[*types.Package]bool{}
	var visit func(p *types.Package)
	visit = func(p *types.Package) {
		if seen[p] {
			return
		}
		seen[p] = true
		for _, name := range p.Scope().Names() {
			tn, ok := p.Scope().Lookup(name).(*types.TypeName)
			if !ok || !tn.IsAlias() || !tn.Exported() {
				continue
			}
			if n, ok := types.Unalias(tn.Type()).(*types.Named); ok && n.Obj().Pkg() != nil && n.Obj().Pkg() != p {
				out[n.Obj()] = append(out[n.Obj()], alias{path: p.Path(), name: name})
			}
		}
		for _, imp := range p.Imports() {
			visit(imp)
		}
	}
	visit(ours)
	return out
}

func kindOf(o types.Object) string {
	switch o := o.(type) {
	case *types.Func:
		return "func"
	case *types.Var:
		return "var"
	case *types.Const:
		return "const"
	case *types.TypeName:
		if o.IsAlias() {
			return "type alias"
		}
		return "type"
	}
	return fmt.Sprintf("%T", o)
}

// object compares one top-level declaration.
func (c *comparer) object(name string, uo, oo types.Object) (inc, extra []Finding) {
	bad := func(format string, args ...any) {
		inc = append(inc, Finding{Name: name, Reason: fmt.Sprintf(format, args...)})
	}
	switch u := uo.(type) {
	case *types.Func:
		o, ok := oo.(*types.Func)
		if !ok {
			bad("upstream is a func %s, ours is a %s", typeString(u.Type()), kindOf(oo))
			return
		}
		if why := c.signature(u.Type().(*types.Signature), o.Type().(*types.Signature)); why != "" {
			bad("%s; upstream %s, ours %s", why, sigString(u), sigString(o))
		}
	case *types.Var:
		o, ok := oo.(*types.Var)
		if !ok {
			bad("upstream is a var of type %s, ours is a %s", typeString(u.Type()), kindOf(oo))
			return
		}
		if why := c.typ(u.Type(), o.Type()); why != "" {
			bad("var type: %s", why)
		}
	case *types.Const:
		o, ok := oo.(*types.Const)
		if !ok {
			bad("upstream is a const of type %s, ours is a %s", typeString(u.Type()), kindOf(oo))
			return
		}
		ot := o.Type()
		if b, ok := ot.(*types.Basic); ok && b.Info()&types.IsUntyped != 0 {
			// An untyped constant takes its default type where upstream's
			// typed one would have its own: compatible when they agree.
			ot = types.Default(ot)
		}
		if why := c.typ(u.Type(), ot); why != "" {
			bad("const type: %s", why)
		}
	case *types.TypeName:
		o, ok := oo.(*types.TypeName)
		if !ok {
			bad("upstream is a type, ours is a %s", kindOf(oo))
			return
		}
		return c.typeName(name, u, o)
	default:
		bad("unsupported upstream object %T", uo)
	}
	return
}

// typeName compares a type declaration: its type parameters, its
// underlying type (fields, interface methods) and its methods.
func (c *comparer) typeName(name string, u, o *types.TypeName) (inc, extra []Finding) {
	f := &findings{name: name}
	c.declaration(f, u, o)
	return f.inc, f.extra
}

// findings collects what typeName finds about the declaration name.
type findings struct {
	name       string
	inc, extra []Finding
}

// bad records an incompatibility of the declaration, or of its member
// when member is not "".
func (f *findings) bad(member, format string, args ...any) {
	n := f.name
	if member != "" {
		n += "." + member
	}
	f.inc = append(f.inc, Finding{Name: n, Reason: fmt.Sprintf(format, args...)})
}

// declaration compares upstream's type declaration u with ours o.
func (c *comparer) declaration(f *findings, u, o *types.TypeName) {
	ut, ot := types.Unalias(u.Type()), types.Unalias(o.Type())
	un, uNamed := ut.(*types.Named)
	on, oNamed := ot.(*types.Named)
	switch {
	case !uNamed:
		// An alias of an unnamed type: ours must have the same structure,
		// directly or as the underlying type of a defined type.
		if why := c.typ(ut, ot.Underlying()); why != "" {
			f.bad("", "%s", why)
		}
		return
	case !oNamed:
		f.bad("", "upstream is a defined type, ours is %s", typeString(ot))
		return
	case un.Obj().Pkg() != u.Pkg():
		// An upstream alias of a type declared elsewhere: the same type
		// (modulo mapping) is required.
		if why := c.typ(un, on); why != "" {
			f.bad("", "%s", why)
		}
		return
	}
	if why := c.typeParams(un.TypeParams(), on.TypeParams()); why != "" {
		f.bad("", "%s", why)
		return
	}
	if c.underlying(f, un.Underlying(), on.Underlying()) {
		for _, ptr := range []bool{false, true} {
			c.methods(f, un, on, ptr)
		}
	}
}

// underlying compares the underlying types of a defined type and reports
// whether its methods are to be compared too (not for interfaces, whose
// methods underlying compares, nor after a different kind of type).
func (c *comparer) underlying(f *findings, uu, ou types.Type) bool {
	switch uu := uu.(type) {
	case *types.Struct:
		os, ok := ou.(*types.Struct)
		if !ok {
			f.bad("", "upstream is a struct, ours is %s", typeString(ou))
			return false
		}
		c.fields(f, uu, os)
	case *types.Interface:
		oi, ok := ou.(*types.Interface)
		if !ok {
			f.bad("", "upstream is an interface, ours is %s", typeString(ou))
			return false
		}
		c.interfaceMethods(f, uu, oi)
		return false
	default:
		if why := c.typ(uu, ou); why != "" {
			f.bad("", "underlying type: %s", why)
		}
	}
	return true
}

// fields compares the exported fields of upstream's struct u with ours.
func (c *comparer) fields(f *findings, u, o *types.Struct) {
	ofields := map[string]*types.Var{}
	for i := 0; i < o.NumFields(); i++ {
		ofields[o.Field(i).Name()] = o.Field(i)
	}
	for i := 0; i < u.NumFields(); i++ {
		uf := u.Field(i)
		if !uf.Exported() {
			continue
		}
		of, ok := ofields[uf.Name()]
		if !ok {
			f.bad(uf.Name(), "field missing (upstream %s)", typeString(uf.Type()))
			continue
		}
		if of.Embedded() != uf.Embedded() {
			f.bad(uf.Name(), "upstream embedded=%v, ours embedded=%v", uf.Embedded(), of.Embedded())
		}
		if why := c.typ(uf.Type(), of.Type()); why != "" {
			f.bad(uf.Name(), "field type: %s", why)
		}
	}
}

// interfaceMethods compares upstream's interface u with ours: every
// exported method of u, the methods ours adds, and the constraint.
func (c *comparer) interfaceMethods(f *findings, u, o *types.Interface) {
	upMethods := map[string]bool{}
	for i := 0; i < u.NumMethods(); i++ {
		m := u.Method(i)
		upMethods[m.Name()] = true
		if !m.Exported() {
			continue
		}
		om := lookupMethod(o, m.Name())
		if om == nil {
			f.bad(m.Name(), "method missing (upstream %s)", sigString(m))
			continue
		}
		if why := c.signature(m.Type().(*types.Signature), om.Type().(*types.Signature)); why != "" {
			f.bad(m.Name(), "%s; upstream %s, ours %s", why, sigString(m), sigString(om))
		}
	}
	for i := 0; i < o.NumMethods(); i++ {
		if m := o.Method(i); !upMethods[m.Name()] {
			f.extra = append(f.extra, Finding{Name: f.name + "." + m.Name(), Reason: "ours requires a method upstream does not; implementations written for upstream do not satisfy ours"})
		}
	}
	if u.IsComparable() != o.IsComparable() || u.IsMethodSet() != o.IsMethodSet() {
		if why := c.typ(u, o); why != "" {
			f.bad("", "constraint: %s", why)
		}
	}
}

// methods compares the exported methods upstream declares on un (on *un
// when ptr) with ours on on; a method of *un that un has too is checked
// on un only.
func (c *comparer) methods(f *findings, un, on *types.Named, ptr bool) {
	var uT, oT types.Type = un, on
	if ptr {
		uT, oT = types.NewPointer(un), types.NewPointer(on)
	}
	ums, oms := types.NewMethodSet(uT), types.NewMethodSet(oT)
	for i := 0; i < ums.Len(); i++ {
		m := ums.At(i).Obj().(*types.Func)
		if !m.Exported() {
			continue
		}
		if ptr && types.NewMethodSet(un).Lookup(m.Pkg(), m.Name()) != nil {
			continue // already checked on T
		}
		osel := oms.Lookup(on.Obj().Pkg(), m.Name())
		if osel == nil {
			f.missingMethod(m, on, ptr)
			continue
		}
		om := osel.Obj().(*types.Func)
		if why := c.signature(m.Type().(*types.Signature), om.Type().(*types.Signature)); why != "" {
			f.bad(m.Name(), "%s; upstream %s, ours %s", why, sigString(m), sigString(om))
		}
	}
}

// missingMethod records upstream's method m (declared on *T when ptr)
// that ours, on, lacks: missing, or declared only on the pointer.
func (f *findings) missingMethod(m *types.Func, on *types.Named, ptr bool) {
	if !ptr && types.NewMethodSet(types.NewPointer(on)).Lookup(on.Obj().Pkg(), m.Name()) != nil {
		f.bad(m.Name(), "upstream declares it on %s, ours only on *%s", f.name, f.name)
		return
	}
	recv := ""
	if ptr {
		recv = "*"
	}
	f.bad(m.Name(), "method missing on %s%s (upstream %s)", recv, f.name, sigString(m))
}

func lookupMethod(i *types.Interface, name string) *types.Func {
	for j := 0; j < i.NumMethods(); j++ {
		if m := i.Method(j); m.Name() == name {
			return m
		}
	}
	return nil
}

func (c *comparer) typeParams(u, o *types.TypeParamList) string {
	if u.Len() != o.Len() {
		return fmt.Sprintf("upstream has %d type parameters, ours %d", u.Len(), o.Len())
	}
	for i := 0; i < u.Len(); i++ {
		if why := c.typ(u.At(i).Constraint(), o.At(i).Constraint()); why != "" {
			return fmt.Sprintf("type parameter %d constraint: %s", i, why)
		}
	}
	return ""
}

// signature compares two signatures, receivers excluded.
func (c *comparer) signature(u, o *types.Signature) string {
	if why := c.typeParams(u.TypeParams(), o.TypeParams()); why != "" {
		return why
	}
	if u.Variadic() != o.Variadic() {
		return fmt.Sprintf("upstream variadic=%v, ours variadic=%v", u.Variadic(), o.Variadic())
	}
	if u.Params().Len() != o.Params().Len() {
		return fmt.Sprintf("upstream has %d parameters, ours %d", u.Params().Len(), o.Params().Len())
	}
	for i := 0; i < u.Params().Len(); i++ {
		if why := c.typ(u.Params().At(i).Type(), o.Params().At(i).Type()); why != "" {
			return fmt.Sprintf("parameter %d: %s", i+1, why)
		}
	}
	if u.Results().Len() != o.Results().Len() {
		return fmt.Sprintf("upstream has %d results, ours %d", u.Results().Len(), o.Results().Len())
	}
	for i := 0; i < u.Results().Len(); i++ {
		if why := c.typ(u.Results().At(i).Type(), o.Results().At(i).Type()); why != "" {
			return fmt.Sprintf("result %d: %s", i+1, why)
		}
	}
	return ""
}

// typ reports why a value of upstream type u cannot be written as ours o,
// or "" when the types are compatible.
func (c *comparer) typ(u, o types.Type) string {
	if c.mappedAlias(u, o) {
		return ""
	}
	u, o = types.Unalias(u), types.Unalias(o)
	same, supported := c.same(u, o)
	switch {
	case !supported:
		return fmt.Sprintf("unsupported upstream type %s (%T)", typeString(u), u)
	case !same:
		return fmt.Sprintf("upstream %s, ours %s", typeString(u), typeString(o))
	}
	return ""
}

// mappedAlias reports whether u is an upstream alias named in a mapped
// package and o our declaration of that name: it stands for ours (checked
// on its own), alias or not.
func (c *comparer) mappedAlias(u, o types.Type) bool {
	ua, ok := u.(*types.Alias)
	if !ok || ua.TypeArgs().Len() != 0 {
		return false
	}
	if _, mapped := c.m.Map(pkgPath(ua.Obj())); !mapped {
		return false
	}
	var oObj *types.TypeName
	switch o := o.(type) {
	case *types.Alias:
		oObj = o.Obj()
	case *types.Named:
		oObj = o.Obj()
	}
	return oObj != nil && c.sameNamed(ua.Obj(), oObj)
}

// same reports whether the unaliased types u and o are the same (modulo
// mapping), and whether typ knows the kind of type u is at all.
func (c *comparer) same(u, o types.Type) (same, supported bool) {
	switch u.(type) {
	case *types.Basic, *types.TypeParam, *types.Named:
		return c.sameLeaf(u, o), true
	case *types.Pointer, *types.Slice, *types.Array:
		return c.sameElem(u, o), true
	case *types.Map, *types.Chan:
		return c.sameKeyed(u, o), true
	case *types.Signature, *types.Struct, *types.Interface, *types.Union:
		return c.sameComposite(u, o), true
	}
	return false, false
}

// sameLeaf compares basic types, type parameters and named types.
func (c *comparer) sameLeaf(u, o types.Type) bool {
	switch u := u.(type) {
	case *types.Basic:
		ob, ok := o.(*types.Basic)
		return ok && ob.Kind() == u.Kind()
	case *types.TypeParam:
		ot, ok := o.(*types.TypeParam)
		return ok && ot.Index() == u.Index()
	case *types.Named:
		return c.sameNamedType(u, o)
	}
	return false
}

// sameNamedType compares a named type and its type arguments.
func (c *comparer) sameNamedType(u *types.Named, o types.Type) bool {
	on, ok := o.(*types.Named)
	if !ok || !c.sameNamed(u.Obj(), on.Obj()) {
		return false
	}
	ua, oa := u.TypeArgs(), on.TypeArgs()
	if ua.Len() != oa.Len() {
		return false
	}
	for i := 0; i < ua.Len(); i++ {
		if c.typ(ua.At(i), oa.At(i)) != "" {
			return false
		}
	}
	return true
}

// sameElem compares pointers, slices and arrays.
func (c *comparer) sameElem(u, o types.Type) bool {
	switch u := u.(type) {
	case *types.Pointer:
		op, ok := o.(*types.Pointer)
		return ok && c.typ(u.Elem(), op.Elem()) == ""
	case *types.Slice:
		os, ok := o.(*types.Slice)
		return ok && c.typ(u.Elem(), os.Elem()) == ""
	case *types.Array:
		oa, ok := o.(*types.Array)
		return ok && oa.Len() == u.Len() && c.typ(u.Elem(), oa.Elem()) == ""
	}
	return false
}

// sameKeyed compares maps and channels.
func (c *comparer) sameKeyed(u, o types.Type) bool {
	switch u := u.(type) {
	case *types.Map:
		om, ok := o.(*types.Map)
		return ok && c.typ(u.Key(), om.Key()) == "" && c.typ(u.Elem(), om.Elem()) == ""
	case *types.Chan:
		oc, ok := o.(*types.Chan)
		return ok && oc.Dir() == u.Dir() && c.typ(u.Elem(), oc.Elem()) == ""
	}
	return false
}

// sameComposite compares signatures, structs, interfaces and unions.
func (c *comparer) sameComposite(u, o types.Type) bool {
	switch u := u.(type) {
	case *types.Signature:
		os, ok := o.(*types.Signature)
		return ok && c.signature(u, os) == ""
	case *types.Struct:
		return c.sameStruct(u, o)
	case *types.Interface:
		return c.sameInterface(u, o)
	case *types.Union:
		return c.sameUnion(u, o)
	}
	return false
}

// sameStruct compares structs field by field, in order.
func (c *comparer) sameStruct(u *types.Struct, o types.Type) bool {
	os, ok := o.(*types.Struct)
	if !ok || os.NumFields() != u.NumFields() {
		return false
	}
	for i := 0; i < u.NumFields(); i++ {
		uf, of := u.Field(i), os.Field(i)
		if uf.Name() != of.Name() || uf.Embedded() != of.Embedded() || c.typ(uf.Type(), of.Type()) != "" {
			return false
		}
	}
	return true
}

// sameInterface compares interfaces: explicit methods by name, embedded
// types in order.
func (c *comparer) sameInterface(u *types.Interface, o types.Type) bool {
	oi, ok := o.(*types.Interface)
	if !ok || oi.NumExplicitMethods() != u.NumExplicitMethods() || oi.NumEmbeddeds() != u.NumEmbeddeds() {
		return false
	}
	for i := 0; i < u.NumExplicitMethods(); i++ {
		um := u.ExplicitMethod(i)
		om := lookupMethod(oi, um.Name())
		if om == nil || c.signature(um.Type().(*types.Signature), om.Type().(*types.Signature)) != "" {
			return false
		}
	}
	for i := 0; i < u.NumEmbeddeds(); i++ {
		if c.typ(u.EmbeddedType(i), oi.EmbeddedType(i)) != "" {
			return false
		}
	}
	return true
}

// sameUnion compares unions term by term, in order.
func (c *comparer) sameUnion(u *types.Union, o types.Type) bool {
	ou, ok := o.(*types.Union)
	if !ok || ou.Len() != u.Len() {
		return false
	}
	for i := 0; i < u.Len(); i++ {
		if u.Term(i).Tilde() != ou.Term(i).Tilde() || c.typ(u.Term(i).Type(), ou.Term(i).Type()) != "" {
			return false
		}
	}
	return true
}

// sameNamed reports whether our named type o stands for upstream's u.
func (c *comparer) sameNamed(u, o *types.TypeName) bool {
	if u.Pkg() == nil || o.Pkg() == nil { // error, comparable
		return u.Pkg() == nil && o.Pkg() == nil && u.Name() == o.Name()
	}
	path := u.Pkg().Path()
	if mapped, ok := c.m.Map(path); ok {
		for _, a := range c.reexported[o] {
			if a.path == mapped && a.name == u.Name() {
				return true
			}
		}
		if o.Pkg().Path() != mapped {
			return false
		}
		if !u.Exported() {
			// Code outside the package cannot name it; any unexported
			// type of ours takes its place.
			return !o.Exported()
		}
		return o.Name() == u.Name()
	}
	return o.Pkg().Path() == path && o.Name() == u.Name()
}

func qualifier(p *types.Package) string { return p.Name() }

func typeString(t types.Type) string { return types.TypeString(t, qualifier) }

func sigString(f *types.Func) string {
	return types.TypeString(f.Type(), qualifier)
}

func pkgPath(o types.Object) string {
	if o.Pkg() == nil {
		return ""
	}
	return o.Pkg().Path()
}
