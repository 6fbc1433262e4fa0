package mutation

import (
	"fmt"
	"reflect"
)

// firstDifference returns the path (".Spec.Containers[0].Image") of the
// first value that differs between a and b, as reflect.DeepEqual
// compares them; "" when it finds none. Only the detector's
// report calls it, once a mutation was found.
func firstDifference(a, b reflect.Value, path string) string {
	if a.IsValid() != b.IsValid() || (a.IsValid() && a.Type() != b.Type()) {
		return orRoot(path)
	}
	if !a.IsValid() {
		return ""
	}
	switch a.Kind() {
	case reflect.Pointer, reflect.Interface:
		if a.IsNil() || b.IsNil() {
			return differentIf(a.IsNil() != b.IsNil(), path)
		}
		return firstDifference(a.Elem(), b.Elem(), path)
	case reflect.Struct:
		for i := range a.NumField() {
			if p := firstDifference(a.Field(i), b.Field(i), path+"."+a.Type().Field(i).Name); p != "" {
				return p
			}
		}
		return ""
	case reflect.Slice, reflect.Array:
		return sliceDifference(a, b, path)
	case reflect.Map:
		return mapDifference(a, b, path)
	}
	if a.CanInterface() && b.CanInterface() {
		return differentIf(!reflect.DeepEqual(a.Interface(), b.Interface()), path)
	}
	return differentIf(fmt.Sprint(a) != fmt.Sprint(b), path)
}

func sliceDifference(a, b reflect.Value, path string) string {
	if a.Kind() == reflect.Slice && (a.IsNil() != b.IsNil() || a.Len() != b.Len()) {
		return orRoot(path)
	}
	for i := range a.Len() {
		if p := firstDifference(a.Index(i), b.Index(i), fmt.Sprintf("%s[%d]", path, i)); p != "" {
			return p
		}
	}
	return ""
}

func mapDifference(a, b reflect.Value, path string) string {
	if a.IsNil() != b.IsNil() || a.Len() != b.Len() {
		return orRoot(path)
	}
	for _, k := range a.MapKeys() {
		bv := b.MapIndex(k)
		p := fmt.Sprintf("%s[%v]", path, k)
		if !bv.IsValid() {
			return p
		}
		if d := firstDifference(a.MapIndex(k), bv, p); d != "" {
			return d
		}
	}
	return ""
}

func differentIf(differs bool, path string) string {
	if differs {
		return orRoot(path)
	}
	return ""
}

func orRoot(path string) string {
	if path == "" {
		return "(the object)"
	}
	return path
}
