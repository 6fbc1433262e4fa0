package generators

import (
	"go/ast"
	"strings"
)

// protoKind is what a Go type is to go-to-protobuf: the functions of
// package runtime/protodecode that decode it depend on it.
type protoKind int

const (
	protoOther   protoKind = iota // not decoded field by field
	protoString                   // a string type: wire type bytes
	protoInt                      // an integer type: varint
	protoBool                     // a bool type: varint
	protoFloat                    // float64: fixed64
	protoMessage                  // a message: wire type bytes, decoded by a Func
)

// protoMetaDecoders are the decoders of meta/v1 types written in
// runtime/protodecode.
var protoMetaDecoders = map[string]string{
	metav1Path + ".ObjectMeta":               "protodecode.ObjectMeta",
	metav1Path + ".OwnerReference":           "protodecode.OwnerReference",
	metav1Path + ".ManagedFieldsEntry":       "protodecode.ManagedFieldsEntry",
	metav1Path + ".LabelSelector":            "protodecode.LabelSelector",
	metav1Path + ".LabelSelectorRequirement": "protodecode.LabelSelectorRequirement",
	metav1Path + ".Condition":                "protodecode.Condition",
}

// protoUnmarshaled are the apimachinery messages decoded by their own
// go-to-protobuf Unmarshal (protodecode.Unmarshaled).
var protoUnmarshaled = map[string]bool{
	metav1Path + ".Time":                              true,
	metav1Path + ".MicroTime":                         true,
	metav1Path + ".Duration":                          true,
	metav1Path + ".FieldsV1":                          true,
	metav1Path + ".ListMeta":                          true,
	metav1Path + ".TypeMeta":                          true,
	metav1Path + ".Status":                            true,
	"k8s.io/apimachinery/pkg/api/resource.Quantity":   true,
	"k8s.io/apimachinery/pkg/util/intstr.IntOrString": true,
	"k8s.io/apimachinery/pkg/runtime.RawExtension":    true,
	"k8s.io/apimachinery/pkg/runtime.Unknown":         true,
}

// protoForeignStrings are the string types of other packages that API
// types' fields have.
var protoForeignStrings = map[string]bool{
	"k8s.io/apimachinery/pkg/types.UID":      true,
	"k8s.io/apimachinery/pkg/types.NodeName": true,
}

// protoPredeclared are the kinds of Go's predeclared types that
// go-to-protobuf decodes.
var protoPredeclared = map[string]protoKind{
	"string": protoString, "bool": protoBool, "float64": protoFloat,
	"int": protoInt, "int32": protoInt, "int64": protoInt, "uint": protoInt, "uint32": protoInt, "uint64": protoInt,
}

// protoTag is a field's protobuf struct tag: its wire type name, its
// number, and whether a casttype or castkey is given (a type of another
// package that is no message). The wire type name decides only what a
// casttype of another package is (a string for "bytes", an integer for
// "varint"): otherwise the Go type decides, the tags' names being
// sometimes wrong.
type protoTag struct {
	wire     string
	num      string
	casttype bool
	castkey  bool
}

// parseProtoTag parses the protobuf key of a field's tag; ok is false
// when there is none.
func parseProtoTag(f *ast.Field) (protoTag, bool) {
	raw := rawStructTag(f, "protobuf")
	parts := strings.Split(raw, ",")
	if len(parts) < 2 {
		return protoTag{}, false
	}
	t := protoTag{wire: parts[0], num: parts[1]}
	for _, p := range parts[2:] {
		t.casttype = t.casttype || strings.HasPrefix(p, "casttype=")
		t.castkey = t.castkey || strings.HasPrefix(p, "castkey=")
	}
	return t, true
}

// kindOf classifies expr (a non-composite type: an identifier or a
// qualified name) and, for a message, returns its Func.
func (w *protoWriter) kindOf(expr ast.Expr, imports *fileImports, tag protoTag) (protoKind, string) {
	switch e := expr.(type) {
	case *ast.ParenExpr:
		return w.kindOf(e.X, imports, tag)
	case *ast.Ident:
		if k, ok := protoPredeclared[e.Name]; ok {
			return k, ""
		}
		return w.localKind(e.Name)
	case *ast.SelectorExpr:
		return w.foreignKind(e, imports, tag)
	}
	return protoOther, ""
}

// localKind classifies a named type of the API package.
func (w *protoWriter) localKind(name string) (protoKind, string) {
	d, ok := w.decls[name]
	if !ok || d.spec.Assign.IsValid() {
		return protoOther, ""
	}
	switch t := d.spec.Type.(type) {
	case *ast.StructType:
		return protoMessage, w.named(name)
	case *ast.Ident:
		if k, ok := protoPredeclared[t.Name]; ok && k != protoMessage {
			return k, ""
		}
	}
	return protoOther, ""
}

// foreignKind classifies a type of another package.
func (w *protoWriter) foreignKind(e *ast.SelectorExpr, imports *fileImports, tag protoTag) (protoKind, string) {
	p, ok := w.qualifierPath(e, imports)
	if !ok {
		return protoOther, ""
	}
	if p == w.apiPath {
		return w.localKind(e.Sel.Name)
	}
	full := p + "." + e.Sel.Name
	ts := w.importName(p) + "." + e.Sel.Name
	switch {
	case protoMetaDecoders[full] != "":
		return protoMessage, protoMetaDecoders[full]
	case protoUnmarshaled[full]:
		return protoMessage, "protodecode.Unmarshaled[" + ts + "]"
	case protoForeignStrings[full]:
		return protoString, ""
	case strings.HasPrefix(p, "k8s.io/api/") && !(tag.casttype && !tag.castkey):
		// A type of another k8s.io/api package that its tag does not
		// name a scalar: a message, a named string (core/v1's
		// ResourceName, untagged in autoscaling/v2) or a map
		// (ResourceList, cast with a key), which this package's syntax
		// does not tell apart. The struct holding it decodes with its
		// own Unmarshal.
		return protoOther, ""
	case tag.casttype && tag.wire == "bytes":
		return protoString, ""
	case tag.casttype && tag.wire == "varint":
		return protoInt, ""
	}
	return protoOther, ""
}
