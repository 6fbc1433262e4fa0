package compact

import (
	"reflect"
	"unsafe"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// equalJSON reports whether the JSON values at a and b are equal as
// reflect.DeepEqual would say: same dynamic types (int64 is not float64),
// nil and empty apart.
func equalJSON(a, b *any) bool {
	switch x := (*a).(type) {
	case string:
		y, ok := (*b).(string)
		return ok && x == y
	case map[string]any:
		y, ok := (*b).(map[string]any)
		return ok && equalJSONMaps(x, y)
	case []any:
		y, ok := (*b).([]any)
		return ok && equalJSONSlices(x, y)
	case int64:
		y, ok := (*b).(int64)
		return ok && x == y
	case float64:
		y, ok := (*b).(float64)
		return ok && x == y
	case bool:
		y, ok := (*b).(bool)
		return ok && x == y
	case nil:
		return *b == nil
	}
	return reflect.DeepEqual(*a, *b)
}

// equalJSONMaps is equalJSON of two objects.
func equalJSONMaps(a, b map[string]any) bool {
	if (a == nil) != (b == nil) || len(a) != len(b) {
		return false
	}
	if mapData(a) == mapData(b) {
		return true
	}
	for k, av := range a {
		bv, ok := b[k]
		if !ok || !equalJSON(&av, &bv) {
			return false
		}
	}
	return true
}

// equalJSONSlices is equalJSON of two arrays.
func equalJSONSlices(a, b []any) bool {
	if (a == nil) != (b == nil) || len(a) != len(b) {
		return false
	}
	if len(a) > 0 && unsafe.SliceData(a) == unsafe.SliceData(b) {
		return true
	}
	for i := range a {
		if !equalJSON(&a[i], &b[i]) {
			return false
		}
	}
	return true
}

// updateUnstructured compacts p, the new version of old: every value of
// its object equal to old's is taken from old (compact already), objects
// that changed are compared key by key, and only the values that changed
// are walked.
func updateUnstructured(t *Table, p, old *unstructured.Unstructured) {
	if p.Object == nil || old.Object == nil {
		h := rootHash()
		Unstructured(t, p, h)
		releaseHash(h)
		return
	}
	p.Object = jsonMapFrom(t, p.Object, old.Object)
}

// jsonMapFrom returns m compacted, its values equal to old's taken from
// old; m itself is not written.
func jsonMapFrom(t *Table, m, old map[string]any) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		ov, ok := old[k]
		switch {
		case ok && equalJSON(&v, &ov):
			v = ov
		case ok && isJSONObject(v) && isJSONObject(ov):
			v = jsonMapFrom(t, v.(map[string]any), ov.(map[string]any))
		default:
			h := rootHash()
			jsonValue(t, &v, h)
			releaseHash(h)
		}
		out[internKey(t, k)] = v
	}
	return out
}

// isJSONObject reports whether v is a non-nil map[string]any.
func isJSONObject(v any) bool {
	m, ok := v.(map[string]any)
	return ok && m != nil
}
