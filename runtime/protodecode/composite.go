package protodecode

// Message decodes an embedded message field (wire type bytes) into the
// value at p with fn, merging into what it holds, as go-to-protobuf's
// m.X.Unmarshal(...) does.
func Message[T any](d *Decoder, p *T, fn Func[T]) {
	if d.expect(wireBytes) {
		sub(d, p, fn)
	}
}

// OptMessage decodes an optional message field (*T): into the value *p
// points to, allocated first when nil.
func OptMessage[T any](d *Decoder, p **T, fn Func[T]) {
	if !d.expect(wireBytes) {
		return
	}
	if *p == nil {
		*p = new(T)
	}
	sub(d, *p, fn)
}

// Messages decodes one element of a repeated message field ([]T),
// appended.
func Messages[T any](d *Decoder, p *[]T, fn Func[T]) {
	if !d.expect(wireBytes) {
		return
	}
	var zero T
	*p = append(*p, zero)
	sub(d, &(*p)[len(*p)-1], fn)
}

// Unmarshaled is the Func of a type decoded by its own go-to-protobuf
// Unmarshal method (resource.Quantity, metav1.Time, intstr.IntOrString,
// runtime.RawExtension, ... and any type the generated code does not
// decode field by field): its strings are not interned.
func Unmarshaled[T any, PT Unmarshaler[T]](d *Decoder, p *T) {
	if d.err != nil {
		return
	}
	if err := PT(p).Unmarshal(d.buf[d.pos:]); err != nil {
		d.fail(err)
		return
	}
	d.pos = len(d.buf)
}

// StringMap decodes one entry of a map field of strings
// (map[string]string, castkey and casttype included).
func StringMap[K ~string, V ~string, M ~map[K]V](d *Decoder, p *M) {
	outer, ok := enterEntry(d, p)
	var k K
	var v V
	for ok && d.Next() {
		switch d.Field() {
		case 1:
			String(d, &k)
		case 2:
			String(d, &v)
		default:
			d.Skip()
		}
	}
	if ok && d.leave(outer) {
		(*p)[k] = v
	}
}

// BytesMap decodes one entry of a map field of bytes (map[string][]byte):
// a missing value is []byte{}, as go-to-protobuf makes it.
func BytesMap[K ~string, M ~map[K][]byte](d *Decoder, p *M) {
	outer, ok := enterEntry(d, p)
	var k K
	v := []byte{}
	for ok && d.Next() {
		switch d.Field() {
		case 1:
			String(d, &k)
		case 2:
			v = nil // a new slice for each value
			Bytes(d, &v)
		default:
			d.Skip()
		}
	}
	if ok && d.leave(outer) {
		(*p)[k] = v
	}
}

// MessageMap decodes one entry of a map field of messages
// (map[ResourceName]resource.Quantity): each value is decoded with fn
// into a new zero value.
func MessageMap[K ~string, V any, M ~map[K]V](d *Decoder, p *M, fn Func[V]) {
	outer, ok := enterEntry(d, p)
	var k K
	var v V
	for ok && d.Next() {
		switch d.Field() {
		case 1:
			String(d, &k)
		case 2:
			var zero V
			v = zero
			Message(d, &v, fn)
		default:
			d.Skip()
		}
	}
	if ok && d.leave(outer) {
		(*p)[k] = v
	}
}

// frame is where a Decoder is in the message enclosing an embedded one
// (enterEntry, leave).
type frame struct {
	buf   []byte
	pos   int
	field int32
	wire  uint64
}

// enterEntry starts decoding a map field's entry, a message with the key
// in field 1 and the value in field 2, making the map at p when nil. A
// key or value field of another wire type fails (go-to-protobuf reads it
// as a length whatever its wire type: the caller then decodes the message
// with Unmarshal, for its result or error).
func enterEntry[K comparable, V any, M ~map[K]V](d *Decoder, p *M) (frame, bool) {
	if !d.expect(wireBytes) {
		return frame{}, false
	}
	b, ok := d.bytes()
	if !ok {
		return frame{}, false
	}
	if *p == nil {
		*p = make(M)
	}
	outer := frame{d.buf, d.pos, d.field, d.wire}
	d.buf, d.pos = b, 0
	return outer, true
}

// leave returns to the enclosing message after an embedded one, and
// reports whether the embedded one decoded without error.
func (d *Decoder) leave(outer frame) bool {
	if d.err != nil {
		return false
	}
	d.buf, d.pos, d.field, d.wire = outer.buf, outer.pos, outer.field, outer.wire
	return true
}
