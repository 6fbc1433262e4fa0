package jsondecodetest

import (
	"fmt"
	"reflect"
	"runtime"
	"runtime/debug"
	"testing"

	"github.com/informer-gen/informer-gen/runtime/compact"
	"github.com/informer-gen/informer-gen/runtime/compact/compacttest"
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
// exactly where the other's are (compacttest.Sharing). It returns how many parts were shared
// (held at an address an earlier part has).
func SharesAsTheWalk[T any](t *testing.T, fn jsondecode.Func[T], docs [][]byte, key func(*T) string) int {
	t.Helper()
	if !jsondecode.Compacts[T]() {
		t.Fatalf("%T's decoder is not registered as building the compact object (jsondecode.RegisterCompact)", *new(T))
	}
	// No collection while the objects are compacted: the exact tables
	// remember where each value was first seen, and a freed value's
	// address (a part the decoder decoded to compare, or a slice the walk
	// right-sized) taken by a later value would make that one look like
	// the first (not admitted) in one path and not in the other (the
	// failures under GOGC=5 before this).
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	walked, decoded := compact.NewExactTable(), compact.NewExactTable()
	update := walked.TransformUpdate(new(T))
	walkedCache, decodedCache := map[string]*T{}, map[string]*T{}
	previous := func(root any) any {
		if old, ok := decodedCache[key(root.(*T))]; ok {
			return old
		}
		return nil
	}
	var want, got []compacttest.Part
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
		if _, ok := jsondecode.DecodeEventCompact(frame, d, fn, decoded, previous, 0); !ok {
			t.Fatalf("object %d: not decoded into the compact object: %s", i, doc)
		}
		decodedCache[key(d)] = d
		kept = append(kept, w, d)
		if !reflect.DeepEqual(w, plain) || !reflect.DeepEqual(d, plain) {
			t.Fatalf("object %d: decoded compact %+v, walked %+v, decoded %+v", i, d, w, plain)
		}
		want = compacttest.Parts(reflect.ValueOf(w).Elem(), fmt.Sprint(i), want)
		got = compacttest.Parts(reflect.ValueOf(d).Elem(), fmt.Sprint(i), got)
	}
	shared := compacttest.Sharing(t, want, got)
	runtime.KeepAlive(kept)
	return shared
}
