package compact

import (
	"bytes"
	"reflect"
	"sync"

	"k8s.io/apimachinery/pkg/util/intstr"
)

// walks maps a Go type T to its registered walkPair[T] (RegisterWalk).
var walks sync.Map

// walkPair is the walk and equality of one type.
type walkPair[T any] struct {
	walk Walk[T]
	eq   Equal[T]
}

// anyWalks maps a Go type T to its registered walk of a *T held in an
// any, for the reflective walks (func(*Table, any, *Hash)).
var anyWalks sync.Map

// RegisterWalk makes walk and eq the walk and equality of type T for
// Value and EqualValue: generated code registers those of every type it
// generates walks for, so that the walks generated for another package
// (an apps/v1 type holding a core/v1 PodTemplateSpec) use them.
func RegisterWalk[T any](walk Walk[T], eq Equal[T]) {
	walks.Store(reflect.TypeFor[T](), walkPair[T]{walk, eq})
	anyWalks.Store(reflect.TypeFor[T](), func(t *Table, p any, h *Hash) { walk(t, p.(*T), h) })
}

// Value walks a value of a type the generated code of its package did not
// generate a walk for (it is declared elsewhere): the registered walk of T
// when there is one, the reflective walk otherwise.
func Value[T any](t *Table, p *T, h *Hash) {
	if w, ok := walks.Load(reflect.TypeFor[T]()); ok {
		w.(walkPair[T]).walk(t, p, h)
		return
	}
	reflectiveValueWalk(reflect.TypeFor[T]())(t, reflect.ValueOf(p).Elem(), h)
}

// EqualValue is the equality of Value's types: the registered one, or
// reflect.DeepEqual.
func EqualValue[T any](a, b *T) bool {
	if w, ok := walks.Load(reflect.TypeFor[T]()); ok {
		return w.(walkPair[T]).eq(a, b)
	}
	return reflect.DeepEqual(a, b)
}

// valueWalks caches the reflective walks of Value, by type.
var valueWalks sync.Map

func reflectiveValueWalk(typ reflect.Type) reflectiveWalk {
	if w, ok := valueWalks.Load(typ); ok {
		return w.(reflectiveWalk)
	}
	w := (&reflectiveCompiler{done: map[reflect.Type]*reflectiveWalk{}}).compile(typ)
	actual, _ := valueWalks.LoadOrStore(typ, w)
	return actual.(reflectiveWalk)
}

// IntOrString interns the string of an intstr.IntOrString.
func IntOrString(t *Table, p *intstr.IntOrString, h *Hash) {
	h.Uint64(uint64(p.Type))
	h.Uint64(uint64(p.IntVal))
	String(t, &p.StrVal, h)
}

// EqualBytes reports whether two byte slices are equal, nil and empty
// apart.
func EqualBytes(a, b *[]byte) bool {
	return (*a == nil) == (*b == nil) && bytes.Equal(*a, *b)
}

// Never is the equality of values a walk marks opaque: they are never
// shared, so never compared; if they were, they would never be equal.
func Never[T any](_, _ *T) bool { return false }
