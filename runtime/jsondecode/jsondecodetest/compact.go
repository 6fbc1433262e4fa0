package jsondecodetest

import (
	"fmt"
	"reflect"
	"runtime"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/informer-gen/informer-gen/runtime/compact"
	"github.com/informer-gen/informer-gen/runtime/jsondecode"
)

// SharesAsTheWalk checks decoding into the compact object against
// decoding then walking: docs are JSON objects of T, in the order an
// informer gets them (a later one of the same key, by key, replaces the
// earlier). Each is decoded
//
//   - plainly (jsondecode.Unmarshal, no interning), then compacted by a
//     Table's TransformUpdate against the previous version of its key,
//     as an informer's queue compacts it;
//   - into the compact object (jsondecode.DecodeEventCompact, in a watch
//     event's frame, the previous version of its key as its hint), with
//     another Table.
//
// Both Tables admit exactly (compact.NewExactTable), so that what each
// shares does not depend on which values a lossy filter forgot.
//
// Both must be reflect.DeepEqual to the plain decoding, and their
// slices, maps and pointers, across all objects, must be one address
// exactly where the other's are (see parts). It returns how many parts were shared
// (held at an address an earlier part has).
func SharesAsTheWalk[T any](t *testing.T, fn jsondecode.Func[T], docs [][]byte, key func(*T) string) int {
	t.Helper()
	if !jsondecode.Compacts[T]() {
		t.Fatalf("%T's decoder is not registered as building the compact object (jsondecode.RegisterCompact)", *new(T))
	}
	walked, decoded := compact.NewExactTable(), compact.NewExactTable()
	update := walked.TransformUpdate(new(T))
	walkedCache, decodedCache := map[string]*T{}, map[string]*T{}
	previous := func(root any) any {
		if old, ok := decodedCache[key(root.(*T))]; ok {
			return old
		}
		return nil
	}
	var want, got []part
	// Every object stays alive to the end: a freed part's address could
	// be another's.
	var kept []*T
	for i, doc := range docs {
		plain, w, d := new(T), new(T), new(T)
		if err := jsondecode.Unmarshal(doc, plain, fn, nil); err != nil {
			t.Fatalf("object %d: %v", i, err)
		}
		if err := jsondecode.Unmarshal(doc, w, fn, nil); err != nil {
			t.Fatalf("object %d: %v", i, err)
		}
		var hint any
		if old, ok := walkedCache[key(w)]; ok {
			hint = old
		}
		update(w, hint)
		walkedCache[key(w)] = w
		frame := append(append([]byte(`{"type":"MODIFIED","object":`), doc...), '}')
		if _, ok := jsondecode.DecodeEventCompact(frame, d, fn, decoded, previous); !ok {
			t.Fatalf("object %d: not decoded into the compact object: %s", i, doc)
		}
		decodedCache[key(d)] = d
		kept = append(kept, w, d)
		if !reflect.DeepEqual(w, plain) || !reflect.DeepEqual(d, plain) {
			t.Fatalf("object %d: decoded compact %+v, walked %+v, decoded %+v", i, d, w, plain)
		}
		want = parts(reflect.ValueOf(w).Elem(), fmt.Sprint(i), want)
		got = parts(reflect.ValueOf(d).Elem(), fmt.Sprint(i), got)
	}
	shared := sameSharing(t, want, got)
	runtime.KeepAlive(kept)
	return shared
}

// part is the address of a part and its path (object number, fields).
type part struct {
	addr uintptr
	path string
}

// sameSharing fails unless got's parts are one address exactly where
// want's are, and returns how many of want's are shared.
func sameSharing(t *testing.T, want, got []part) int {
	t.Helper()
	if len(want) != len(got) {
		t.Fatalf("%d parts decoded compact, %d walked", len(got), len(want))
	}
	first, firstGot := map[uintptr]int{}, map[uintptr]int{}
	shared := 0
	for i := range want {
		w, okW := first[want[i].addr]
		g, okG := firstGot[got[i].addr]
		if !okW {
			first[want[i].addr], w = i, i
		} else if want[i].addr != 0 {
			shared++
		}
		if !okG {
			firstGot[got[i].addr], g = i, i
		}
		if w != g {
			t.Fatalf("%s: decoded compact it is %s's, walked %s's", want[i].path, want[g].path, want[w].path)
		}
	}
	return shared
}

var (
	timeType     = reflect.TypeFor[time.Time]()
	quantityType = reflect.TypeFor[resource.Quantity]()
)

// parts appends the addresses of v's slices, maps and pointers (0 for
// nil and empty ones), depth first, at path; times and quantities are
// values, map contents are left out. Strings are left out: the decoder
// interns them as it decodes (Table.InternBytes, from their second
// sighting in another object), the walk as it walks them, and where a
// string is first seen differs between the two (a walk of a changed
// part after the decode counts the decoder's sighting as another
// object's), so their interning is compared by value (DeepEqual) only.
func parts(v reflect.Value, path string, out []part) []part {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			return append(out, part{0, path})
		}
		return parts(v.Elem(), path+"*", append(out, part{v.Pointer(), path}))
	case reflect.Slice:
		if v.Len() == 0 {
			return append(out, part{0, path})
		}
		out = append(out, part{v.Pointer(), path})
		if v.Type().Elem().Kind() == reflect.Uint8 {
			return out
		}
		for i := range v.Len() {
			out = parts(v.Index(i), fmt.Sprintf("%s[%d]", path, i), out)
		}
		return out
	case reflect.Map:
		if v.Len() == 0 {
			return append(out, part{0, path})
		}
		return append(out, part{v.Pointer(), path})
	case reflect.Struct:
		if v.Type() == timeType || v.Type() == quantityType {
			return out
		}
		for i := range v.NumField() {
			out = parts(v.Field(i), path+"."+v.Type().Field(i).Name, out)
		}
	}
	return out
}
