package protodecodetest

import (
	"fmt"
	"reflect"
	"runtime"
	"runtime/debug"
	"testing"

	"github.com/informer-gen/informer-gen/runtime/compact"
	"github.com/informer-gen/informer-gen/runtime/compact/compacttest"
	"github.com/informer-gen/informer-gen/runtime/protodecode"
)

// SharesAsTheWalk checks decoding into the compact object against
// decoding then walking: data are protobuf messages of T (as Marshal
// writes them), in the order an informer gets them (a later one of the
// same key, by key, replaces the earlier). Each is decoded
//
//   - by PT's Unmarshal, then compacted by a Table's TransformUpdate
//     against the previous version of its key, as an informer's queue
//     compacts it (what runtime/protowatch does without generated
//     decoders);
//   - into the compact object (protodecode.DecodeCompact, the previous
//     version of its key as its hint), with another Table.
//
// Both Tables admit exactly (compact.NewExactTable), so that what each
// shares does not depend on which values a lossy filter forgot.
//
// Both must be reflect.DeepEqual to Unmarshal's object, and their
// slices, maps and pointers, across all objects, must be one address
// exactly where the other's are (compacttest.Sharing). It returns how
// many parts were shared (held at an address an earlier part has).
func SharesAsTheWalk[T any, PT Message[T]](t *testing.T, fn protodecode.Func[T], data [][]byte, key func(*T) string) int {
	t.Helper()
	if !protodecode.Compacts[T]() {
		t.Fatalf("%T's decoder is not registered as building the compact object (protodecode.RegisterCompact)", *new(T))
	}
	// No collection while the objects are compacted: the exact tables
	// remember where each value was first seen, and a freed value's
	// address (a slice the walk right-sized) taken by a later value
	// would make that one look like the first (not admitted) in one path
	// and not in the other.
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
	for i, b := range data {
		plain, w, d := new(T), new(T), new(T)
		if err := PT(plain).Unmarshal(b); err != nil {
			t.Fatalf("object %d: %v", i, err)
		}
		if err := PT(w).Unmarshal(b); err != nil {
			t.Fatalf("object %d: %v", i, err)
		}
		var hint any
		if old, ok := walkedCache[key(w)]; ok {
			hint = old
		}
		update(w, hint)
		walkedCache[key(w)] = w
		if err := protodecode.DecodeCompact(b, d, fn, decoded, previous, 0); err != nil {
			t.Fatalf("object %d: not decoded into the compact object: %v", i, err)
		}
		decodedCache[key(d)] = d
		kept = append(kept, w, d)
		if !reflect.DeepEqual(w, plain) || !reflect.DeepEqual(d, plain) {
			t.Fatalf("object %d: decoded compact %+v, walked %+v, unmarshalled %+v", i, d, w, plain)
		}
		want = compacttest.Parts(reflect.ValueOf(w).Elem(), fmt.Sprint(i), want)
		got = compacttest.Parts(reflect.ValueOf(d).Elem(), fmt.Sprint(i), got)
	}
	shared := compacttest.Sharing(t, want, got)
	runtime.KeepAlive(kept)
	return shared
}
