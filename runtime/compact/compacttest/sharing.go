// Package compacttest compares how two compactions of the same objects
// share their parts, for the tests of the decoders that build the
// compact object as they decode (runtime/jsondecode's and
// runtime/protodecode's, see their test packages): the objects decoded
// then walked, and the objects decoded compact, must hold their slices,
// maps and pointers at one address exactly in the same places, across
// all objects.
//
//	objects decoded then walked --Parts--+
//	                                      +--> Sharing: same places shared, how many
//	objects decoded compact ----Parts----+
package compacttest

import (
	"fmt"
	"reflect"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/api/resource"
)

// Part is the address of a slice, map or pointer of an object (0 for a
// nil or empty one) and its path (object number, fields).
type Part struct {
	Addr uintptr
	Path string
}

// Sharing fails tb unless got's parts are one address exactly where
// want's are (the parts of the same objects, in the same order, from
// Parts), and returns how many of want's are shared (held at an address
// an earlier part has).
func Sharing(tb testing.TB, want, got []Part) int {
	tb.Helper()
	if len(want) != len(got) {
		tb.Fatalf("%d parts decoded compact, %d walked", len(got), len(want))
	}
	first, firstGot := map[uintptr]int{}, map[uintptr]int{}
	shared := 0
	for i := range want {
		w, okW := first[want[i].Addr]
		g, okG := firstGot[got[i].Addr]
		if !okW {
			first[want[i].Addr], w = i, i
		} else if want[i].Addr != 0 {
			shared++
		}
		if !okG {
			firstGot[got[i].Addr], g = i, i
		}
		if w != g {
			tb.Fatalf("%s: decoded compact it is %s's, walked %s's", want[i].Path, want[g].Path, want[w].Path)
		}
	}
	return shared
}

var (
	timeType     = reflect.TypeFor[time.Time]()
	quantityType = reflect.TypeFor[resource.Quantity]()
)

// Parts appends the addresses of v's slices, maps and pointers (0 for
// nil and empty ones), depth first, at path; times and quantities are
// values, map contents are left out. Strings are left out: a decoder
// interns them as it decodes (from their second sighting in another
// object), the walk as it walks them, and where a string is first seen
// differs between the two (a walk of a changed part after the decode
// counts the decoder's sighting as another object's), so their interning
// is compared by value (reflect.DeepEqual) only.
func Parts(v reflect.Value, path string, out []Part) []Part {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			return append(out, Part{0, path})
		}
		return Parts(v.Elem(), path+"*", append(out, Part{v.Pointer(), path}))
	case reflect.Slice:
		if v.Len() == 0 {
			return append(out, Part{0, path})
		}
		out = append(out, Part{v.Pointer(), path})
		if v.Type().Elem().Kind() == reflect.Uint8 {
			return out
		}
		for i := range v.Len() {
			out = Parts(v.Index(i), fmt.Sprintf("%s[%d]", path, i), out)
		}
		return out
	case reflect.Map:
		if v.Len() == 0 {
			return append(out, Part{0, path})
		}
		return append(out, Part{v.Pointer(), path})
	case reflect.Struct:
		if v.Type() == timeType || v.Type() == quantityType {
			return out
		}
		for i := range v.NumField() {
			out = Parts(v.Field(i), path+"."+v.Type().Field(i).Name, out)
		}
	}
	return out
}
