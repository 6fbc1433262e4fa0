package protodecode_test

import (
	"testing"

	"github.com/informer-gen/informer-gen/runtime/protodecode"
	"github.com/informer-gen/informer-gen/runtime/protodecode/protodecodetest"
)

// The meta/v1 decoders written in this package agree with the types'
// go-to-protobuf Unmarshal on random values and on the edge cases.
func TestMetaDecodersAgreeWithUnmarshal(t *testing.T) {
	const n = 60
	for name, check := range map[string]func(t *testing.T){
		"ObjectMeta":               func(t *testing.T) { random(t, protodecode.ObjectMeta, n) },
		"OwnerReference":           func(t *testing.T) { random(t, protodecode.OwnerReference, n) },
		"ManagedFieldsEntry":       func(t *testing.T) { random(t, protodecode.ManagedFieldsEntry, n) },
		"LabelSelector":            func(t *testing.T) { random(t, protodecode.LabelSelector, n) },
		"LabelSelectorRequirement": func(t *testing.T) { random(t, protodecode.LabelSelectorRequirement, n) },
		"Condition":                func(t *testing.T) { random(t, protodecode.Condition, n) },
	} {
		t.Run(name, check)
	}
}

// random runs protodecodetest.Random and the seed corpus (edge cases
// included) through protodecodetest.Same.
func random[T any, PT protodecodetest.Message[T]](t *testing.T, fn protodecode.Func[T], n int) {
	protodecodetest.Random[T, PT](t, fn, n)
	for _, s := range protodecodetest.Seeds[T, PT](5) {
		protodecodetest.Same[T, PT](t, fn, s)
	}
}

// TestDecoderReadsTheWireFormatAsUnmarshalDoes pins the semantics the
// generated decoders rely on, each against ObjectMeta.Unmarshal: fast
// says whether the fast path takes the input or leaves it to Unmarshal.
func TestDecoderReadsTheWireFormatAsUnmarshalDoes(t *testing.T) {
	for _, tc := range []struct {
		name string
		data []byte
		fast bool
	}{
		{"a string field twice: the last one", []byte{0x0a, 0x01, 'a', 0x0a, 0x01, 'b'}, true},
		{"an unknown field of each wire type is skipped", []byte{0xf8, 0x07, 0x01, 0xf9, 0x07, 1, 2, 3, 4, 5, 6, 7, 8, 0xfa, 0x07, 0x01, 'x', 0xfd, 0x07, 1, 2, 3, 4, 0x0a, 0x01, 'a'}, true},
		{"a varint of ten bytes: the bits that fit", []byte{0x38, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f}, true},
		{"a varint of eleven bytes: Unmarshal's overflow error", []byte{0x38, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01}, false},
		{"a map entry without a value: the empty string", []byte{0x5a, 0x03, 0x0a, 0x01, 'k'}, true},
		{"a map entry without a key: the empty key", []byte{0x5a, 0x03, 0x12, 0x01, 'v'}, true},
		{"a map entry whose key runs past it: Unmarshal's reading", []byte{0x5a, 0x02, 0x0a, 0x02, 'k', 'v'}, false},
		{"a map key of the wrong wire type: Unmarshal's reading", []byte{0x5a, 0x02, 0x08, 0x01}, false},
		{"owner references append", []byte{0x6a, 0x03, 0x1a, 0x01, 'a', 0x6a, 0x03, 0x1a, 0x01, 'b'}, true},
		{"a string of the wrong wire type: Unmarshal's error", []byte{0x08, 0x01}, false},
		{"a truncated string: Unmarshal's error", []byte{0x0a, 0x05, 'a'}, false},
		{"field number 0: Unmarshal's error", []byte{0x02, 0x00}, false},
		{"a group: Unmarshal's reading", []byte{0xfb, 0x07, 0xfc, 0x07}, false},
		{"an end group: Unmarshal's error", []byte{0xfc, 0x07}, false},
		{"a field number beyond int32: Unmarshal's reading", []byte{0x8a, 0x80, 0x80, 0x80, 0x80, 0x02, 0x00}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if fast := protodecodetest.Same(t, protodecode.ObjectMeta, tc.data); fast != tc.fast {
				t.Errorf("the fast path took it: %v, want %v", fast, tc.fast)
			}
		})
	}
}
