package compact

import (
	"reflect"
	"unsafe"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// The walk of *unstructured.Unstructured, the object of dynamic informers
// and of controller-runtime's caches of kinds without Go types: a tree of
// map[string]any, []any and JSON scalars (string, int64, float64, bool,
// nil). It interns every map key, shares strings by their interface boxes
// and shares every map and slice that repeats (labels, a container's env
// and resources, owner references), like a generated walk.
//
// A map or slice it walks is never written: one whose entries changed
// (interned keys, shared values) is replaced by a new one, so that a
// canonical copy walked again, which other goroutines may be reading, is
// left alone.

func init() {
	Register(Unstructured)
	RegisterWalk(Unstructured, EqualUnstructured)
	RegisterUpdate(updateUnstructured)
	Register(UnstructuredList)
}

// Unstructured compacts an unstructured object's content.
func Unstructured(t *Table, p *unstructured.Unstructured, h *Hash) {
	jsonMap(t, &p.Object, h)
}

// EqualUnstructured reports whether two unstructured objects have equal
// content (as reflect.DeepEqual would say).
func EqualUnstructured(a, b *unstructured.Unstructured) bool {
	return equalJSONMaps(a.Object, b.Object)
}

// UnstructuredList compacts a list's content and its items (for callers
// of Table.Object; informers cache the items, not the list).
func UnstructuredList(t *Table, p *unstructured.UnstructuredList, h *Hash) {
	jsonMap(t, &p.Object, h)
	for i := range p.Items {
		Unstructured(t, &p.Items[i], h)
	}
}

// eface is the layout of an interface value of type any.
type eface struct {
	typ, data unsafe.Pointer
}

// JSON value kinds, mixed into the hash so that int64(1), float64(1),
// "1" and true hash apart.
const (
	jsonNil = iota + 1
	jsonString
	jsonBool
	jsonInt
	jsonFloat
	jsonObject
	jsonArray
)

var (
	jsonMapType   = reflect.TypeFor[map[string]any]()
	jsonSliceType = reflect.TypeFor[[]any]()
	jsonValueType = reflect.TypeFor[any]()
	// stringBoxType is the table's type of the boxes of strings held in
	// interface values.
	stringBoxType = reflect.TypeFor[*jsonStringBox]()
)

// jsonStringBox names the string an interface value points at.
type jsonStringBox string

// jsonValue walks the JSON value at p and writes p when the value is
// replaced by a canonical copy.
func jsonValue(t *Table, p *any, h *Hash) {
	switch v := (*p).(type) {
	case nil:
		h.Uint64(jsonNil)
	case string:
		h.Uint64(jsonString)
		jsonStringValue(t, p, v, h)
	case bool:
		h.Uint64(jsonBool)
		h.Bool(v)
	case int64:
		h.Uint64(jsonInt)
		h.Uint64(uint64(v))
	case float64:
		h.Uint64(jsonFloat)
		h.Float(v)
	case map[string]any:
		h.Uint64(jsonObject)
		if m := v; jsonMap(t, &m, h) {
			*p = m
		}
	case []any:
		h.Uint64(jsonArray)
		if s := v; jsonSlice(t, &s, h) {
			*p = s
		}
	default:
		h.Opaque() // not what a JSON decoder makes: kept as it is
	}
}

// jsonStringValue shares the box of the string s that the interface value
// at p holds: the canonical box replaces it (16 bytes and the string's
// bytes saved per repeat).
func jsonStringValue(t *Table, p *any, s string, h *Hash) {
	x := mixString(s, h)
	if s == "" || t == nil {
		return
	}
	box := (*eface)(unsafe.Pointer(p)).data
	same := func(c unsafe.Pointer, _ int) bool { return c == box || *(*string)(c) == s }
	fresh := func() (unsafe.Pointer, int, checkFunc) { return box, 0, checkJSONString }
	if c, _ := t.lookup(stringBoxType, x^jsonString, h.object(), box, 0, same, fresh); c != box {
		(*eface)(unsafe.Pointer(p)).data = c
	}
}

// jsonMap walks the map at p and replaces it by its canonical copy, or by
// a copy with interned keys and shared values when it is not shared and
// one of them changed; it reports whether it replaced it.
func jsonMap(t *Table, p *map[string]any, h *Hash) bool {
	m := *p
	if m == nil {
		h.Uint64(0)
		return false
	}
	var sum uint64
	opaque, changed := false, false
	walked := make([]mapEntry[string, any], 0, len(m))
	for k, v := range m {
		walked = append(walked, mapEntry[string, any]{internKey(t, k), v})
		e := &walked[len(walked)-1]
		eh := h.child()
		mixString(e.k, eh)
		jsonValue(t, &e.v, eh)
		sum += eh.sum // order-independent
		opaque = opaque || eh.opaque
		changed = changed || unsafe.StringData(e.k) != unsafe.StringData(k) || !sameInterface(e.v, v)
	}
	mh := Hash{opaque: opaque}
	mh.Uint64(uint64(len(m)) + 1)
	mh.Uint64(sum)
	h.Mix(mh)
	if len(m) == 0 || t == nil {
		return false
	}
	c := m
	if !opaque {
		c, _ = shareMap(t, m, walked, mh.sum, h.object(), equalJSON, Own[string], jsonValue)
	}
	if mapData(c) == mapData(m) && changed {
		c = make(map[string]any, len(walked))
		for _, e := range walked {
			c[e.k] = e.v
		}
	}
	if mapData(c) == mapData(m) {
		return false
	}
	*p = c
	return true
}

// internKey returns the canonical copy of a map key: keys are the
// object's field names and label keys, which repeat in nearly every
// object, so they skip the admission filter.
func internKey(t *Table, k string) string {
	if t == nil || k == "" {
		return k
	}
	var h Hash
	return t.canonicalString(mixString(k, &h), k)
}

// jsonSlice walks the slice at p and replaces it by its canonical copy, or
// by a right-sized copy of its walked elements when it is not shared and
// one of them changed or it has spare room; it reports whether it
// replaced it.
func jsonSlice(t *Table, p *[]any, h *Hash) bool {
	s := *p
	if s == nil {
		h.Uint64(0)
		return false
	}
	out := s
	sh := h.child()
	sh.Uint64(uint64(len(s)) + 1)
	for i := range s {
		v := s[i]
		jsonValue(t, &v, sh)
		if !sameInterface(v, s[i]) {
			if unsafe.SliceData(out) == unsafe.SliceData(s) {
				out = append([]any(nil), s...)
			}
			out[i] = v
		}
	}
	h.Mix(*sh)
	if len(s) == 0 || t == nil {
		return false
	}
	c := out
	if !sh.opaque {
		c, _ = shareSlice(t, out, sh.sum, h.object(), equalJSON, jsonValue)
	}
	if unsafe.SliceData(c) == unsafe.SliceData(s) && cap(s) != len(s) {
		c = append([]any(nil), s...)
	}
	if unsafe.SliceData(c) == unsafe.SliceData(s) {
		return false
	}
	*p = c
	return true
}

// sameInterface reports whether a and b are the same interface value, word
// for word.
func sameInterface(a, b any) bool {
	return *(*eface)(unsafe.Pointer(&a)) == *(*eface)(unsafe.Pointer(&b))
}
