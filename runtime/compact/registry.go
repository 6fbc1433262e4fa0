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

// Register makes fn the compaction of objects of type T (a pointer to a
// struct, *corev1.Pod). informer-gen's generated code calls it from init
// for every type it makes informers for; a later call for the same type
// replaces the earlier one (several generated packages may register the
// same type; their functions are equivalent).
func Register[T any](fn func(t *Table, obj T)) {
	registry.Store(reflect.TypeFor[T](), func(t *Table, obj any) { fn(t, obj.(T)) })
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

// Transform returns a function compacting objects of example's type in
// place and returning them; objects of another type are compacted with
// their own type's compaction. It has the shape of cache.TransformFunc.
func (t *Table) Transform(example any) func(obj any) (any, error) {
	typ := reflect.TypeOf(example)
	fn := For(example)
	return func(obj any) (any, error) {
		if obj == nil {
			return obj, nil
		}
		if reflect.TypeOf(obj) == typ {
			fn(t, obj)
		} else {
			t.Object(obj)
		}
		return obj, nil
	}
}
