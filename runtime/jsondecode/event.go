package jsondecode

import (
	"bytes"
	"unsafe"

	"k8s.io/apimachinery/pkg/watch"

	"github.com/informer-gen/informer-gen/runtime/compact"
)

// DecodeEvent decodes frame, one JSON watch event as a Kubernetes server
// writes it ({"type":"ADDED","object":{...}}), the event's object into p
// with fn, interning strings in t (none when t is nil), and returns the
// event's type.
//
// ok is true only when the frame takes the shape whose result is
// certainly what client-go's JSON watch decoding makes of it once the
// caller checked the type and the object's kind: an object with exactly
// the members "type" (one of the five event types) and "object" (an
// object), each once,
// the object decoded by fn without error, and no member of the object
// named "kind" or "apiVersion" in another case (apimachinery finds an
// object's kind case-insensitively, encoding/json's way, while fn
// decodes case-sensitively). Otherwise *p holds whatever was decoded
// and the caller decodes the frame as client-go does, for its result or
// error.
func DecodeEvent[T any](frame []byte, p *T, fn Func[T], t *compact.Table) (eventType watch.EventType, ok bool) {
	return decodeEvent(frame, p, fn, t, nil, 0)
}

// DecodeEventCompact is DecodeEvent building the compact object (see
// Shared): with t not nil, *p comes out as the informer's compaction walk
// would leave it, previous giving the version it replaces (see
// Previous), provided fn's type's generated decoders share every part
// the walk shares (RegisterCompact says so of a type). omit names parts
// of the object left out (their values skipped, not decoded):
// compact.OmitManagedFields for an informer that strips them. A value
// skipped is checked as JSON only: managedFields that client-go's decoder
// would reject for their content are dropped instead, as the informer
// would have dropped them.
func DecodeEventCompact[T any](frame []byte, p *T, fn Func[T], t *compact.Table, previous Previous, omit compact.Omit) (eventType watch.EventType, ok bool) {
	return decodeEvent(frame, p, fn, t, previous, omit)
}

func decodeEvent[T any](frame []byte, p *T, fn Func[T], t *compact.Table, previous Previous, omit compact.Omit) (eventType watch.EventType, ok bool) {
	d := decoders.Get().(*Decoder)
	startEvent(d, frame, p, t, previous, omit)
	sawType, sawObject := false, false
	fine := d.Object()
	for name, more := d.Field(); fine && more; name, more = d.Field() {
		switch {
		case string(name) == "type" && !sawType && d.peek() == '"':
			sawType = true
			eventType, fine = knownEventType(d.unquoted(d.Raw()))
		case string(name) == "object" && !sawObject && d.peek() == '{':
			sawObject = true
			d.typeDepth = d.dec.StackDepth() + 1
			fn(d, p)
			d.typeDepth = 0
		default:
			fine = false
		}
	}
	ok = fine && sawType && sawObject && !d.folded && d.finish() == nil
	d.dec.Reset(bytes.NewReader(nil))
	d.src, d.table, d.share, d.shareState = bytes.Buffer{}, nil, nil, sharing{}
	decoders.Put(d)
	return eventType, ok
}

// startEvent readies d to decode frame, an event whose object goes into
// p: into the compact object against previous when t and previous are
// set, leaving out what omit names.
func startEvent[T any](d *Decoder, frame []byte, p *T, t *compact.Table, previous Previous, omit compact.Omit) {
	d.reset(frame, t)
	if omit&compact.OmitManagedFields != 0 {
		d.omit, d.omitFrom = omit, compact.MetaOf(p)
	}
	if t != nil && previous != nil {
		d.shareState = sharing{root: uintptr(unsafe.Pointer(p)), size: unsafe.Sizeof(*p), rootObj: p, previous: previous}
		d.share = &d.shareState
	}
}

// foldsToTypeMeta reports whether name is "kind" or "apiVersion" in
// another case, as encoding/json matches member names (bytes.EqualFold
// since Go 1.21).
func foldsToTypeMeta(name []byte) bool {
	return (string(name) != "kind" && bytes.EqualFold(name, []byte("kind"))) ||
		(string(name) != "apiVersion" && bytes.EqualFold(name, []byte("apiVersion")))
}

// knownEventType returns the event type named name, if it is one,
// without allocating (the constant, not a copy of name).
func knownEventType(name []byte) (watch.EventType, bool) {
	for _, t := range [...]watch.EventType{watch.Added, watch.Modified, watch.Deleted, watch.Bookmark, watch.Error} {
		if string(name) == string(t) {
			return t, true
		}
	}
	return "", false
}
