package jsondecode

import (
	"bytes"
	"unsafe"

	"github.com/informer-gen/informer-gen/runtime/compact"
)

// listItemsDepth is the tokenizer's nesting depth (jsontext's StackDepth)
// inside a list's "items" array: the top-level object is 1, the array 2.
const listItemsDepth = 2

// DecodeList decodes data, a LIST response's body as a Kubernetes server
// writes it (one JSON object, a list kind), into p with fn, the list's
// generated decoder, interning strings in t (none when t is nil). Each
// object the list holds is decoded as an object of its own for the
// table's admission (its own compact.DecodedObject number, as a watch
// event's object has), so strings that repeat across the page's items
// are shared as they would be across events.
//
// ok is true only when the body takes the shape whose result is
// certainly what apimachinery's JSON serializer makes of it once the
// caller checked the list's kind: decoded by fn without error, nothing
// but white space after it, and no member of the top-level object named
// "kind" or "apiVersion" in another case (apimachinery finds an object's
// kind case-insensitively, encoding/json's way, while fn decodes
// case-sensitively). Otherwise *p holds whatever was decoded and the
// caller decodes the body as client-go does, for its result or error.
func DecodeList[T any](data []byte, p *T, fn Func[T], t *compact.Table) (ok bool) {
	return decodeList(data, p, fn, t, false, nil, 0)
}

// DecodeListCompact is DecodeList building each item of the list into
// the compact object, as DecodeEventCompact builds a watch event's
// object: with t not nil, each item comes out as the informer's
// compaction walk would leave it given the version previous gives for it
// (nil previous, or a nil answer: no previous version, as for a first
// list's items), provided the item type's generated decoders share every
// part the walk shares (RegisterCompact says so of a type;
// CompactsType). The list's own parts (its metadata, its items' slice)
// are decoded as DecodeList decodes them. omit is DecodeEventCompact's,
// for each item.
func DecodeListCompact[T any](data []byte, p *T, fn Func[T], t *compact.Table, previous ItemPrevious, omit compact.Omit) (ok bool) {
	return decodeList(data, p, fn, t, t != nil, previous, omit)
}

// ItemPrevious is Previous for the items of a list (DecodeListCompact):
// the version of the i-th item of the list's items (root, the pointer it
// is decoded into) that it replaces in the informer's cache, or nil. It
// is called at most once per item, as Previous is; an answer of another
// type than root's is taken as no previous version.
type ItemPrevious func(i int, root any) (old any)

func decodeList[T any](data []byte, p *T, fn Func[T], t *compact.Table, share bool, previous ItemPrevious, omit compact.Omit) (ok bool) {
	d := decoders.Get().(*Decoder)
	d.reset(data, t)
	d.omit = omit
	d.typeDepth = 1
	if t != nil {
		d.itemsDepth = listItemsDepth
	}
	if share {
		// The list itself has no previous version: every part is the
		// table's, or the list's own. Each item's is asked for as it is
		// decoded (startItem).
		d.shareState = sharing{ready: true, resolved: true, items: previous}
		d.share = &d.shareState
	}
	fn(d, p)
	ok = !d.folded && d.finish() == nil
	d.dec.Reset(bytes.NewReader(nil))
	d.src, d.table, d.share, d.shareState = bytes.Buffer{}, nil, nil, sharing{}
	decoders.Put(d)
	return ok
}

// startItem starts the decoding of the i-th item of the list's items
// into p, when d decodes a list into the compact object
// (DecodeListCompact) and p is such an item: its managedFields are left
// out when omitted, and, against the items' previous versions (with an
// ItemPrevious), its parts are taken from its previous version, as an
// event's object's are.
func startItem[E any](d *Decoder, i int, p *E) {
	s := d.share
	if s == nil || s != &d.shareState || d.dec.StackDepth() != d.itemsDepth {
		return
	}
	if d.omit&compact.OmitManagedFields != 0 {
		d.omitFrom = compact.MetaOf(p)
	}
	if s.items != nil {
		*s = sharing{root: uintptr(unsafe.Pointer(p)), size: unsafe.Sizeof(*p), rootObj: p, items: s.items, item: i}
	}
}

// nextItem gives the object that starts at the decoder's position its own
// object number when it is an item of the list DecodeList decodes.
func (d *Decoder) nextItem() {
	if d.itemsDepth != 0 && d.dec.StackDepth() == d.itemsDepth {
		d.object = compact.DecodedObject()
	}
}

// listLevel reports whether a list decoded into the compact object
// (DecodeListCompact) is at a string of its own, outside its items: such
// strings are not interned, so that the items' strings are interned
// exactly as the walk of each item interns them (a string interned
// counts as a sighting in another object).
func (d *Decoder) listLevel() bool {
	return d.share != nil && d.itemsDepth != 0 && d.dec.StackDepth() < d.itemsDepth
}
