package jsonwatch

import (
	"bufio"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/watch"

	"github.com/informer-gen/informer-gen/runtime/compact"
	"github.com/informer-gen/informer-gen/runtime/jsondecode"
)

// Decoding is what one JSON watch stream of T is decoded with (Events):
// a Watcher's stream's, given to another package's stream that receives
// a JSON answer (runtime/protowatch's, for a client configured for
// JSON). Its fields are the Watcher's of the same names, and the session
// of the one stream it decodes.
type Decoding[T any] struct {
	// Kind is T's group, version and kind: objects of this kind are
	// decoded by Decode.
	Kind schema.GroupVersionKind
	// Codecs is the clientset's (Codecs.WithoutConversion()), required:
	// it decodes what Decode does not, as client-go would.
	Codecs runtime.NegotiatedSerializer
	// Decode is T's generated JSON decoder (jsondecode.For); nil leaves
	// every frame to Codecs.
	Decode jsondecode.Func[T]
	// Table interns the strings Decode decodes; nil interns nothing.
	Table *compact.Table
	// Session hands the objects Decode decodes over to the informer
	// (compact.Decoded.Begin, once per stream, never shared by two
	// streams): decoded into the compact object and adopted, or
	// compacted as the informer would, once the informer enabled its
	// Decoded; managedFields are left out when it strips them. The zero
	// session hands nothing over.
	Session compact.DecodedSession
}

// Events returns the decoder of the events of the JSON watch stream r
// buffers, decoded as a Watcher's stream decodes them: each call returns
// the next event, or the error that ends the stream (io.EOF at its end),
// the events, objects and errors being those of client-go's
// restclientwatch.Decoder over the codecs' JSON serializer. An event of
// Kind is decoded by Decode from its frame (into the compact object,
// handed over through Session, when the informer's Decoded is enabled
// and T's decoder builds it); any other frame (a Status on an ERROR
// event, a malformed frame, an object of another kind) is decoded by the
// codecs, for client-go's object or error. Its error is that the codecs
// have no JSON stream serializer. The decoder is used by one goroutine.
func Events[T any, PT Object[T]](r *bufio.Reader, d Decoding[T]) (func() (watch.Event, error), error) {
	return newDecoding[T, PT](d).jsonEvents(r)
}

// newDecoding is what a stream decodes with d.
func newDecoding[T any, PT Object[T]](d Decoding[T]) *decoding[T, PT] {
	decode, table, session := d.Decode, d.Table, d.Session
	dec := &decoding[T, PT]{kind: d.Kind, codecs: d.Codecs, decoded: session, decode: func([]byte, *T) (watch.EventType, bool) {
		return "", false
	}}
	if decode != nil {
		dec.decode = func(frame []byte, p *T) (watch.EventType, bool) {
			return jsondecode.DecodeEvent(frame, p, decode, table)
		}
	}
	if decode != nil && table != nil && jsondecode.Compacts[T]() {
		// Used once session's Decoded is enabled (never for the zero
		// session).
		dec.decodeCompact = func(frame []byte, p *T, previous jsondecode.Previous) (watch.EventType, bool) {
			return jsondecode.DecodeEventCompact(frame, p, decode, table, previous, session.Omit())
		}
		dec.previousFn = dec.previous
	}
	if info, ok := runtime.SerializerInfoForMediaType(d.Codecs.SupportedMediaTypes(), runtime.ContentTypeJSON); ok && info.StreamSerializer != nil {
		dec.json = info
		dec.objects = d.Codecs.DecoderToVersion(info.Serializer, nil)
	}
	return dec
}
