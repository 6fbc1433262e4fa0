package compact

import (
	"reflect"
	"sync"
)

// An update is the compaction of an object that replaces an older,
// already compact version of itself (a watch event's object, a relisted
// object that changed): most of its parts are equal to the old version's,
// whose values are canonical copies already. An update walk compares the
// new object with the old one field by field and takes every equal part
// from the old version as it is, without hashing it or looking it up;
// only the parts that changed are walked (Walk) and shared through the
// Table. informer-gen generates one per informer kind, for the fields the
// object holds by value (ObjectMeta, Spec, Status); every slice, map and
// pointer is compared whole.

// updates maps an object's Go type (a pointer type) to its update walk,
// func(*Table, any, any).
var updates sync.Map

// RegisterUpdate makes fn the update walk of objects of type *T: fn
// compacts p, taking from old every part equal to old's (From).
// informer-gen's generated code calls it from init next to Register.
func RegisterUpdate[T any](fn func(t *Table, p, old *T)) {
	updates.Store(reflect.TypeFor[*T](), func(t *Table, obj, old any) { fn(t, obj.(*T), old.(*T)) })
}

// updateFunc compacts obj, taking from old, a compact object of the same
// type, every part equal to old's.
type updateFunc func(t *Table, obj, old any)

// updateFor returns the update walk registered for example's Go type, or
// nil when there is none.
func updateFor(example any) updateFunc {
	if fn, ok := updates.Load(reflect.TypeOf(example)); ok {
		return fn.(func(*Table, any, any))
	}
	return nil
}

// TransformUpdate returns the compaction of objects of example's type
// that may replace an older version: the returned function compacts obj in place; when old is an
// object of the same type (the version obj replaces, as the cache holds
// it), it does so with the update walk of obj's type, if one is
// registered, and with obj's compaction otherwise. old must be compact and
// must not be changed by anyone (a cached object): obj may share its
// parts from now on.
func (t *Table) TransformUpdate(example any) func(obj, old any) {
	typ := reflect.TypeOf(example)
	full := For(example)
	update := updateFor(example)
	return func(obj, old any) {
		switch {
		case obj == nil:
		case reflect.TypeOf(obj) != typ:
			t.Object(obj)
		case update != nil && old != nil && reflect.TypeOf(old) == typ:
			update(t, obj, old)
		default:
			full(t, obj)
		}
	}
}

// From compacts the value at p, the new version of the value at old:
// equal to old's, it becomes old's value (its canonical parts); otherwise
// it is walked.
func From[T any](t *Table, p, old *T, walk Walk[T], eq Equal[T]) {
	if eq(p, old) {
		*p = *old
		return
	}
	h := rootHash()
	walk(t, p, h)
	releaseHash(h)
}

// StringFrom is From of a string.
func StringFrom(t *Table, p, old *string) {
	if *p == *old {
		*p = *old
		return
	}
	var h Hash // String hands it to no other walk: it stays on the stack
	String(t, p, &h)
}

// OwnFrom is From of a string the object keeps as its own (Own): old's
// when equal, else the object's.
func OwnFrom[S ~string](p, old *S) {
	if *p == *old {
		*p = *old
	}
}

// StringOfFrom is From of a named string type.
func StringOfFrom[S ~string](t *Table, p, old *S) {
	if *p == *old {
		*p = *old
		return
	}
	var h Hash
	StringOf(t, p, &h)
}
