package compact

import (
	"reflect"
	"time"
	"unsafe"

	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// quantityLayout mirrors resource.Quantity's fields, which are unexported,
// so that quantities are hashed and compared exactly (1000m and 1 are
// equal to equality.Semantic, not here) without reflection.
type quantityLayout struct {
	value  int64
	scale  int32
	dec    unsafe.Pointer // *inf.Dec, set for values int64 cannot hold
	s      string
	format resource.Format
}

// quantityMirrored reports whether resource.Quantity has the layout
// quantityLayout assumes; when it does not (a future apimachinery),
// quantities are opaque and not shared, which costs memory but stays
// correct.
var quantityMirrored = checkQuantityLayout()

func checkQuantityLayout() bool {
	q := reflect.TypeFor[resource.Quantity]()
	want := []struct {
		name string
		off  uintptr
		kind reflect.Kind
	}{{"i", 0, reflect.Struct}, {"d", 16, reflect.Struct}, {"s", 24, reflect.String}, {"Format", 40, reflect.String}}
	if q.NumField() != len(want) || q.Size() != unsafe.Sizeof(quantityLayout{}) {
		return false
	}
	for i, w := range want {
		f := q.Field(i)
		if f.Name != w.name || f.Offset != w.off || f.Type.Kind() != w.kind {
			return false
		}
	}
	i, d := q.Field(0).Type, q.Field(1).Type
	return i.Size() == 16 && i.Field(0).Type.Kind() == reflect.Int64 && i.Field(1).Type.Kind() == reflect.Int32 &&
		d.Size() == 8 && d.Field(0).Type.Kind() == reflect.Pointer
}

// Quantity interns a quantity's cached string and mixes its exact
// representation into h. Quantities too large for int64 are opaque, and
// so is one whose string is not cached yet (decoded from a non-canonical
// form, 128Mi): its String method writes the cache, so a caller reading
// a shared quantity through a pointer would write memory other objects
// share (a data race between readers). QuantityValue is for map values,
// which callers only ever read as copies.
func Quantity(t *Table, p *resource.Quantity, h *Hash) {
	if quantityMirrored && (*quantityLayout)(unsafe.Pointer(p)).s == "" {
		h.Opaque()
	}
	QuantityValue(t, p, h)
}

// QuantityValue is Quantity of a quantity held as a map value: shared
// whatever its cached string, since reading a map value copies it.
func QuantityValue(t *Table, p *resource.Quantity, h *Hash) {
	if !quantityMirrored {
		h.Opaque()
		return
	}
	q := (*quantityLayout)(unsafe.Pointer(p))
	if q.dec != nil {
		h.Opaque()
		return
	}
	h.Uint64(uint64(q.value))
	h.Uint64(uint64(q.scale))
	h.String(string(q.format))
	if c, ok := t.intern(q.s, h); ok {
		q.s = c
	}
}

// EqualQuantityMaps is EqualMaps of resource lists, without copying
// their values to the heap to compare them.
func EqualQuantityMaps[K comparable](a, b map[K]resource.Quantity) bool {
	if (a == nil) != (b == nil) || len(a) != len(b) {
		return false
	}
	for k, av := range a {
		bv, ok := b[k]
		if !ok || !EqualQuantity(&av, &bv) {
			return false
		}
	}
	return true
}

// EqualQuantity reports whether two quantities have the same
// representation (value, scale, cached string and format).
func EqualQuantity(a, b *resource.Quantity) bool {
	if !quantityMirrored {
		return deepEqualQuantities(*a, *b)
	}
	x, y := (*quantityLayout)(unsafe.Pointer(a)), (*quantityLayout)(unsafe.Pointer(b))
	if x.dec != nil || y.dec != nil {
		return deepEqualQuantities(*a, *b)
	}
	return *x == *y
}

// deepEqualQuantities is EqualQuantity's slow path, on copies: handing a
// and b to reflect makes them escape, and EqualQuantity's own arguments
// must not (callers compare through pointers to stack copies).
func deepEqualQuantities(a, b resource.Quantity) bool { return reflect.DeepEqual(a, b) }

// Time mixes a time into h; time.Time's equality (instant, monotonic
// reading and location pointer) is exact.
func Time(_ *Table, p *time.Time, h *Hash) {
	h.Uint64(uint64(p.Unix()))
	h.Uint64(uint64(p.Nanosecond()))
}

// MetaTime is Time of a metav1.Time.
func MetaTime(t *Table, p *metav1.Time, h *Hash) { Time(t, &p.Time, h) }

// MetaMicroTime is Time of a metav1.MicroTime.
func MetaMicroTime(t *Table, p *metav1.MicroTime, h *Hash) { Time(t, &p.Time, h) }

// EqualMetaTime reports whether two metav1.Times are the same.
func EqualMetaTime(a, b *metav1.Time) bool { return a.Time == b.Time }

// EqualMetaMicroTime reports whether two metav1.MicroTimes are the same.
func EqualMetaMicroTime(a, b *metav1.MicroTime) bool { return a.Time == b.Time }
