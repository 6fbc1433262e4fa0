package jsondecode

// Pointer decodes into the value *p points to, allocating it when *p is
// nil; null makes *p nil.
func Pointer[E any](d *Decoder, p **E, elem Func[E]) {
	if d.Null() {
		*p = nil
		return
	}
	if d.err != nil {
		return
	}
	if *p == nil {
		*p = new(E)
	}
	elem(d, *p)
}

// Slice decodes a JSON array into the slice at p as encoding/json does:
// into the slice's own backing array (element i decoded into what is
// there, up to its capacity), then appending; an empty array makes an
// empty non-nil slice, null a nil one.
func Slice[E any](d *Decoder, p *[]E, elem Func[E]) {
	if d.Null() {
		*p = nil
		return
	}
	if !d.Array() {
		return
	}
	s := (*p)[:0]
	for d.More() {
		i := len(s)
		if i < cap(s) {
			s = s[:i+1]
		} else {
			var zero E
			s = append(s, zero)
		}
		startItem(d, i, &s[i])
		elem(d, &s[i])
	}
	if len(s) == 0 {
		s = []E{}
	}
	*p = s
}

// Map decodes a JSON object into the map at p as encoding/json does: into
// the map there (made when nil), each value decoded into a zero value
// and stored under its key, interned; null makes the map nil.
func Map[K ~string, V any](d *Decoder, p *map[K]V, elem Func[V]) {
	if d.Null() {
		*p = nil
		return
	}
	if !d.Object() {
		return
	}
	m := *p
	if m == nil {
		m = make(map[K]V)
		*p = m
	}
	for name, ok := d.Field(); ok; name, ok = d.Field() {
		k := K(d.intern(name))
		var v V
		elem(d, &v)
		if d.err != nil {
			return
		}
		m[k] = v
	}
}
