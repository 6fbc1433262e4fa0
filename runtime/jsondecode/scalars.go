package jsondecode

import (
	"encoding/base64"
	"strconv"
)

// String decodes a JSON string into the string at p, interned in the
// decoder's table; null leaves it as it is.
func String[S ~string](d *Decoder, p *S) {
	if b, ok := d.stringBytes(); ok {
		if d.share != nil {
			stringFrom(d, p, b, false)
			return
		}
		*p = S(d.intern(b))
	}
}

// Own decodes a JSON string into the string at p without interning it:
// for values no two objects share (an object's UID, its resourceVersion).
func Own[S ~string](d *Decoder, p *S) {
	if b, ok := d.stringBytes(); ok {
		if d.share != nil {
			stringFrom(d, p, b, true)
			return
		}
		*p = S(b)
	}
}

// Bool decodes true or false into the bool at p; null leaves it as it is.
func Bool[B ~bool](d *Decoder, p *B) {
	switch d.peek() {
	case 't':
		d.token()
		*p = true
	case 'f':
		d.token()
		*p = false
	case 'n':
		d.token()
	case 0:
	default:
		d.skipWrong()
	}
}

// number returns the next value, a number, as it is in the input; ok is
// false for null and after failing on another kind.
func (d *Decoder) number() ([]byte, bool) {
	switch d.peek() {
	case '0':
		raw := d.Raw()
		return raw, d.err == nil
	case 'n':
		d.token()
	case 0:
	default:
		d.skipWrong()
	}
	return nil, false
}

// Int decodes a JSON number into the signed integer at p: an integer in
// range for the type, as encoding/json's strconv.ParseInt; 1.0 and 1e3
// are errors. null leaves it as it is.
func Int[I ~int | ~int8 | ~int16 | ~int32 | ~int64](d *Decoder, p *I) {
	raw, ok := d.number()
	if !ok {
		return
	}
	n, err := strconv.ParseInt(string(raw), 10, 64)
	if v := I(n); err != nil || int64(v) != n {
		d.fail(errType)
		return
	}
	*p = I(n)
}

// Uint decodes a JSON number into the unsigned integer at p, as Int.
func Uint[I ~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~uintptr](d *Decoder, p *I) {
	raw, ok := d.number()
	if !ok {
		return
	}
	n, err := strconv.ParseUint(string(raw), 10, 64)
	if v := I(n); err != nil || uint64(v) != n {
		d.fail(errType)
		return
	}
	*p = I(n)
}

// Float32 decodes a JSON number into the float32 at p; out of range is
// an error.
func Float32[F ~float32](d *Decoder, p *F) {
	if raw, ok := d.number(); ok {
		n, err := strconv.ParseFloat(string(raw), 32)
		if err != nil {
			d.fail(errType)
			return
		}
		*p = F(n)
	}
}

// Float64 decodes a JSON number into the float64 at p; out of range is
// an error.
func Float64[F ~float64](d *Decoder, p *F) {
	if raw, ok := d.number(); ok {
		n, err := strconv.ParseFloat(string(raw), 64)
		if err != nil {
			d.fail(errType)
			return
		}
		*p = F(n)
	}
}

// Bytes decodes a []byte: a JSON string holds it in standard base64 (line
// breaks ignored, as encoding/json's decoder does), an array holds its
// bytes as numbers, null makes it nil.
func Bytes(d *Decoder, p *[]byte) {
	switch d.peek() {
	case '"':
		raw := d.Raw()
		s := d.unquoted(raw)
		b := make([]byte, base64.StdEncoding.DecodedLen(len(s)))
		n, err := base64.StdEncoding.Decode(b, s)
		if err != nil {
			d.fail(err)
			return
		}
		*p = b[:n]
	case '[':
		Slice(d, p, Uint[byte])
	case 'n':
		d.token()
		*p = nil
	case 0:
	default:
		d.skipWrong()
	}
}
