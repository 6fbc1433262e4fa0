package protodecode

import (
	"encoding/binary"
	"math"
)

// Integer is the Go types go-to-protobuf decodes from a varint by
// conversion (the bits of the varint that fit).
type Integer interface {
	~int | ~int32 | ~int64 | ~uint | ~uint32 | ~uint64
}

// String decodes a string field (wire type bytes), interned; decoding
// into the compact object, a string of the object equal to the previous
// version's is that version's (see Previous).
func String[S ~string](d *Decoder, p *S) {
	if !d.expect(wireBytes) {
		return
	}
	if b, ok := d.bytes(); ok {
		if old, same := stringFrom(d, p, b); same {
			*p = old
			return
		}
		*p = S(d.intern(b))
	}
}

// Own decodes a string field no other object has (an object's uid and
// resourceVersion): not interned, as the compaction walk leaves it
// (compact.Own).
func Own[S ~string](d *Decoder, p *S) {
	if !d.expect(wireBytes) {
		return
	}
	if b, ok := d.bytes(); ok {
		if old, same := stringFrom(d, p, b); same {
			*p = old
			return
		}
		*p = S(b)
	}
}

// OptString decodes an optional string field (*string): a new pointer.
func OptString[S ~string](d *Decoder, p **S) {
	var s S
	if String(d, &s); d.err == nil {
		*p = &s
	}
}

// Strings decodes one element of a repeated string field, appended.
func Strings[S ~string](d *Decoder, p *[]S) {
	var s S
	if String(d, &s); d.err == nil {
		*p = append(*p, s)
	}
}

// Bytes decodes a bytes field: copied into *p's backing array, never nil
// (go-to-protobuf's append(m.X[:0], ...), then []byte{} for nil).
func Bytes(d *Decoder, p *[]byte) {
	if !d.expect(wireBytes) {
		return
	}
	if b, ok := d.bytes(); ok {
		*p = append((*p)[:0], b...)
		if *p == nil {
			*p = []byte{}
		}
	}
}

// Int decodes a varint field into an integer type: the varint's bits
// that fit, as go-to-protobuf's m.X |= T(b&0x7F) << shift.
func Int[I Integer](d *Decoder, p *I) {
	if !d.expect(wireVarint) {
		return
	}
	if v := d.varint(); d.err == nil {
		*p = I(v)
	}
}

// OptInt decodes an optional integer field (*int32, *int64): a new
// pointer.
func OptInt[I Integer](d *Decoder, p **I) {
	var v I
	if Int(d, &v); d.err == nil {
		*p = &v
	}
}

// Ints decodes a repeated integer field's occurrence: one varint, or a
// packed run of them (go-to-protobuf reads both), appended.
func Ints[I Integer](d *Decoder, p *[]I) {
	if d.err != nil {
		return
	}
	if d.wire == wireVarint {
		if v := d.varint(); d.err == nil {
			*p = append(*p, I(v))
		}
		return
	}
	if d.expect(wireBytes) {
		sub(d, p, packedInts[I])
	}
}

// packedInts decodes a packed run of varints, appended.
func packedInts[I Integer](d *Decoder, p *[]I) {
	for d.pos < len(d.buf) && d.err == nil {
		if v := d.varint(); d.err == nil {
			*p = append(*p, I(v))
		}
	}
}

// Bool decodes a bool field: true for a varint other than 0.
func Bool[B ~bool](d *Decoder, p *B) {
	if !d.expect(wireVarint) {
		return
	}
	if v := d.varint(); d.err == nil {
		*p = v != 0
	}
}

// OptBool decodes an optional bool field (*bool): a new pointer.
func OptBool[B ~bool](d *Decoder, p **B) {
	var v B
	if Bool(d, &v); d.err == nil {
		*p = &v
	}
}

// Float64 decodes a double field (wire type fixed64).
func Float64[F ~float64](d *Decoder, p *F) {
	if !d.expect(wireFixed64) {
		return
	}
	if b, ok := d.fixed(8); ok {
		*p = F(math.Float64frombits(binary.LittleEndian.Uint64(b)))
	}
}

// OptFloat64 decodes an optional double field (*float64): a new pointer.
func OptFloat64[F ~float64](d *Decoder, p **F) {
	var v F
	if Float64(d, &v); d.err == nil {
		*p = &v
	}
}
