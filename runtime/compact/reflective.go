package compact

import (
	"reflect"
	"sync"
	"time"

	"k8s.io/apimachinery/pkg/api/resource"
)

// reflectiveWalk walks an addressable value of one type.
type reflectiveWalk func(t *Table, v reflect.Value, h *Hash)

// reflectiveWalks caches the reflective compaction of each type (Func).
var reflectiveWalks sync.Map

// reflectiveFor returns the reflective compaction of objects of type typ,
// built once per type: for types without generated code (metadata-only
// PartialObjectMetadata, types of other packages). It interns every
// exported string and shares map[string]string and []string values
// (labels, annotations, finalizers), and walks JSON held in
// map[string]any, []any and any fields as Unstructured's content; other
// parts are walked in place but not shared.
func reflectiveFor(typ reflect.Type) Func {
	if fn, ok := reflectiveWalks.Load(typ); ok {
		return fn.(Func)
	}
	var fn Func = func(*Table, any) {}
	if typ != nil && typ.Kind() == reflect.Pointer {
		walk := (&reflectiveCompiler{done: map[reflect.Type]*reflectiveWalk{}}).compile(typ.Elem())
		fn = func(t *Table, obj any) {
			v := reflect.ValueOf(obj)
			if v.IsNil() {
				return
			}
			h := rootHash()
			walk(t, v.Elem(), h)
			releaseHash(h)
		}
	}
	actual, _ := reflectiveWalks.LoadOrStore(typ, fn)
	return actual.(Func)
}

// reflectiveCompiler builds the walks of one type and the types it
// contains; done breaks cycles.
type reflectiveCompiler struct {
	done map[reflect.Type]*reflectiveWalk
}

var (
	timeType     = reflect.TypeFor[time.Time]()
	quantityType = reflect.TypeFor[resource.Quantity]()
)

func (c *reflectiveCompiler) compile(typ reflect.Type) reflectiveWalk {
	if w, ok := c.done[typ]; ok {
		return func(t *Table, v reflect.Value, h *Hash) { (*w)(t, v, h) }
	}
	w := new(reflectiveWalk)
	c.done[typ] = w
	*w = c.build(typ)
	return *w
}

func (c *reflectiveCompiler) build(typ reflect.Type) reflectiveWalk {
	if w, ok := anyWalks.Load(typ); ok {
		// A registered walk (ObjectMeta, generated types): no reflection
		// below this value.
		walk := w.(func(*Table, any, *Hash))
		return func(t *Table, v reflect.Value, h *Hash) { walk(t, v.Addr().Interface(), h) }
	}
	switch typ {
	case timeType:
		return func(t *Table, v reflect.Value, h *Hash) { Time(t, v.Addr().Interface().(*time.Time), h) }
	case quantityType:
		return func(t *Table, v reflect.Value, h *Hash) { Quantity(t, v.Addr().Interface().(*resource.Quantity), h) }
	case jsonMapType, jsonSliceType, jsonValueType:
		return jsonReflective(typ)
	}
	switch typ.Kind() {
	case reflect.String:
		return reflectiveString
	case reflect.Bool:
		return func(_ *Table, v reflect.Value, h *Hash) { h.Bool(v.Bool()) }
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return func(_ *Table, v reflect.Value, h *Hash) { h.Uint64(uint64(v.Int())) }
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return func(_ *Table, v reflect.Value, h *Hash) { h.Uint64(v.Uint()) }
	case reflect.Float32, reflect.Float64:
		return func(_ *Table, v reflect.Value, h *Hash) { h.Float(v.Float()) }
	case reflect.Struct:
		return c.structWalk(typ)
	case reflect.Pointer:
		return c.pointerWalk(typ)
	case reflect.Slice:
		return c.sliceWalk(typ)
	case reflect.Map:
		return mapWalk(typ)
	}
	return func(_ *Table, _ reflect.Value, h *Hash) { h.Opaque() }
}

func reflectiveString(t *Table, v reflect.Value, h *Hash) {
	if c, ok := t.intern(v.String(), h); ok {
		v.SetString(c)
	}
}

func (c *reflectiveCompiler) structWalk(typ reflect.Type) reflectiveWalk {
	type field struct {
		index int
		walk  reflectiveWalk
	}
	var fields []field
	opaque := false
	for i := range typ.NumField() {
		f := typ.Field(i)
		if !f.IsExported() {
			opaque = true
			continue
		}
		fields = append(fields, field{i, c.compile(f.Type)})
	}
	return func(t *Table, v reflect.Value, h *Hash) {
		if opaque {
			h.Opaque()
		}
		for _, f := range fields {
			f.walk(t, v.Field(f.index), h)
		}
	}
}

func (c *reflectiveCompiler) pointerWalk(typ reflect.Type) reflectiveWalk {
	elem := c.compile(typ.Elem())
	return func(t *Table, v reflect.Value, h *Hash) {
		if v.IsNil() {
			h.Uint64(0)
			return
		}
		var eh Hash
		elem(t, v.Elem(), &eh)
		h.Mix(eh)
	}
}

func (c *reflectiveCompiler) sliceWalk(typ reflect.Type) reflectiveWalk {
	if typ == reflect.TypeFor[[]string]() {
		return func(t *Table, v reflect.Value, h *Hash) {
			Slice(t, v.Addr().Interface().(*[]string), String, Eq[string], h)
		}
	}
	elem := c.compile(typ.Elem())
	return func(t *Table, v reflect.Value, h *Hash) {
		if v.IsNil() {
			h.Uint64(0)
			return
		}
		var sh Hash
		sh.Uint64(uint64(v.Len()) + 1)
		for i := range v.Len() {
			elem(t, v.Index(i), &sh)
		}
		h.Mix(sh)
	}
}

// mapWalk shares map[string]string values; other maps cannot have their
// keys interned in place and are opaque.
func mapWalk(typ reflect.Type) reflectiveWalk {
	if typ == reflect.TypeFor[map[string]string]() {
		return func(t *Table, v reflect.Value, h *Hash) {
			Map(t, v.Addr().Interface().(*map[string]string), String, String, Eq[string], h)
		}
	}
	return func(_ *Table, v reflect.Value, h *Hash) {
		if v.IsNil() {
			h.Uint64(0)
			return
		}
		h.Opaque()
	}
}

// jsonReflective walks a field holding JSON (map[string]any, []any, any)
// as Unstructured's content is walked: a value that is not JSON is opaque.
func jsonReflective(typ reflect.Type) reflectiveWalk {
	switch typ {
	case jsonMapType:
		return func(t *Table, v reflect.Value, h *Hash) { jsonMap(t, v.Addr().Interface().(*map[string]any), h) }
	case jsonSliceType:
		return func(t *Table, v reflect.Value, h *Hash) { jsonSlice(t, v.Addr().Interface().(*[]any), h) }
	}
	return func(t *Table, v reflect.Value, h *Hash) { jsonValue(t, v.Addr().Interface().(*any), h) }
}
