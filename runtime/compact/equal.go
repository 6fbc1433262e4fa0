package compact

import "maps"

// EqualSlices reports whether a and b have equal elements; nil and empty
// differ.
func EqualSlices[E any](a, b []E, eq Equal[E]) bool {
	if (a == nil) != (b == nil) || len(a) != len(b) {
		return false
	}
	if len(a) > 0 && &a[0] == &b[0] {
		return true // the same canonical copy
	}
	for i := range a {
		if !eq(&a[i], &b[i]) {
			return false
		}
	}
	return true
}

// EqualMaps reports whether a and b have the same keys with equal values;
// nil and empty differ.
func EqualMaps[K comparable, V any](a, b map[K]V, eq Equal[V]) bool {
	if (a == nil) != (b == nil) || len(a) != len(b) {
		return false
	}
	var av, bv V // copies to compare through: one each per call, not per entry
	for k, v := range a {
		var ok bool
		av = v
		if bv, ok = b[k]; !ok || !eq(&av, &bv) {
			return false
		}
	}
	return true
}

// EqualComparableMaps is EqualMaps of maps whose values compare with ==
// (map[string]string): it copies no value to compare it.
func EqualComparableMaps[K, V comparable](a, b map[K]V) bool {
	if (a == nil) != (b == nil) {
		return false
	}
	return maps.Equal(a, b)
}

// EqualPointers reports whether a and b are both nil or point to equal
// values.
func EqualPointers[E any](a, b *E, eq Equal[E]) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a == b || eq(a, b)
}
