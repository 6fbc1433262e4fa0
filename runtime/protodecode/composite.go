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

// mapEntry is the key and value of one map entry (a message with the
// key in field 1 and the value in field 2).
type mapEntry[K ~string, V any] struct {
	key   K
	value V
}

// StringMap decodes one entry of a map field of strings
// (map[string]string, castkey and casttype included).
func StringMap[K ~string, V ~string, M ~map[K]V](d *Decoder, p *M) {
	var e mapEntry[K, V]
	mapField(d, p, &e, String[V])
}

// BytesMap decodes one entry of a map field of bytes (map[string][]byte):
// a missing value is []byte{}, as go-to-protobuf makes it.
func BytesMap[K ~string, M ~map[K][]byte](d *Decoder, p *M) {
	e := mapEntry[K, []byte]{value: []byte{}}
	mapField(d, p, &e, func(d *Decoder, v *[]byte) {
		*v = nil // a new slice for each value
		Bytes(d, v)
	})
}

// MessageMap decodes one entry of a map field of messages
// (map[ResourceName]resource.Quantity): each value is decoded with fn
// into a new zero value.
func MessageMap[K ~string, V any, M ~map[K]V](d *Decoder, p *M, fn Func[V]) {
	var e mapEntry[K, V]
	mapField(d, p, &e, func(d *Decoder, v *V) {
		var zero V
		*v = zero
		Message(d, v, fn)
	})
}

// mapField decodes one map entry into e, with value decoding the value
// field, and stores it in the map at p, made when nil. A key or value
// field of another wire type fails (go-to-protobuf reads it as a length
// whatever its wire type: the caller then decodes the message with
// Unmarshal, for its result or error).
func mapField[K ~string, V any, M ~map[K]V](d *Decoder, p *M, e *mapEntry[K, V], value func(d *Decoder, v *V)) {
	if !d.expect(wireBytes) {
		return
	}
	if *p == nil {
		*p = make(M)
	}
	sub(d, e, func(d *Decoder, e *mapEntry[K, V]) {
		for d.Next() {
			switch d.Field() {
			case 1:
				String(d, &e.key)
			case 2:
				value(d, &e.value)
			default:
				d.Skip()
			}
		}
	})
	if d.err == nil {
		(*p)[e.key] = e.value
	}
}
