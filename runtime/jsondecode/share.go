package jsondecode

import (
	"bytes"
	"errors"
	"reflect"
	"sync"
	"unsafe"

	"github.com/go-json-experiment/json/jsontext"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/informer-gen/informer-gen/runtime/compact"
)

// Decoding into the compact object: with sharing on (DecodeEventCompact),
// the generated decoders build the object its informer's compaction walk
// would make of it, so that no walk follows. Strings are interned as
// they are decoded (Table.InternBytes); each slice, map and pointer a
// generated decoder decodes goes through Shared, which
//
//   - takes the canonical copy the Table's memo holds for exactly the
//     bytes of the value (compact.Memoized): nothing decoded, hashed or
//     allocated for a part already shared;
//   - in an object that replaces an older version of its key (the hint,
//     Previous), takes the old version's part when it is equal, as the
//     update walk does (compact.From);
//   - otherwise decodes the value and shares it with the walk of its type
//     (compact.ShareDecoded: the walk, Table and admission the object's
//     walk would use), memoizing it when it turned out to be a canonical
//     copy the Table held.

// Previous returns the version of the object root (the pointer the
// object is decoded into, of the type DecodeEventCompact decodes) that it
// replaces in the informer's cache, or nil; it is called at most once
// per object, once the first slice, map or pointer of the object's
// structs is about to be decoded (the metadata's name and namespace are
// decoded by then in what servers write; the caller checks the key once
// the object is decoded).
type Previous func(root any) (old any)

// sharing is a Decoder's state while it decodes into the compact object.
type sharing struct {
	// root and size are the object's memory: a field at an address in
	// it is at the same offset in old.
	root, size uintptr
	rootObj    any
	previous   Previous
	// items, for the items of a list (DecodeListCompact), is what gives
	// an item's previous version, item the index of the one decoded.
	items ItemPrevious
	item  int
	// ready is set once the object's metadata has its name and
	// namespace (metaReady): previous is not asked before.
	ready    bool
	resolved bool
	old      unsafe.Pointer // the previous version once resolved, or nil
	// hinted is whether previous was called.
	hinted bool
	// early are the object's strings decoded before it was ready (its
	// kind and apiVersion), taken from the previous version when equal
	// once it is (StringFrom).
	early  [4]*string
	nEarly int
}

// errSharedTwice stops the fast path on a repeated member holding a
// slice, map or pointer: encoding/json would decode the second into what
// the first decoded, which may now be a canonical copy other objects
// hold.
var errSharedTwice = errors.New("a member holding a shared part is repeated")

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
		s.resolved, s.hinted = true, true
		s.old = s.previousOf()
	}
	if s.old == nil {
		return nil
	}
	return (*T)(unsafe.Add(s.old, a-s.root))
}

// previousOf asks for the object's previous version and returns its
// memory, or nil: an item of a list's (items) when its type is the
// item's, else the object's (previous).
func (s *sharing) previousOf() unsafe.Pointer {
	var old any
	if s.items != nil {
		if old = s.items(s.item, s.rootObj); typeWord(old) != typeWord(s.rootObj) {
			return nil
		}
	} else {
		old = s.previous(s.rootObj)
	}
	if old == nil {
		return nil
	}
	return (*[2]unsafe.Pointer)(unsafe.Pointer(&old))[1]
}

// typeWord is the type word of an interface value: the same for two
// values of the same dynamic type.
func typeWord(v any) unsafe.Pointer { return (*[2]unsafe.Pointer)(unsafe.Pointer(&v))[0] }

// Shared decodes the next value, a slice, map or pointer, into p (which
// holds its zero value), with decode, and shares it as the object's walk
// would with walk and eq (see above); without sharing on, it is
// decode(d, p).
func Shared[T any](d *Decoder, p *T, decode Func[T], walk compact.Walk[T], eq compact.Equal[T]) {
	s := d.share
	if s == nil || d.err != nil {
		decode(d, p)
		return
	}
	if firstWord(p) != nil {
		d.fail(errSharedTwice)
		return
	}
	if old := oldOf(s, p); old != nil {
		sharedFrom(d, p, old, decode, walk, eq)
		return
	}
	raw := d.Raw()
	if raw == nil {
		return
	}
	if v, ok := compact.Memoized[T](d.table, raw); ok {
		*p = v
		return
	}
	c := d.childOf(raw)
	decode(c, p)
	err := c.finish()
	c.release()
	if err != nil {
		d.fail(err.(*Error).Err)
		return
	}
	if compact.ShareDecoded(d.table, p, walk, d.object) {
		compact.Memoize(d.table, raw, *p)
	}
}

// sharedFrom is Shared of a part the previous version of the object has
// (old): decoded in place, it becomes old's when equal, else it is
// shared as compact.From shares a changed part (a walk of its own, under
// a number of its own, under which its strings are interned as they are
// decoded). Most parts of an update are equal to the old version's,
// decoded parts of their own more often than not: the memo is not asked.
func sharedFrom[T any](d *Decoder, p, old *T, decode Func[T], walk compact.Walk[T], eq compact.Equal[T]) {
	obj := compact.DecodedObject()
	object, share := d.object, d.share
	d.object, d.share = obj, nil
	decode(d, p)
	d.object, d.share = object, share
	switch {
	case d.err != nil:
	case eq(p, old):
		*p = *old
	default:
		compact.ShareDecoded(d.table, p, walk, obj)
	}
}

// childOf returns the decoder of raw, a value d read, as part of d's
// object: the same table and object number, its nested parts decoded as
// they are, not taken from the memo: Shared's walk shares them after,
// and a canonical copy from the memo is memory other objects hold, which
// that walk would write (a string admitted since the copy was made is
// interned into it).
func (d *Decoder) childOf(raw []byte) *Decoder {
	if d.child == nil {
		d.child = &Decoder{dec: jsontext.NewDecoder(bytes.NewReader(nil))}
	}
	c := d.child
	c.reset(raw, nil)
	c.table, c.object = d.table, d.object
	return c
}

// release drops what a child decoder holds of its input.
func (d *Decoder) release() {
	d.dec.Reset(bytes.NewReader(nil))
	d.src, d.table, d.share = bytes.Buffer{}, nil, nil
}

// compacting holds the types whose generated decoders, sharing, build
// the compact object (RegisterCompact).
var compacting sync.Map

// RegisterCompact records that fn, the generated decoder of T, shares
// every part of a T that T's generated compaction walk shares, so that
// with sharing on (DecodeEventCompact) it builds the compact object:
// informer-gen's generated code calls it from init for the informer
// kinds of which that holds.
func RegisterCompact[T any](fn Func[T]) { compacting.Store(reflect.TypeFor[T](), true) }

// Compacts reports whether T's registered decoder builds the compact
// object (RegisterCompact).
func Compacts[T any]() bool {
	_, ok := compacting.Load(reflect.TypeFor[T]())
	return ok
}

// CompactsType reports whether the registered decoder of the type t
// builds the compact object (RegisterCompact): Compacts for a type known
// only at run time (the items of a list).
func CompactsType(t reflect.Type) bool {
	_, ok := compacting.Load(t)
	return ok
}

// firstWord is the data word of a slice, map or pointer.
func firstWord[T any](p *T) unsafe.Pointer { return *(*unsafe.Pointer)(unsafe.Pointer(p)) }

// metaReady records, when p is the object's own metadata, that its name
// and namespace are decoded (any other member of it comes next in what
// servers write, or its end): the previous version can be asked for, and
// the names decoded before are taken from it when equal (StringFrom).
func (d *Decoder) metaReady(p *metav1.ObjectMeta) {
	s := d.share
	if s == nil || s.ready {
		return
	}
	a := uintptr(unsafe.Pointer(p))
	if s.ready = a >= s.root && a < s.root+s.size; !s.ready {
		return
	}
	for _, f := range append(s.early[:s.nEarly:s.nEarly], &p.Name, &p.GenerateName, &p.Namespace) {
		if old := oldOf(s, f); old != nil && *old == *f {
			*f = *old
		}
	}
}

// stringFrom sets *p to the string b holds: the previous version's
// string when equal (the update walk's StringFrom), else intern(b) (own
// tells a string never interned). A string of the object decoded before
// the previous version can be asked for is taken from it later
// (metaReady).
func stringFrom[S ~string](d *Decoder, p *S, b []byte, own bool) {
	if s := d.share; s != nil {
		if old := oldOf(s, p); old != nil && string(*old) == string(b) {
			*p = *old
			return
		}
		if !s.ready && s.nEarly < len(s.early) && inObject(s, unsafe.Pointer(p)) {
			s.early[s.nEarly] = (*string)(unsafe.Pointer(p))
			s.nEarly++
		}
	}
	if own {
		*p = S(b)
		return
	}
	*p = S(d.intern(b))
}

// inObject reports whether p is in the object's own memory.
func inObject(s *sharing, p unsafe.Pointer) bool {
	a := uintptr(p)
	return a >= s.root && a < s.root+s.size
}
