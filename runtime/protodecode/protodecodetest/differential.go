// Package protodecodetest proves decoders of package protodecode
// differentially against go-to-protobuf's generated Unmarshal methods:
// protodecode.Unmarshal (what runtime/protowatch calls) must accept and
// reject the same bytes as Unmarshal, decode reflect.DeepEqual objects
// when both accept, and return Unmarshal's error message when both
// reject; the fast path alone (protodecode.Decode), and for the kinds
// whose decoders build the compact object decoding into it
// (protodecode.DecodeCompact), must never accept what Unmarshal rejects
// nor decode another object. SharesAsTheWalk (compact.go) proves the
// compact objects share what the compaction walk shares.
//
//	random objects (randfill) --Marshal--> bytes --+--> protodecode.Decode / Unmarshal --+--> DeepEqual, same error
//	fuzzed bytes (go test -fuzz), seed corpora ----+--> T.Unmarshal ----------------------+
//
// Generated packages' tests call Random and Fuzz with the decoder
// registered for a type (Registered, which looks it up with protodecode.For).
package protodecodetest

import (
	"reflect"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/intstr"
	"sigs.k8s.io/randfill"

	"github.com/informer-gen/informer-gen/runtime/compact"
	"github.com/informer-gen/informer-gen/runtime/protodecode"
)

// Message is a type go-to-protobuf generated Marshal and Unmarshal for.
type Message[T any] interface {
	protodecode.Unmarshaler[T]
	Marshal() ([]byte, error)
}

// table interns the decoded strings of every check, as an informer's
// would.
var table = compact.NewTable()

// compactTable is the table objects are decoded compact into
// (protodecode.DecodeCompact), for the kinds whose decoders build the
// compact object: its memo then hands out what earlier checks decoded.
var compactTable = compact.NewTable()

// Same checks that fn agrees with PT's Unmarshal on data, and returns
// whether the fast path alone (protodecode.Decode) accepted it.
func Same[T any, PT Message[T]](tb testing.TB, fn protodecode.Func[T], data []byte) (fast bool) {
	tb.Helper()
	want := new(T)
	errWant := PT(want).Unmarshal(data)
	fastObj := new(T)
	errFast := protodecode.Decode(data, fastObj, fn, table)
	switch {
	case errFast == nil && errWant != nil:
		tb.Fatalf("%T: the fast path accepts what Unmarshal rejects (%v), for %q", *want, errWant, data)
	case errFast == nil && !reflect.DeepEqual(fastObj, want):
		tb.Fatalf("%T: decoded objects differ for %q:\nprotodecode: %#v\nUnmarshal:   %#v", *want, data, fastObj, want)
	}
	if protodecode.Compacts[T]() {
		sameCompact[T, PT](tb, fn, data, want, errWant)
	}
	got := new(T)
	errGot := protodecode.Unmarshal[T, PT](data, got, fn, table)
	switch {
	case (errGot == nil) != (errWant == nil):
		tb.Fatalf("%T: protodecode.Unmarshal says %v, Unmarshal says %v, for %q", *want, errGot, errWant, data)
	case errWant != nil && errGot.Error() != errWant.Error():
		tb.Fatalf("%T: protodecode.Unmarshal's error is %q, want Unmarshal's %q, for %q", *want, errGot, errWant, data)
	case errWant == nil && !reflect.DeepEqual(got, want):
		tb.Fatalf("%T: decoded objects differ for %q:\nprotodecode.Unmarshal: %#v\nUnmarshal:             %#v", *want, data, got, want)
	}
	return errFast == nil
}

// quantities are the Quantity values random objects hold.
var quantities = []string{"0", "1", "100m", "1.5", "128Mi", "2Gi", "1e3", "500k"}

// fillFuncs fill the apimachinery types with values their protobuf
// encoding round-trips.
var fillFuncs = []any{
	func(q *resource.Quantity, c randfill.Continue) {
		*q = resource.MustParse(quantities[c.Intn(len(quantities))])
	},
	func(v *intstr.IntOrString, c randfill.Continue) {
		if c.Bool() {
			*v = intstr.FromInt32(c.Int31())
		} else {
			*v = intstr.FromString(c.String(8))
		}
	},
	func(r *runtime.RawExtension, c randfill.Continue) {
		*r = runtime.RawExtension{}
		if c.Bool() {
			r.Raw = []byte(`{"a":1}`)
		}
	},
	func(t *metav1.Time, c randfill.Continue) {
		*t = metav1.NewTime(time.Unix(c.Int63n(4e9), 0))
	},
	func(t *metav1.MicroTime, c randfill.Continue) {
		*t = metav1.NewMicroTime(time.Unix(c.Int63n(4e9), c.Int63n(1e9)).Truncate(time.Microsecond))
	},
}

// Filler returns a randfill.Filler seeded with seed that fills the
// apimachinery types with values their protobuf encoding round-trips.
func Filler(seed int64) *randfill.Filler {
	return randfill.NewWithSeed(seed).NilChance(0.2).NumElements(0, 3).MaxDepth(8).Funcs(fillFuncs...)
}

// Random checks Same on n random values of T marshalled by their
// Marshal method, from seeds 0 to n-1, and requires the fast path to
// accept every one.
func Random[T any, PT Message[T]](t *testing.T, fn protodecode.Func[T], n int) {
	t.Helper()
	for seed := range n {
		v := new(T)
		Filler(int64(seed)).Fill(v)
		data, err := PT(v).Marshal()
		if err != nil {
			t.Fatalf("%T: Marshal of random value %d: %v", *v, seed, err)
		}
		if !Same[T, PT](t, fn, data) {
			t.Fatalf("%T: the fast path rejected random value %d, which Marshal wrote", *v, seed)
		}
	}
}

// edgeCases are inputs every decoder meets: empty, truncated, unknown
// fields of every wire type, groups, field number 0 and out of int32's
// range, an eleven-byte varint, a wrong wire type for ObjectMeta (field
// 1 of every object), duplicate and merging fields.
var edgeCases = [][]byte{
	{}, {0x0a}, {0x0a, 0x05, 0x0a, 0x01}, {0x0a, 0x00},
	{0x08, 0x01}, {0x0a, 0x02, 0x0a, 0x00, 0x0a, 0x02, 0x1a, 0x00},
	{0x0a, 0x04, 0x0a, 0x02, 0x61, 0x62, 0x0a, 0x04, 0x1a, 0x02, 0x6e, 0x73},
	{0xf8, 0x07, 0x01}, {0xf9, 0x07, 1, 2, 3, 4, 5, 6, 7, 8}, {0xfa, 0x07, 0x00}, {0xfd, 0x07, 1, 2, 3, 4}, {0xfb, 0x07, 0xfc, 0x07},
	{0x00, 0x01}, {0x80, 0x80, 0x80, 0x80, 0x80, 0x01, 0x00}, {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01},
	{0x0a, 0x03, 0x38, 0xff, 0xff}, {0x0a, 0x0b, 0x38, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01},
	{0x0a, 0x06, 0x5a, 0x04, 0x0a, 0x01, 0x61, 0x12}, {0x0a, 0x08, 0x5a, 0x06, 0x0a, 0x01, 0x61, 0x12, 0x01, 0x62},
	{0x0a, 0x05, 0x5a, 0x03, 0x08, 0x01, 0x61},
}

// Seeds returns n small random values of T marshalled, and the edge
// cases, as a fuzz corpus.
func Seeds[T any, PT Message[T]](n int) [][]byte {
	var out [][]byte
	for seed := range n {
		v := new(T)
		// Small seeds: the fuzzer minimizes each input that finds new
		// code, which costs a run per byte of it.
		Filler(int64(seed)).MaxDepth(4).NumElements(0, 2).Fill(v)
		if data, err := PT(v).Marshal(); err == nil {
			out = append(out, data)
		}
	}
	return append(out, edgeCases...)
}

// Fuzz runs Same on the fuzzer's inputs, starting from seeds.
func Fuzz[T any, PT Message[T]](f *testing.F, fn protodecode.Func[T], seeds [][]byte) {
	for _, s := range seeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) { Same[T, PT](t, fn, data) })
}

// sameCompact checks that decoding data into the compact object
// (protodecode.DecodeCompact) never accepts what Unmarshal rejects (errWant)
// nor decodes another object than want, with and without managedFields.
func sameCompact[T any, PT Message[T]](tb testing.TB, fn protodecode.Func[T], data []byte, want *T, errWant error) {
	tb.Helper()
	compacted := new(T)
	errCompact := protodecode.DecodeCompact(data, compacted, fn, compactTable, func(any) any { return nil }, 0)
	switch {
	case errCompact == nil && errWant != nil:
		tb.Fatalf("%T: decoding into the compact object accepts what Unmarshal rejects (%v), for %q", *want, errWant, data)
	case errCompact == nil && !reflect.DeepEqual(compacted, want):
		tb.Fatalf("%T: decoded objects differ for %q:\nprotodecode.DecodeCompact: %#v\nUnmarshal:                 %#v", *want, data, compacted, want)
	case errCompact == nil:
		sameOmitting[T, PT](tb, fn, data)
	}
}

// sameOmitting checks that decoding data (which Unmarshal and
// DecodeCompact accept) into the compact object leaving managedFields
// out (compact.OmitManagedFields) accepts it too and decodes what
// Unmarshal does with the object's own managedFields stripped, as an
// informer's StripManagedFields strips them (a nested object's, a
// template's, are kept).
func sameOmitting[T any, PT Message[T]](tb testing.TB, fn protodecode.Func[T], data []byte) {
	tb.Helper()
	want := new(T)
	if err := PT(want).Unmarshal(data); err != nil {
		tb.Fatalf("%T: Unmarshal rejects what it accepted: %v", *want, err)
	}
	compact.StripManagedFields(want)
	omitted := new(T)
	if err := protodecode.DecodeCompact(data, omitted, fn, compactTable, func(any) any { return nil }, compact.OmitManagedFields); err != nil {
		tb.Fatalf("%T: decoding into the compact object without managedFields rejects what it accepts with them (%v), for %q", *want, err, data)
	}
	if !reflect.DeepEqual(omitted, want) {
		tb.Fatalf("%T: decoded objects differ for %q:\nprotodecode.DecodeCompact without managedFields: %#v\nUnmarshal, stripped:                             %#v", *want, data, omitted, want)
	}
}
