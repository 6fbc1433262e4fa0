package generators

import (
	"fmt"
	"go/ast"
	"strings"
)

// Decoding protobuf into the compact object: a repeated, map or optional
// field whose walk the version's compaction walks have is decoded by the
// shared form of its decoder (protodecode.SharedX, with compactSHAPE and
// equalSHAPE), which shares it as it is decoded; an informer kind whose
// every field outside such parts is one the decoder leaves as its walk
// would (strings, which it interns; numbers; times; ObjectMeta, which
// runtime/protodecode shares; structs of such fields) is registered with
// protodecode.RegisterCompact: its decoder then builds the compact
// object, and no walk follows it.

// protoSharedForms are the decoders of package protodecode that have a
// shared form (SharedX).
var protoSharedForms = map[string]bool{
	"Messages": true, "OptMessage": true, "Strings": true, "Ints": true,
	"OptString": true, "OptInt": true, "OptBool": true, "OptFloat64": true,
	"StringMap": true, "BytesMap": true, "MessageMap": true,
}

// protoLeaves are the statements' decoders (and, for Message, their
// Funcs) that leave a by-value field as the walk leaves it.
var protoLeaves = []string{"protodecode.String(", "protodecode.Int(", "protodecode.Bool(", "protodecode.Float64(",
	"protodecode.Message(d, %s, protodecode.ObjectMeta)",
	"protodecode.Message(d, %s, protodecode.Unmarshaled[metav1.Time])",
	"protodecode.Message(d, %s, protodecode.Unmarshaled[metav1.MicroTime])",
	"protodecode.Message(d, %s, protodecode.Unmarshaled[metav1.Duration])"}

// sharedStmt returns stmt, the statement decoding field addr (&p.Name)
// of struct name, of type expr, in its shared form when the walks share
// the field; it records in w.compacts whether the decoder leaves the
// field as the walk would.
func (w *protoWriter) sharedStmt(name, addr string, expr ast.Expr, stmt string) string {
	c := w.compacts[name]
	defer func() { w.compacts[name] = c }()
	fn, args, _ := strings.Cut(strings.TrimPrefix(stmt, "protodecode."), "(")
	if protoSharedForms[fn] {
		shape := shapeName(expr)
		_, walked := w.walks["compact"+shape]
		if _, compared := w.walks["equal"+shape]; walked && compared {
			return fmt.Sprintf("protodecode.Shared%s(%s, compact%s, equal%s)", fn, strings.TrimSuffix(args, ")"), shape, shape)
		}
		c.self = false
		return stmt
	}
	for _, l := range protoLeaves {
		if l = strings.ReplaceAll(l, "%s", addr); strings.HasPrefix(stmt, l) {
			return stmt
		}
	}
	msg := fmt.Sprintf("protodecode.Message(d, %s, unmarshal", addr)
	if s, ok := strings.CutPrefix(stmt, msg); ok && w.isStruct(strings.TrimSuffix(s, ")")) {
		c.byValue = append(c.byValue, strings.TrimSuffix(s, ")"))
		return stmt
	}
	c.self = false
	return stmt
}

// compactRegistrations returns the RegisterCompact calls of the roots
// whose decoders build the compact object.
func (w *protoWriter) compactRegistrations() []string {
	var out []string
	for _, name := range w.roots {
		if compactsFully(w.compacts, w.walks, name, map[string]bool{}) {
			out = append(out, fmt.Sprintf("protodecode.RegisterCompact(unmarshal%s)", name))
		}
	}
	return out
}
