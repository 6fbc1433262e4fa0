package protodecode

import (
	"errors"
	"unsafe"

	"github.com/informer-gen/informer-gen/runtime/compact"
)

// Decoding into the compact object: with sharing on (DecodeCompact), the
// generated decoders build the object its informer's compaction walk
// would make of it, so that no walk follows. Strings are interned as
// they are decoded (Table.InternBytes); each repeated field, map and
// optional (pointer) field whose walk the version's compaction walks
// have goes through shared (SharedMessages, SharedStringMap,
// SharedOptMessage, ...), which reads the span of the field's
// consecutive records (a repeated field or a map is one record per
// element or entry; what servers write has them consecutive) and
//
//   - in an object that replaces an older version of its key (the hint,
//     Previous), decodes the span in place and takes the old version's
//     part when equal, as the update walk does (compact.From), else
//     shares it as a changed part;
//   - otherwise takes the canonical copy the Table's memo holds for
//     exactly the span's bytes (compact.Memoized): nothing decoded,
//     hashed or allocated for a part already shared;
//   - else decodes the span (its nested parts as they are: the walk
//     shares them; a canonical copy from the memo there would be
//     memory other objects hold, which the walk would write) and
//     shares the value with the walk of its type (compact.ShareDecoded:
//     the walk, Table and admission the object's walk would use),
//     memoizing it when it turned out to be a canonical copy.
//
// A field whose records are not consecutive (its value is set when its
// next record comes) fails the fast path: the caller then decodes the
// object with its Unmarshal and the compaction walk runs as before.

// Previous returns the version of the object root (the pointer the
// object is decoded into, of the type DecodeCompact decodes) that it
// replaces in the informer's cache, or nil; it is called at most once
// per object, once the object's metadata has its name and namespace.
type Previous func(root any) (old any)

// sharing is a Decoder's state while it decodes into the compact object.
type sharing struct {
	// root and size are the object's memory: a field at an address in
	// it is at the same offset in old.
	root, size uintptr
	rootObj    any
	previous   Previous
	// ready is set once the object's metadata has its name and
	// namespace (metaReady): previous is not asked before.
	ready    bool
	resolved bool
	old      unsafe.Pointer // the previous version once resolved, or nil
}

// errSharedTwice stops the fast path on a shared field whose records are
// not consecutive: its next record would be decoded into what the first
// decoded, which may now be a canonical copy other objects hold.
var errSharedTwice = errors.New("the records of a shared field are not consecutive")

// DecodeCompact is Decode building the compact object: with t not nil
// and previous not nil, *p (which holds T's zero value) comes out as
// the informer's compaction walk would leave it, previous giving the
// version it replaces, provided fn's type's generated decoders share
// every part the walk shares (RegisterCompact says so of a type). On an
// error *p holds whatever was decoded: the caller decodes again with
// the type's Unmarshal and compacts that as before.
//
// omit names parts of the object left out (their records skipped, not
// decoded): compact.OmitManagedFields for an informer that strips them
// (compact.Decoded.StripsManagedFields). A record skipped is not
// checked the way Unmarshal would check it: malformed managedFields
// that Unmarshal rejects are dropped instead, as the informer would
// have dropped them.
func DecodeCompact[T any](data []byte, p *T, fn Func[T], t *compact.Table, previous Previous, omit compact.Omit) error {
	d := decoders.Get().(*Decoder)
	*d = Decoder{buf: data, table: t}
	if omit&compact.OmitManagedFields != 0 {
		d.omitFrom = compact.MetaOf(p)
	}
	if t != nil {
		d.object = compact.DecodedObject()
		if previous != nil {
			d.shareState = sharing{root: uintptr(unsafe.Pointer(p)), size: unsafe.Sizeof(*p), rootObj: p, previous: previous}
			d.share = &d.shareState
		}
	}
	fn(d, p)
	err := d.err
	*d = Decoder{}
	decoders.Put(d)
	return err
}

// oldOf returns the field of the previous version at the offset p has in
// the object, or nil when there is none or p is not in the object's own
// memory (an element of a slice, a pointed-to struct).
func oldOf[T any](s *sharing, p *T) *T {
	a := uintptr(unsafe.Pointer(p))
	if a < s.root || a >= s.root+s.size {
		return nil
	}
	if !s.resolved {
		if !s.ready {
			return nil
		}
		s.resolved = true
		if old := s.previous(s.rootObj); old != nil {
			s.old = (*[2]unsafe.Pointer)(unsafe.Pointer(&old))[1]
		}
	}
	if s.old == nil {
		return nil
	}
	return (*T)(unsafe.Add(s.old, a-s.root))
}

// shared decodes the current field's consecutive records into p (which
// holds its zero value), one record at a time with one, and shares the
// value as the object's walk would with walk and eq (see above);
// without sharing on, it is one(d, p) for the current record.
func shared[T any](d *Decoder, p *T, one Func[T], walk compact.Walk[T], eq compact.Equal[T]) {
	s := d.share
	if s == nil || d.err != nil {
		one(d, p)
		return
	}
	if firstWord(p) != nil {
		d.fail(errSharedTwice)
		return
	}
	span, ok := d.span()
	if !ok {
		return
	}
	if old := oldOf(s, p); old != nil {
		sharedFrom(d, p, old, span, one, walk, eq)
		return
	}
	if v, ok := compact.Memoized[T](d.table, span); ok {
		*p = v
		return
	}
	// The part's own parts are decoded as they are, not taken from the
	// memo: the walk below shares them, and a canonical copy from the
	// memo is memory other objects hold, which that walk would write
	// (a string admitted since the copy was made is interned into it).
	d.share = nil
	decoded := records(d, span, p, one)
	d.share = s
	if !decoded {
		return
	}
	if compact.ShareDecoded(d.table, p, walk, d.object) {
		compact.Memoize(d.table, span, *p)
	}
}

// sharedFrom is shared of a part the previous version of the object has
// (old): decoded in place, it becomes old's when equal, else it is
// shared as compact.From shares a changed part (a walk of its own, under
// a number of its own, under which its strings are interned as they are
// decoded). Most parts of an update are equal to the old version's,
// decoded parts of their own more often than not: the memo is not asked.
func sharedFrom[T any](d *Decoder, p, old *T, span []byte, one Func[T], walk compact.Walk[T], eq compact.Equal[T]) {
	obj := compact.DecodedObject()
	object, share := d.object, d.share
	d.object, d.share = obj, nil
	decoded := records(d, span, p, one)
	d.object, d.share = object, share
	switch {
	case !decoded:
	case eq(p, old):
		*p = *old
	default:
		compact.ShareDecoded(d.table, p, walk, obj)
	}
}

// span returns the records of the field Next read last that follow each
// other from there (its tag included), and moves past them.
func (d *Decoder) span() ([]byte, bool) {
	start, field, wire := d.tag, d.field, d.wire
	for d.Skip(); d.err == nil && d.pos < len(d.buf); d.Skip() {
		at := d.pos
		if !d.Next() || d.field != field || d.wire != wire {
			d.pos, d.field, d.wire, d.err = at, field, wire, nil
			break
		}
	}
	if d.err != nil {
		return nil, false
	}
	return d.buf[start:d.pos], true
}

// records decodes span, records of one field, into p with one, and
// reports whether it decoded them without error.
func records[T any](d *Decoder, span []byte, p *T, one Func[T]) bool {
	outer := frame{d.buf, d.pos, d.field, d.wire}
	d.buf, d.pos = span, 0
	for d.Next() {
		one(d, p)
	}
	return d.leave(outer)
}

// firstWord is the data word of a slice, map or pointer.
func firstWord[T any](p *T) unsafe.Pointer { return *(*unsafe.Pointer)(unsafe.Pointer(p)) }

// metaReady records, when p is the object's own metadata (at the root
// of the object's memory), that its name and namespace are decoded: the
// previous version can be asked for, and those names are taken from it
// when equal.
func (d *Decoder) metaReady(name, generateName, namespace *string) {
	s := d.share
	if s == nil || s.ready {
		return
	}
	a := uintptr(unsafe.Pointer(name))
	if s.ready = a >= s.root && a < s.root+s.size; !s.ready {
		return
	}
	for _, f := range [...]*string{name, generateName, namespace} {
		if old := oldOf(s, f); old != nil && *old == *f {
			*f = *old
		}
	}
}

// stringFrom returns the previous version's string at p's offset when it
// equals b (the update walk's StringFrom), and whether it did.
func stringFrom[S ~string](d *Decoder, p *S, b []byte) (S, bool) {
	s := d.share
	if s == nil {
		return "", false
	}
	if old := oldOf(s, p); old != nil && string(*old) == string(b) {
		return *old, true
	}
	return "", false
}
