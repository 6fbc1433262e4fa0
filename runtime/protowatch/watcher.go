package protowatch

import (
	"bufio"
	"context"
	"errors"
	"io"
	"sync/atomic"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/klog/v2"

	"github.com/informer-gen/informer-gen/runtime/compact"
	"github.com/informer-gen/informer-gen/runtime/jsondecode"
	"github.com/informer-gen/informer-gen/runtime/jsonwatch"
	"github.com/informer-gen/informer-gen/runtime/protodecode"
)

// ErrNoStream is what Watcher.Open returns when its client cannot
// open a raw watch stream (a fake clientset, a clientset wrapped by the
// user): the Watcher then watches through the typed client.
var ErrNoStream = errors.New("protowatch: the client cannot open a raw watch stream")

// Object is an API object that decodes itself from protobuf (the
// types of k8s.io/api): *T, a runtime.Object with the Unmarshal method
// go-to-protobuf generates. Unmarshal must not keep data, which the
// decoder reuses for the next event (generated Unmarshal methods copy
// every string and byte slice they keep).
type Object[T any] interface {
	*T
	runtime.Object
	Unmarshal(data []byte) error
}

// Watcher watches objects of type T through the watch stream it
// opens with the clientset's REST client, and decodes a protobuf stream
// itself: each event's object is decoded once, from the frame it arrives
// in, where client-go's watch decoder copies it twice first (the event's
// RawExtension, then the Unknown envelope). The events, their objects
// (with an empty TypeMeta) and the errors a caller sees are client-go's
// (see stream); a stream in another format (JSON, for a client
// configured for it) is decoded as client-go decodes it.
//
// Generated informers of protobuf types watch through one, with Open
// calling OpenStream with the clientset's REST client and Watch the
// typed client's:
//
//	watchPods := &protowatch.Watcher[corev1.Pod, *corev1.Pod]{Open: open, Watch: typed, Kind: gvk, Codecs: scheme.Codecs.WithoutConversion()}
//	lw.WatchFuncWithContext = watchPods.WatchWithContext
//
// It watches through Watch when Open fails (ErrNoStream included), and
// from the first time the server refuses the request's content type (406
// or 415) on. A Watcher is safe for concurrent use; the reflector calls
// WatchWithContext from its goroutine, once per watch.
type Watcher[T any, PT Object[T]] struct {
	// Open sends the request the typed client's Watch sends for options
	// (with Watch set; unthrottled; Accept asking for protobuf first
	// unless the client is configured otherwise: the REST client's
	// Request.UseProtobufAsDefault) and returns the response body (its
	// Request.Stream), or ErrNoStream: OpenStream does.
	Open func(ctx context.Context, options metav1.ListOptions) (io.ReadCloser, error)
	// Watch is the typed client's Watch.
	Watch func(ctx context.Context, options metav1.ListOptions) (watch.Interface, error)
	// Kind is T's group, version and kind: objects of this kind (and
	// Status objects) in a protobuf stream are decoded by T's Unmarshal.
	Kind schema.GroupVersionKind
	// Codecs is the clientset's (its scheme package's
	// Codecs.WithoutConversion()), required: it decodes objects of other
	// kinds, which a server does not send, and streams in other formats,
	// as client-go would.
	Codecs runtime.NegotiatedSerializer
	// Decode, when set, is T's generated protobuf decoder
	// (protodecode.For, --proto-decoders): objects of Kind are decoded by
	// it, interning their strings in Table, instead of by T's Unmarshal;
	// a frame it does not decode is decoded again by Unmarshal, for
	// Unmarshal's object or error (protodecode.Unmarshal).
	Decode protodecode.Func[T]
	// DecodeJSON, when set, is T's generated JSON decoder
	// (jsondecode.For, with informer-gen's JSON decoders): a JSON stream
	// (the server's answer to a client configured for JSON) is decoded
	// by it as runtime/jsonwatch decodes a custom resource's
	// (jsonwatch.Events): each event's object from its frame, interning
	// its strings in Table, and into the compact object handed over
	// through Decoded; a frame it does not take is decoded by client-go's
	// decoders, for their object or error. Nil: a JSON stream is decoded
	// as client-go decodes it.
	DecodeJSON jsondecode.Func[T]
	// Table interns the strings Decode and DecodeJSON decode (the
	// informer's compaction table); nil interns nothing.
	Table *compact.Table
	// Decoded, when set, is the informer's too
	// (SharedIndexInformerOptions.Decoded of runtime/cache): the objects
	// Decode and DecodeJSON decode are then compacted on the stream's goroutine, as the
	// informer would compact them, before they are sent, and the informer
	// does not compact them again (compact.Decoded).
	Decoded *compact.Decoded

	// refused is set once the server refused the request's content
	// type; it is never cleared.
	refused atomic.Bool
}

// WatchWithContext starts a watch; it is a runtime/cache
// WatchFuncWithContext.
func (w *Watcher[T, PT]) WatchWithContext(ctx context.Context, options metav1.ListOptions) (watch.Interface, error) {
	if w.refused.Load() {
		return w.Watch(ctx, options)
	}
	body, err := w.Open(ctx, options)
	if err == nil {
		return newStream[T, PT](klog.FromContext(ctx), w.kinds(), body), nil
	}
	if apierrors.IsNotAcceptable(err) || apierrors.IsUnsupportedMediaType(err) {
		if !w.refused.Swap(true) {
			klog.FromContext(ctx).Info("The server refused the content type of a raw watch stream; watching through the typed client from now on", "kind", w.Kind, "err", err)
		}
	}
	// The typed client watches this time (ErrNoStream) or tries again,
	// with client-go's retries and errors: Request.Stream retries less
	// than Request.Watch, and words some errors differently.
	return w.Watch(ctx, options)
}

// kinds is what a stream decodes itself, and client-go's decoders for
// the rest: the ones its REST client builds for a watch. It is made once
// per stream, with a session of its own (compact.DecodedSession): what
// an earlier stream handed over is no hint for this one's objects.
func (w *Watcher[T, PT]) kinds() envelopeKinds {
	k := envelopeKinds{apiVersion: w.Kind.GroupVersion().String(), kind: w.Kind.Kind, codecs: w.Codecs, other: runtime.NoopDecoder{}}
	if w.Decode != nil || w.DecodeJSON != nil {
		k.decoded = w.Decoded.Begin()
	}
	if w.Decode != nil {
		decode, table := w.Decode, w.Table
		k.decode = func(data []byte, p any) error {
			return protodecode.Unmarshal[T, PT](data, p.(*T), decode, table)
		}
		if table != nil && w.Decoded != nil && protodecode.Compacts[T]() {
			k.compactDecode = newCompactDecoding[T, PT](decode, table, k.decoded).object
		}
	}
	if w.DecodeJSON != nil {
		d := jsonwatch.Decoding[T]{Kind: w.Kind, Codecs: w.Codecs, Decode: w.DecodeJSON, Table: w.Table, Session: k.decoded}
		k.json = func(r *bufio.Reader) (func() (watch.Event, error), error) {
			return jsonwatch.Events[T, PT](r, d)
		}
	}
	if info, ok := runtime.SerializerInfoForMediaType(w.Codecs.SupportedMediaTypes(), runtime.ContentTypeProtobuf); ok {
		k.other = w.Codecs.DecoderToVersion(info.Serializer, nil)
	}
	return k
}
