package compact

import (
	"reflect"
	"sync"
)

// Compacter is implemented by objects that compact themselves; generated
// code registers functions instead (Register), since it cannot add methods
// to types of other packages.
type Compacter interface {
	Compact(t *Table)
}

// registry maps an object's Go type (a pointer type) to its compaction,
// func(*Table, any).
var registry sync.Map

// Register makes walk the compaction of objects of type *T (walk of
// corev1.Pod compacts *corev1.Pod objects). informer-gen's generated code
// calls it from init for every type it makes informers for; a later call
// for the same type replaces the earlier one (several generated packages
// may register the same type; their walks are equivalent).
func Register[T any](walk Walk[T]) {
	registry.Store(reflect.TypeFor[*T](), func(t *Table, obj any) {
		h := rootHash()
		walk(t, obj.(*T), h)
		releaseHash(h)
	})
}

// Func compacts one object in place.
type Func func(t *Table, obj any)

// For returns the compaction of objects of example's Go type: the
// Compacter method, the registered function, or the reflective walk
// (built once per type), in that order.
func For(example any) Func {
	if _, ok := example.(Compacter); ok {
		return func(t *Table, obj any) { obj.(Compacter).Compact(t) }
	}
	typ := reflect.TypeOf(example)
	if fn, ok := registry.Load(typ); ok {
		return fn.(func(*Table, any))
	}
	return reflectiveFor(typ)
}

// Object compacts obj in place with the compaction of its type (For).
func (t *Table) Object(obj any) {
	if obj == nil {
		return
	}
	For(obj)(t, obj)
}
