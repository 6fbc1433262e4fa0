// Package jsondecodetest proves decoders of package jsondecode
// differentially against sigs.k8s.io/json, the decoder of apimachinery's
// JSON serializer: the same bytes must be accepted or rejected by both,
// decode to reflect.DeepEqual objects when accepted, and be rejected by
// jsondecode.Unmarshal with sigs.k8s.io/json's error message.
//
//	random objects (randfill) --encoding/json--> bytes --+--> jsondecode.Decode ----+--> DeepEqual
//	fuzzed bytes (go test -fuzz), seed corpora ---------+--> sigs.k8s.io/json -----+
//
// Generated packages' tests call Random and Fuzz with the decoder
// registered for a type (Registered, which looks it up with jsondecode.For).
package jsondecodetest

import (
	"encoding/json"
	"reflect"
	"testing"

	sigsjson "sigs.k8s.io/json"
	"sigs.k8s.io/randfill"

	"github.com/informer-gen/informer-gen/runtime/compact"
	"github.com/informer-gen/informer-gen/runtime/jsondecode"
)

// table interns the decoded strings of every check, as an informer's
// would.
var table = compact.NewTable()

// Same checks that fn and sigs.k8s.io/json agree on data: both accept it
// and decode DeepEqual values, or both reject it and jsondecode.Unmarshal
// returns sigs.k8s.io/json's error.
func Same[T any](tb testing.TB, fn jsondecode.Func[T], data []byte) {
	tb.Helper()
	fast, want := new(T), new(T)
	errFast := jsondecode.Decode(data, fast, fn, table)
	errWant := sigsjson.UnmarshalCaseSensitivePreserveInts(data, want)
	switch {
	case (errFast == nil) != (errWant == nil):
		tb.Fatalf("%T: jsondecode says %v, sigs.k8s.io/json says %v, for %q", *fast, errFast, errWant, data)
	case errWant == nil && !reflect.DeepEqual(fast, want):
		tb.Fatalf("%T: decoded objects differ for %q:\njsondecode:        %#v\nsigs.k8s.io/json: %#v", *fast, data, fast, want)
	case errWant != nil:
		got := jsondecode.Unmarshal(data, new(T), fn, table)
		if got == nil || got.Error() != errWant.Error() {
			tb.Fatalf("%T: Unmarshal's error is %v, want sigs.k8s.io/json's %v, for %q", *fast, got, errWant, data)
		}
	case jsondecode.Compacts[T]():
		sameOmitting(tb, fn, data, want)
	}
}

// sameOmitting checks that data, which sigs.k8s.io/json decodes to want,
// decoded as a watch event's object into the compact object leaving
// managedFields out (compact.OmitManagedFields) is want with its own
// managedFields stripped, as an informer's StripManagedFields strips
// them (a nested object's, a template's, are kept), whenever the fast
// path takes the event.
func sameOmitting[T any](tb testing.TB, fn jsondecode.Func[T], data []byte, want *T) {
	tb.Helper()
	frame := append(append([]byte(`{"type":"ADDED","object":`), data...), '}')
	omitted := new(T)
	if _, ok := jsondecode.DecodeEventCompact(frame, omitted, fn, table, func(any) any { return nil }, compact.OmitManagedFields); !ok {
		return // the caller decodes the frame as client-go does
	}
	stripped := new(T)
	if err := sigsjson.UnmarshalCaseSensitivePreserveInts(data, stripped); err != nil {
		tb.Fatalf("%T: sigs.k8s.io/json rejects what it accepted: %v", *want, err)
	}
	compact.StripManagedFields(stripped)
	if !reflect.DeepEqual(omitted, stripped) {
		tb.Fatalf("%T: decoded objects differ for %q:\njsondecode.DecodeEventCompact without managedFields: %#v\nsigs.k8s.io/json, stripped:                        %#v", *want, data, omitted, stripped)
	}
}

// Filler returns a randfill.Filler seeded with seed that fills the
// apimachinery types encoding/json would not round-trip from arbitrary
// values (Quantity, IntOrString, RawExtension, FieldsV1, times) with
// values their JSON encoding accepts.
func Filler(seed int64) *randfill.Filler {
	return randfill.NewWithSeed(seed).NilChance(0.2).NumElements(0, 3).MaxDepth(8).Funcs(fillFuncs...)
}

// Random checks Same on n random values of T encoded by encoding/json (as
// apimachinery's serializer encodes), from seeds 0 to n-1; a value
// encoding/json cannot encode is skipped, and more than half skipped
// fails.
func Random[T any](t *testing.T, fn jsondecode.Func[T], n int) {
	t.Helper()
	skipped := 0
	for seed := range n {
		v := new(T)
		Filler(int64(seed)).Fill(v)
		data, err := json.Marshal(v)
		if err != nil {
			skipped++
			continue
		}
		Same(t, fn, data)
	}
	if skipped > n/2 {
		t.Fatalf("%T: %d of %d random values could not be encoded", *new(T), skipped, n)
	}
}

// Seeds returns n random values of T encoded by encoding/json, and
// edge cases every decoder meets (null, wrong kinds, duplicate members,
// escapes, invalid UTF-8, trailing data), as a fuzz corpus.
func Seeds[T any](n int) [][]byte {
	var out [][]byte
	for seed := range n {
		v := new(T)
		// Small seeds: the fuzzer minimizes each input that finds new
		// code, which costs a run per byte of it.
		Filler(int64(seed)).MaxDepth(4).NumElements(0, 2).Fill(v)
		if data, err := json.Marshal(v); err == nil {
			out = append(out, data)
		}
	}
	return append(out, edgeCases...)
}

// Fuzz runs Same on the fuzzer's inputs, starting from seeds.
func Fuzz[T any](f *testing.F, fn jsondecode.Func[T], seeds [][]byte) {
	for _, s := range seeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) { Same(t, fn, data) })
}
