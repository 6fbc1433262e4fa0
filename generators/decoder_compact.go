package generators

import (
	"fmt"
	"go/ast"
	"strings"
)

// Decoding into the compact object: a field holding a slice, map or
// pointer whose walk the version's compaction walks have is decoded by
// jsondecode.Shared, which shares it as it is decoded; an informer kind
// whose every field outside such parts is one the decoder leaves as its
// walk would (strings, which it interns; numbers; times; TypeMeta and
// ObjectMeta, which runtime/jsondecode shares; structs of such fields) is
// registered with jsondecode.RegisterCompact: its decoder then builds the
// compact object, and no walk follows it.

// compactsAs is what a struct's decoder (JSON or protobuf) leaves as the
// walk would: all of its own fields (self), and the structs it holds by
// value (byValue), which must too.
type compactsAs struct {
	self    bool
	byValue []string
}

// leafDecoders are the decoders of package jsondecode that leave a
// by-value field as the walk leaves it.
var leafDecoders = []string{"jsondecode.String", "jsondecode.Own", "jsondecode.Int", "jsondecode.Uint",
	"jsondecode.Bool", "jsondecode.Float32", "jsondecode.Float64", "jsondecode.Time",
	"jsondecode.MicroTime", "jsondecode.TypeMeta", "jsondecode.ObjectMeta", "jsondecode.IntOrString"}

// fieldCall is the statement decoding field f of struct name with fn,
// through jsondecode.Shared when the walks share it; it records in
// w.compacts whether the decoder leaves the field as the walk would.
func (w *decoderWriter) fieldCall(name string, f jsonField, fn string) string {
	path := strings.Join(f.path, ".")
	if shape, ok := w.sharedShape(f, fn); ok {
		return fmt.Sprintf("\t\t\tjsondecode.Shared(d, &p.%s, %s, compact%s, equal%s)", path, fn, shape, shape)
	}
	c := w.compacts[name]
	switch {
	case len(f.allocs) > 0:
		c.self = false
	case isLeafDecoder(fn):
	case strings.HasPrefix(fn, "decode") && w.isStruct(strings.TrimPrefix(fn, "decode")):
		c.byValue = append(c.byValue, strings.TrimPrefix(fn, "decode"))
	default:
		c.self = false
	}
	w.compacts[name] = c
	return fmt.Sprintf("\t\t\t%s(d, &p.%s)", callable(fn), path)
}

// sharedShape returns the name of the walk (compactSHAPE) of field f,
// decoded by fn, when it is a slice, map or pointer the walks share.
func (w *decoderWriter) sharedShape(f jsonField, fn string) (string, bool) {
	if len(f.allocs) > 0 || !strings.HasPrefix(fn, "decode") {
		return "", false
	}
	shape := strings.TrimPrefix(fn, "decode")
	_, walked := w.walks["compact"+shape]
	if _, compared := w.walks["equal"+shape]; !walked || !compared {
		return "", false
	}
	expr := f.expr
	for {
		p, ok := expr.(*ast.ParenExpr)
		if !ok {
			break
		}
		expr = p.X
	}
	switch e := expr.(type) {
	case *ast.StarExpr, *ast.MapType:
		return shape, true
	case *ast.ArrayType:
		return shape, e.Len == nil
	case *ast.Ident:
		d, ok := w.decls[e.Name]
		if !ok || d.spec.Assign.IsValid() {
			return "", false
		}
		switch t := d.spec.Type.(type) {
		case *ast.StarExpr, *ast.MapType:
			return shape, true
		case *ast.ArrayType:
			return shape, t.Len == nil
		}
	}
	return "", false
}

// isLeafDecoder reports whether fn is one of leafDecoders (with or
// without type arguments).
func isLeafDecoder(fn string) bool {
	if i := strings.IndexByte(fn, '['); i > 0 {
		fn = fn[:i]
	}
	for _, l := range leafDecoders {
		if fn == l {
			return true
		}
	}
	return false
}

// compactsFully reports whether the decoder of the informer kind (or
// by-value struct) name builds what its walk would: its fields and its
// by-value structs' (compacts, of the JSON or the protobuf decoders), and
// the walk is the generated one (one of walks).
func compactsFully(compacts map[string]compactsAs, walks map[string]string, name string, seen map[string]bool) bool {
	if seen[name] {
		return true
	}
	seen[name] = true
	c, ok := compacts[name]
	if _, walked := walks["compact"+name]; !ok || !walked || !c.self {
		return false
	}
	for _, s := range c.byValue {
		if !compactsFully(compacts, walks, s, seen) {
			return false
		}
	}
	return true
}
