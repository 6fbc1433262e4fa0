package protodecode

import (
	"errors"
	"fmt"
	"math"
	"sync"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/informer-gen/informer-gen/runtime/compact"
)

// Func decodes the fields of one protobuf message, the whole of what d
// holds, into the value at p, as the type's go-to-protobuf Unmarshal
// would decode them into a value that already holds *p (it merges: a
// scalar field is the last one's, a repeated field appends).
type Func[T any] func(d *Decoder, p *T)

// Decoder reads one protobuf message, go-to-protobuf's wire format as
// k8s.io/api's generated Unmarshal methods read it, and interns the
// strings it decodes in a compact.Table. Its errors are sticky: after the
// first one Next reports no more fields and every read is a no-op, so
// decoding functions need not check each call.
//
// The generated decoders loop over a message's fields with Next, switch
// on Field and decode each with this package's functions, which check the
// field's wire type first:
//
//	for d.Next() {
//		switch d.Field() {
//		case 1:
//			protodecode.Message(d, &p.ObjectMeta, protodecode.ObjectMeta)
//		default:
//			d.Skip()
//		}
//	}
//
// A Decoder is used by one goroutine; Decode and Unmarshal take one from
// a pool.
type Decoder struct {
	// buf is the message being decoded, pos the offset of the next
	// field's tag in it.
	buf []byte
	pos int
	// field and wire are the number and wire type of the field Next
	// read last, tag the offset of its tag.
	field int32
	wire  uint64
	tag   int
	table *compact.Table
	// object is the number of the object being decoded
	// (compact.DecodedObject), for the table's admission filter.
	object uint64
	err    error
	// omitFrom is the metadata whose managedFields DecodeCompact leaves
	// out (compact.OmitManagedFields), or nil.
	omitFrom *metav1.ObjectMeta
	// share is the state of decoding into the compact object
	// (DecodeCompact; &shareState), nil otherwise.
	share      *sharing
	shareState sharing
}

// The wire types of the protobuf encoding.
const (
	wireVarint  = 0
	wireFixed64 = 1
	wireBytes   = 2
	wireFixed32 = 5
)

// maxVarint is the longest varint go-to-protobuf reads: ten bytes (an
// eleventh is its ErrIntOverflowGenerated).
const maxVarint = 10

var decoders = sync.Pool{New: func() any { return new(Decoder) }}

// Decode decodes data, one protobuf message, into p with fn, interning
// the strings it decodes in t (none when t is nil). It is the fast path
// alone: its errors are its own, and *p holds what was decoded before
// the error. Unmarshal is what callers want.
func Decode[T any](data []byte, p *T, fn Func[T], t *compact.Table) error {
	d := decoders.Get().(*Decoder)
	*d = Decoder{buf: data, table: t}
	if t != nil {
		d.object = compact.DecodedObject()
	}
	fn(d, p)
	err := d.err
	// The pooled decoder keeps nothing of data, nor the table.
	*d = Decoder{}
	decoders.Put(d)
	return err
}

// Unmarshaler is a type with go-to-protobuf's Unmarshal method: *T of
// the types of k8s.io/api and k8s.io/apimachinery.
type Unmarshaler[T any] interface {
	*T
	Unmarshal(data []byte) error
}

// Unmarshal decodes data into p as PT's go-to-protobuf Unmarshal does,
// with fn, interning strings in t: the same object, and on bad input the
// same error, which it gets by decoding again with Unmarshal into a
// zeroed *p (so errors cost a second decode, and their messages are
// exactly go-to-protobuf's). Like Unmarshal, it merges into what *p
// holds when it succeeds.
func Unmarshal[T any, PT Unmarshaler[T]](data []byte, p *T, fn Func[T], t *compact.Table) error {
	if err := Decode(data, p, fn, t); err != nil {
		var zero T
		*p = zero
		return PT(p).Unmarshal(data)
	}
	return nil
}

// Error is a decoding error of the fast path: where and why it stopped.
type Error struct {
	// Offset is the offset, in the message being decoded (the innermost
	// one), at which decoding stopped.
	Offset int
	Err    error
}

// Error describes the error and its offset.
func (e *Error) Error() string { return fmt.Sprintf("protodecode: at offset %d: %v", e.Offset, e.Err) }

// Unwrap returns the underlying error.
func (e *Error) Unwrap() error { return e.Err }

var (
	errTruncated = errors.New("unexpected end of the message")
	errVarint    = errors.New("varint longer than ten bytes")
	errTag       = errors.New("field number out of range")
	errWire      = errors.New("wire type the field does not take")
)

// Failed reports whether decoding has failed.
func (d *Decoder) Failed() bool { return d.err != nil }

// fail records err, the first error only.
func (d *Decoder) fail(err error) {
	if d.err == nil {
		d.err = &Error{Offset: d.pos, Err: err}
	}
}

// Next reads the next field's tag and reports whether there is one: false
// at the end of the message and after an error. A tag go-to-protobuf
// rejects (field number 0 or out of int32's range, the end-group wire
// type) or one this package does not decode (a group's) fails.
func (d *Decoder) Next() bool {
	if d.err != nil || d.pos >= len(d.buf) {
		return false
	}
	d.tag = d.pos
	tag := d.varint()
	num, wire := tag>>3, tag&7
	switch {
	case d.err != nil:
		return false
	case num == 0 || num > math.MaxInt32:
		d.fail(errTag)
		return false
	case wire == 3 || wire == 4 || wire > 5:
		d.fail(errWire)
		return false
	}
	d.field, d.wire = int32(num), wire
	return true
}

// Field returns the number of the field Next read.
func (d *Decoder) Field() int32 { return d.field }

// varint reads a varint as go-to-protobuf does: up to ten bytes, the bits
// beyond 64 dropped.
func (d *Decoder) varint() uint64 {
	var v uint64
	for i, shift := d.pos, uint(0); i < len(d.buf); i, shift = i+1, shift+7 {
		if i-d.pos == maxVarint {
			d.fail(errVarint)
			return 0
		}
		b := d.buf[i]
		v |= uint64(b&0x7F) << shift
		if b < 0x80 {
			d.pos = i + 1
			return v
		}
	}
	d.fail(errTruncated)
	return 0
}

// expect reports whether the field Next read has wire type wire, and
// fails when it has not.
func (d *Decoder) expect(wire uint64) bool {
	if d.err != nil {
		return false
	}
	if d.wire != wire {
		d.fail(errWire)
		return false
	}
	return true
}

// bytes reads a length-delimited value: a view of d's buffer.
func (d *Decoder) bytes() ([]byte, bool) {
	n := d.varint()
	if d.err != nil {
		return nil, false
	}
	if n > uint64(len(d.buf)-d.pos) {
		d.fail(errTruncated)
		return nil, false
	}
	b := d.buf[d.pos : d.pos+int(n)]
	d.pos += int(n)
	return b, true
}

// fixed reads size bytes (a fixed32 or fixed64 value).
func (d *Decoder) fixed(size int) ([]byte, bool) {
	if len(d.buf)-d.pos < size {
		d.fail(errTruncated)
		return nil, false
	}
	b := d.buf[d.pos : d.pos+size]
	d.pos += size
	return b, true
}

// Skip consumes the value of a field the decoder does not decode, as
// go-to-protobuf skips unknown fields.
func (d *Decoder) Skip() {
	if d.err != nil {
		return
	}
	switch d.wire {
	case wireVarint:
		d.varint()
	case wireFixed64:
		d.fixed(8)
	case wireBytes:
		d.bytes()
	case wireFixed32:
		d.fixed(4)
	default:
		d.fail(errWire)
	}
}

// sub decodes the length-delimited value of the current field as a
// message of its own, with fn: within it, d's buffer is the message.
func sub[T any](d *Decoder, p *T, fn Func[T]) {
	b, ok := d.bytes()
	if !ok {
		return
	}
	outer := frame{d.buf, d.pos, d.field, d.wire}
	d.buf, d.pos = b, 0
	fn(d, p)
	d.leave(outer)
}

// intern returns the string b holds, interned in d's table.
func (d *Decoder) intern(b []byte) string {
	if d.table == nil {
		return string(b)
	}
	return d.table.InternBytes(b, d.object)
}
