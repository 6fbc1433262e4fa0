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
	bad := func(member, format string, args ...any) {
		n := name
		if member != "" {
			n += "." + member
		}
		inc = append(inc, Finding{Name: n, Reason: fmt.Sprintf(format, args...)})
	}
	ut, ot := types.Unalias(u.Type()), types.Unalias(o.Type())
	un, uNamed := ut.(*types.Named)
	on, oNamed := ot.(*types.Named)
	if !uNamed {
		// An alias of an unnamed type: ours must have the same structure,
		// directly or as the underlying type of a defined type.
		if why := c.typ(ut, ot.Underlying()); why != "" {
			bad("", "%s", why)
		}
		return
	}
	if !oNamed {
		bad("", "upstream is a defined type, ours is %s", typeString(ot))
		return
	}
	if un.Obj().Pkg() != u.Pkg() {
		// An upstream alias of a type declared elsewhere: the same type
		// (modulo mapping) is required.
		if why := c.typ(un, on); why != "" {
			bad("", "%s", why)
		}
		return
	}
	if why := c.typeParams(un.TypeParams(), on.TypeParams()); why != "" {
		bad("", "%s", why)
		return
	}
	uu, ou := un.Underlying(), on.Underlying()
	switch uu := uu.(type) {
	case *types.Struct:
		os, ok := ou.(*types.Struct)
		if !ok {
			bad("", "upstream is a struct, ours is %s", typeString(ou))
			return
		}
		ofields := map[string]*types.Var{}
		for i := 0; i < os.NumFields(); i++ {
			ofields[os.Field(i).Name()] = os.Field(i)
		}
		for i := 0; i < uu.NumFields(); i++ {
			f := uu.Field(i)
			if !f.Exported() {
				continue
			}
			of, ok := ofields[f.Name()]
			if !ok {
				bad(f.Name(), "field missing (upstream %s)", typeString(f.Type()))
				continue
			}
			if of.Embedded() != f.Embedded() {
				bad(f.Name(), "upstream embedded=%v, ours embedded=%v", f.Embedded(), of.Embedded())
			}
			if why := c.typ(f.Type(), of.Type()); why != "" {
				bad(f.Name(), "field type: %s", why)
			}
		}
	case *types.Interface:
		oi, ok := ou.(*types.Interface)
		if !ok {
			bad("", "upstream is an interface, ours is %s", typeString(ou))
			return
		}
		upMethods := map[string]bool{}
		for i := 0; i < uu.NumMethods(); i++ {
			m := uu.Method(i)
			upMethods[m.Name()] = true
			if !m.Exported() {
				continue
			}
			om := lookupMethod(oi, m.Name())
			if om == nil {
				bad(m.Name(), "method missing (upstream %s)", sigString(m))
				continue
			}
			if why := c.signature(m.Type().(*types.Signature), om.Type().(*types.Signature)); why != "" {
				bad(m.Name(), "%s; upstream %s, ours %s", why, sigString(m), sigString(om))
			}
		}
		for i := 0; i < oi.NumMethods(); i++ {
			if m := oi.Method(i); !upMethods[m.Name()] {
				extra = append(extra, Finding{Name: name + "." + m.Name(), Reason: "ours requires a method upstream does not; implementations written for upstream do not satisfy ours"})
			}
		}
		if uu.IsComparable() != oi.IsComparable() || uu.IsMethodSet() != oi.IsMethodSet() {
			if why := c.typ(uu, oi); why != "" {
				bad("", "constraint: %s", why)
			}
		}
		return
	default:
		if why := c.typ(uu, ou); why != "" {
			bad("", "underlying type: %s", why)
		}
	}
	// Methods declared on T and *T.
	for _, ptr := range []bool{false, true} {
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
				recv := ""
				if ptr {
					recv = "*"
				}
				if !ptr && types.NewMethodSet(types.NewPointer(on)).Lookup(on.Obj().Pkg(), m.Name()) != nil {
					bad(m.Name(), "upstream declares it on %s, ours only on *%s", name, name)
				} else {
					bad(m.Name(), "method missing on %s%s (upstream %s)", recv, name, sigString(m))
				}
				continue
			}
			om := osel.Obj().(*types.Func)
			if why := c.signature(m.Type().(*types.Signature), om.Type().(*types.Signature)); why != "" {
				bad(m.Name(), "%s; upstream %s, ours %s", why, sigString(m), sigString(om))
			}
		}
	}
	return
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
	if ua, ok := u.(*types.Alias); ok && ua.TypeArgs().Len() == 0 {
		// An upstream alias named in a mapped package stands for our
		// declaration of that name (checked on its own), alias or not.
		if _, mapped := c.m.Map(pkgPath(ua.Obj())); mapped {
			var oObj *types.TypeName
			switch o := o.(type) {
			case *types.Alias:
				oObj = o.Obj()
			case *types.Named:
				oObj = o.Obj()
			}
			if oObj != nil && c.sameNamed(ua.Obj(), oObj) {
				return ""
			}
		}
	}
	u, o = types.Unalias(u), types.Unalias(o)
	mismatch := func() string {
		return fmt.Sprintf("upstream %s, ours %s", typeString(u), typeString(o))
	}
	switch u := u.(type) {
	case *types.Basic:
		ob, ok := o.(*types.Basic)
		if !ok || ob.Kind() != u.Kind() {
			return mismatch()
		}
	case *types.Named:
		on, ok := o.(*types.Named)
		if !ok {
			return mismatch()
		}
		if !c.sameNamed(u.Obj(), on.Obj()) {
			return mismatch()
		}
		ua, oa := u.TypeArgs(), on.TypeArgs()
		if ua.Len() != oa.Len() {
			return mismatch()
		}
		for i := 0; i < ua.Len(); i++ {
			if why := c.typ(ua.At(i), oa.At(i)); why != "" {
				return mismatch()
			}
		}
	case *types.TypeParam:
		ot, ok := o.(*types.TypeParam)
		if !ok || ot.Index() != u.Index() {
			return mismatch()
		}
	case *types.Pointer:
		op, ok := o.(*types.Pointer)
		if !ok || c.typ(u.Elem(), op.Elem()) != "" {
			return mismatch()
		}
	case *types.Slice:
		os, ok := o.(*types.Slice)
		if !ok || c.typ(u.Elem(), os.Elem()) != "" {
			return mismatch()
		}
	case *types.Array:
		oa, ok := o.(*types.Array)
		if !ok || oa.Len() != u.Len() || c.typ(u.Elem(), oa.Elem()) != "" {
			return mismatch()
		}
	case *types.Map:
		om, ok := o.(*types.Map)
		if !ok || c.typ(u.Key(), om.Key()) != "" || c.typ(u.Elem(), om.Elem()) != "" {
			return mismatch()
		}
	case *types.Chan:
		oc, ok := o.(*types.Chan)
		if !ok || oc.Dir() != u.Dir() || c.typ(u.Elem(), oc.Elem()) != "" {
			return mismatch()
		}
	case *types.Signature:
		os, ok := o.(*types.Signature)
		if !ok || c.signature(u, os) != "" {
			return mismatch()
		}
	case *types.Struct:
		os, ok := o.(*types.Struct)
		if !ok || os.NumFields() != u.NumFields() {
			return mismatch()
		}
		for i := 0; i < u.NumFields(); i++ {
			uf, of := u.Field(i), os.Field(i)
			if uf.Name() != of.Name() || uf.Embedded() != of.Embedded() || c.typ(uf.Type(), of.Type()) != "" {
				return mismatch()
			}
		}
	case *types.Interface:
		oi, ok := o.(*types.Interface)
		if !ok || oi.NumExplicitMethods() != u.NumExplicitMethods() || oi.NumEmbeddeds() != u.NumEmbeddeds() {
			return mismatch()
		}
		for i := 0; i < u.NumExplicitMethods(); i++ {
			um := u.ExplicitMethod(i)
			om := lookupMethod(oi, um.Name())
			if om == nil || c.signature(um.Type().(*types.Signature), om.Type().(*types.Signature)) != "" {
				return mismatch()
			}
		}
		for i := 0; i < u.NumEmbeddeds(); i++ {
			if c.typ(u.EmbeddedType(i), oi.EmbeddedType(i)) != "" {
				return mismatch()
			}
		}
	case *types.Union:
		ou, ok := o.(*types.Union)
		if !ok || ou.Len() != u.Len() {
			return mismatch()
		}
		for i := 0; i < u.Len(); i++ {
			if u.Term(i).Tilde() != ou.Term(i).Tilde() || c.typ(u.Term(i).Type(), ou.Term(i).Type()) != "" {
				return mismatch()
			}
		}
	default:
		return fmt.Sprintf("unsupported upstream type %s (%T)", typeString(u), u)
	}
	return ""
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
