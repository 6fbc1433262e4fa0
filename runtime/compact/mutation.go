package compact

import (
	"fmt"
	"reflect"
	"unsafe"
)

// Mutation is a canonical copy that the Guard found changed since it
// entered its Table: its storage no longer hashes to the hash it was
// shared under, so some code wrote into a cached object, and into every
// other object that shares the part.
type Mutation struct {
	// Type is the Go type the copy was shared as ([]v1.EnvVar,
	// map[string]string, *v1.Probe, or a JSON map of an unstructured
	// object).
	Type string
	// p is the copy's storage (a slice's first element, a pointed-to
	// value, a map's header, a JSON string's box), n its length for a
	// slice.
	p unsafe.Pointer
	n int
}

// maxPathDepth bounds PathsIn's descent: API objects are far shallower.
const maxPathDepth = 64

// PathsIn returns the field paths (".ObjectMeta.Labels",
// ".Spec.Containers[0].Env", "[metadata][labels]") at which obj holds
// the mutated copy, nil when it does not hold it. It walks obj with
// reflection: it is for the rare moment a mutation was found, never for
// a hot path.
func (m Mutation) PathsIn(obj any) []string {
	if obj == nil || m.p == nil {
		return nil
	}
	var paths []string
	m.find(reflect.ValueOf(obj), "", 0, &paths)
	return paths
}

// find appends to paths every path under v (at path) that holds m's copy.
func (m Mutation) find(v reflect.Value, path string, depth int, paths *[]string) {
	if !v.IsValid() || depth > maxPathDepth {
		return
	}
	switch v.Kind() {
	case reflect.Interface:
		m.findInInterface(v, path, depth, paths)
	case reflect.Pointer:
		if v.IsNil() {
			return
		}
		if v.UnsafePointer() == m.p {
			*paths = append(*paths, orRootPath(path))
		}
		m.find(v.Elem(), path, depth+1, paths)
	case reflect.Struct:
		for i := range v.NumField() {
			m.find(v.Field(i), path+"."+v.Type().Field(i).Name, depth+1, paths)
		}
	case reflect.Slice:
		if v.Len() > 0 && v.UnsafePointer() == m.p && v.Len() == m.n {
			*paths = append(*paths, orRootPath(path))
		}
		m.findInElements(v, path, depth, paths)
	case reflect.Array:
		m.findInElements(v, path, depth, paths)
	case reflect.Map:
		m.findInMap(v, path, depth, paths)
	}
}

// findInInterface looks at the value an interface holds, and at its box:
// an unstructured object's shared JSON strings are boxes.
func (m Mutation) findInInterface(v reflect.Value, path string, depth int, paths *[]string) {
	if v.IsNil() || !v.CanInterface() {
		return
	}
	x := v.Interface()
	if (*eface)(unsafe.Pointer(&x)).data == m.p && v.Elem().Kind() == reflect.String {
		*paths = append(*paths, orRootPath(path))
		return
	}
	m.find(v.Elem(), path, depth+1, paths)
}

func (m Mutation) findInElements(v reflect.Value, path string, depth int, paths *[]string) {
	if !mayHold(v.Type().Elem()) {
		return
	}
	for i := range v.Len() {
		m.find(v.Index(i), fmt.Sprintf("%s[%d]", path, i), depth+1, paths)
	}
}

func (m Mutation) findInMap(v reflect.Value, path string, depth int, paths *[]string) {
	if v.IsNil() {
		return
	}
	if v.UnsafePointer() == m.p {
		*paths = append(*paths, orRootPath(path))
	}
	if !mayHold(v.Type().Elem()) {
		return
	}
	for it := v.MapRange(); it.Next(); {
		m.find(it.Value(), fmt.Sprintf("%s[%v]", path, it.Key()), depth+1, paths)
	}
}

// mayHold reports whether a value of type t can hold a shared part: the
// elements of a string or number slice cannot, so they are not visited.
func mayHold(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.String:
		return false
	}
	return true
}

// orRootPath names the root "." when path is empty.
func orRootPath(path string) string {
	if path == "" {
		return "."
	}
	return path
}
