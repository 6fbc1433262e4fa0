package jsondecode

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"sync"
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/informer-gen/informer-gen/runtime/compact"
)

// Func decodes the JSON value at d's position into the value at p, as
// sigs.k8s.io/json would decode it into a value that already holds *p.
type Func[T any] func(d *Decoder, p *T)

// Decoder reads one JSON document with a validating tokenizer
// (jsontext) and interns the strings it decodes in a compact.Table. Its
// errors are sticky: after the first one, every read is a no-op and
// returns zero values, so decoding functions need not check each call;
// loops stop on Failed.
//
// A Decoder is used by one goroutine; Decode and Unmarshal take one from
// a pool.
type Decoder struct {
	dec     *jsontext.Decoder
	src     bytes.Buffer
	table   *compact.Table
	object  uint64
	scratch []byte
	err     error
	// typeDepth, when not 0, is the nesting depth (jsontext's StackDepth)
	// of the object whose member names Field checks for spellings of
	// "kind" and "apiVersion" that only a case-insensitive decoder takes
	// (DecodeEvent); folded records one.
	typeDepth int
	folded    bool
	// itemsDepth, when not 0, is the nesting depth of a list's items
	// (DecodeList): each object starting there gets its own object number.
	itemsDepth int
	// share, when not nil, is shareState: the decoder builds the compact
	// object (share.go); child decodes the values Shared decodes.
	share      *sharing
	shareState sharing
	child      *Decoder
	// omit are the parts left out (DecodeEventCompact,
	// DecodeListCompact); omitFrom is the metadata whose managedFields
	// are left out (compact.OmitManagedFields): the event's object's, or
	// the list item's being decoded; nil for none.
	omit     compact.Omit
	omitFrom *metav1.ObjectMeta
}

// options are the tokenizer's options for sigs.k8s.io/json's (encoding/json
// v1's) syntax: duplicate names are allowed (the last one wins), and
// invalid UTF-8 in strings is accepted and replaced by U+FFFD.
var options = []jsontext.Options{jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true)}

var decoders = sync.Pool{New: func() any { return &Decoder{dec: jsontext.NewDecoder(bytes.NewReader(nil))} }}

// Decode decodes data, one JSON document, into p with fn, interning the
// strings it decodes in t (none when t is nil). It is the fast path
// alone: its errors are its own (an *Error), and *p holds what was decoded
// before the error. Unmarshal is what callers want.
func Decode[T any](data []byte, p *T, fn Func[T], t *compact.Table) error {
	d := decoders.Get().(*Decoder)
	d.reset(data, t)
	fn(d, p)
	err := d.finish()
	// The pooled decoder keeps nothing of data, nor the table.
	d.dec.Reset(bytes.NewReader(nil))
	d.src, d.table = bytes.Buffer{}, nil
	decoders.Put(d)
	return err
}

// Unmarshal decodes data into p as sigs.k8s.io/json's
// UnmarshalCaseSensitivePreserveInts does (apimachinery's JSON
// serializer), with fn and interning strings in t: the same object, and on
// bad input the same error, which it gets by decoding again with
// sigs.k8s.io/json into a zeroed *p (so errors cost a second decode, and
// their messages are exactly client-go's).
func Unmarshal[T any](data []byte, p *T, fn Func[T], t *compact.Table) error {
	if err := Decode(data, p, fn, t); err != nil {
		var zero T
		*p = zero
		return reflective(data, p)
	}
	return nil
}

// Error is a decoding error of the fast path: where and why it stopped.
type Error struct {
	// Offset is the input offset at which decoding stopped.
	Offset int64
	Err    error
}

// Error describes the error and its offset.
func (e *Error) Error() string { return fmt.Sprintf("jsondecode: at offset %d: %v", e.Offset, e.Err) }

// Unwrap returns the underlying error.
func (e *Error) Unwrap() error { return e.Err }

// errType is a value of a JSON kind the Go type cannot hold (a type error
// of sigs.k8s.io/json).
var errType = errors.New("value of the wrong JSON kind for the Go type")

func (d *Decoder) reset(data []byte, t *compact.Table) {
	// jsontext reads a bytes.Buffer's bytes in place: no copy of data.
	d.src = *bytes.NewBuffer(data)
	d.dec.Reset(&d.src, options...)
	d.table, d.err = t, nil
	d.object = 0
	d.typeDepth, d.folded, d.itemsDepth = 0, false, 0
	d.share = nil
	d.omit, d.omitFrom = 0, nil
	if t != nil {
		d.object = compact.DecodedObject()
	}
}

// finish checks that nothing but white space follows the document.
func (d *Decoder) finish() error {
	if d.err == nil {
		if _, err := d.dec.ReadToken(); err != io.EOF {
			if err == nil {
				err = errors.New("data after the top-level value")
			}
			d.fail(err)
		}
	}
	return d.err
}

// Failed reports whether decoding has failed.
func (d *Decoder) Failed() bool { return d.err != nil }

// fail records err, the first error only.
func (d *Decoder) fail(err error) {
	if d.err == nil {
		d.err = &Error{Offset: d.dec.InputOffset(), Err: err}
	}
}

// peek returns the kind of the next token, or 0 after an error.
func (d *Decoder) peek() jsontext.Kind {
	if d.err != nil {
		return 0
	}
	k := d.dec.PeekKind()
	if k == 0 {
		_, err := d.dec.ReadToken()
		if err == nil || err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		d.fail(err)
	}
	return k
}

// token consumes a token whose kind is known (a delimiter, a literal).
func (d *Decoder) token() {
	if _, err := d.dec.ReadToken(); err != nil {
		d.fail(err)
	}
}

// Skip consumes the next value, validating it.
func (d *Decoder) Skip() {
	if d.err != nil {
		return
	}
	if err := d.dec.SkipValue(); err != nil {
		d.fail(err)
	}
}

// skipWrong consumes a value of a kind the Go type cannot hold and fails.
func (d *Decoder) skipWrong() {
	d.Skip()
	d.fail(errType)
}

// Raw returns the next value as it is in the input, valid until the next
// read, or nil after an error.
func (d *Decoder) Raw() []byte {
	if d.err != nil {
		return nil
	}
	v, err := d.dec.ReadValue()
	if err != nil {
		d.fail(err)
		return nil
	}
	return v
}

// Null consumes the next value and reports true when it is null; it
// consumes nothing otherwise.
func (d *Decoder) Null() bool {
	if d.peek() != 'n' {
		return false
	}
	d.token()
	return true
}

// Object starts an object: it returns true after its '{', false after a
// null (which leaves the Go value as it is, as for a struct), and false
// after failing on any other kind.
func (d *Decoder) Object() bool {
	switch d.peek() {
	case '{':
		d.nextItem()
		d.token()
		return d.err == nil
	case 'n':
		d.token()
	case 0:
	default:
		d.skipWrong()
	}
	return false
}

// Field returns the next member name of the object Object started,
// unquoted and valid until the next read, or false after its '}' (or an
// error).
func (d *Decoder) Field() ([]byte, bool) {
	if d.peek() == '}' {
		d.token()
		return nil, false
	}
	if d.err != nil {
		return nil, false
	}
	name := d.unquoted(d.Raw())
	if d.typeDepth != 0 && d.dec.StackDepth() == d.typeDepth {
		d.folded = d.folded || foldsToTypeMeta(name)
	}
	return name, d.err == nil
}

// Array starts an array: true after its '[', false after a null or a
// failure on another kind (null is the caller's to handle first).
func (d *Decoder) Array() bool {
	switch d.peek() {
	case '[':
		d.token()
		return d.err == nil
	case 0, 'n':
	default:
		d.skipWrong()
	}
	return false
}

// More reports whether the array Array started has another element, and
// consumes its ']' when it has not.
func (d *Decoder) More() bool {
	switch d.peek() {
	case ']':
		d.token()
		return false
	case 0:
		return false
	}
	return true
}

// unquoted returns the contents of the JSON string raw (a valid one, the
// tokenizer checked it): raw's own bytes when it has no escape and is
// valid UTF-8, else its decoding in the scratch buffer, with invalid
// UTF-8 and unpaired surrogates replaced by U+FFFD as encoding/json does.
func (d *Decoder) unquoted(raw []byte) []byte {
	if len(raw) < 2 {
		return nil
	}
	inner := raw[1 : len(raw)-1]
	if plain(inner) || (bytes.IndexByte(inner, '\\') < 0 && utf8.Valid(inner)) {
		return inner
	}
	// The only errors left are the replacements (the tokenizer validated
	// the syntax); the replaced text is what encoding/json produces.
	d.scratch, _ = jsontext.AppendUnquote(d.scratch[:0], raw)
	return d.scratch
}

// stringBytes returns the contents of the next value, a string, valid
// until the next read; ok is false for null (nothing to do) and after
// failing on another kind.
func (d *Decoder) stringBytes() (b []byte, ok bool) {
	switch d.peek() {
	case '"':
		raw := d.Raw()
		return d.unquoted(raw), d.err == nil
	case 'n':
		d.token()
	case 0:
	default:
		d.skipWrong()
	}
	return nil, false
}

// intern returns b as a string, interned in the decoder's table when it
// has one.
func (d *Decoder) intern(b []byte) string {
	if d.table == nil || d.listLevel() {
		return string(b)
	}
	return d.table.InternBytes(b, d.object)
}

// plain reports whether s is ASCII without a backslash, eight bytes at a
// time: the common string, which one pass tells apart.
func plain(s []byte) bool {
	const ones, highs, backslashes = 0x0101010101010101, 0x8080808080808080, 0x5c5c5c5c5c5c5c5c
	for len(s) >= 8 {
		x := binary.LittleEndian.Uint64(s)
		y := x ^ backslashes // a zero byte where s has a backslash
		if (x|(y-ones)&^y)&highs != 0 {
			return false
		}
		s = s[8:]
	}
	for _, c := range s {
		if c >= utf8.RuneSelf || c == '\\' {
			return false
		}
	}
	return true
}
