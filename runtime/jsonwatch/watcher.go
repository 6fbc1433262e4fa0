package jsonwatch

import (
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
)

// ErrNoStream is what Watcher.Open returns when its client cannot
// open a raw watch stream (a fake clientset, a clientset wrapped by the
// user): the Watcher then watches through the typed client.
var ErrNoStream = errors.New("jsonwatch: the client cannot open a raw watch stream")

// Object is an API object: *T, a runtime.Object.
type Object[T any] interface {
	*T
	runtime.Object
}

// Watcher watches objects of type T through the watch stream it opens
// with the clientset's REST client, and decodes a JSON stream itself:
// each event's object is decoded once, by the generated decoder Decode,
// from the frame it arrives in. The events, their objects (with an empty
// TypeMeta) and the errors a caller sees are client-go's (see stream); a
// stream in another format is decoded as client-go decodes it.
//
// Generated informers of JSON types, when informer-gen generated their
// decoders, watch through one, with Open calling OpenStream with the
// clientset's REST client and Watch the typed client's:
//
//	watchWidgets := &jsonwatch.Watcher[stablev1.Widget, *stablev1.Widget]{Open: open, Watch: typed, Kind: gvk, Codecs: scheme.Codecs.WithoutConversion(), Decode: decodeWidget, Table: compact.Default()}
//	lw.WatchFuncWithContext = watchWidgets.WatchWithContext
//
// A Watcher is safe for concurrent use; its fields must not change after
// the first WatchWithContext.
type Watcher[T any, PT Object[T]] struct {
	// Open opens the raw watch stream (OpenStream), or returns
	// ErrNoStream when the client cannot.
	Open func(ctx context.Context, options metav1.ListOptions) (io.ReadCloser, error)
	// Watch is the typed client's Watch.
	Watch func(ctx context.Context, options metav1.ListOptions) (watch.Interface, error)
	// Kind is T's group, version and kind: objects of this kind in a
	// JSON stream are decoded by Decode.
	Kind schema.GroupVersionKind
	// Codecs is the clientset's (its scheme package's
	// Codecs.WithoutConversion()), required: it decodes what the fast
	// path does not (Status objects, malformed frames, objects of other
	// kinds) and streams in other formats, as client-go would.
	Codecs runtime.NegotiatedSerializer
	// Decode is T's generated JSON decoder (jsondecode.For); nil makes
	// every watch the typed client's.
	Decode jsondecode.Func[T]
	// Table interns the strings Decode decodes (the informer's
	// compaction table); nil interns nothing.
	Table *compact.Table
	// Decoded, when set, is the informer's too
	// (SharedIndexInformerOptions.Decoded of runtime/cache): the objects
	// Decode decodes are then compacted on the stream's goroutine, as
	// the informer would compact them, before they are sent, and the
	// informer does not compact them again (compact.Decoded).
	Decoded *compact.Decoded

	// refused is set once the server refused the request's content
	// type; it is never cleared.
	refused atomic.Bool
}

// WatchWithContext starts a watch; it is a runtime/cache
// WatchFuncWithContext.
func (w *Watcher[T, PT]) WatchWithContext(ctx context.Context, options metav1.ListOptions) (watch.Interface, error) {
	if w.Decode == nil || w.refused.Load() {
		return w.Watch(ctx, options)
	}
	body, err := w.Open(ctx, options)
	if err == nil {
		return newStream(klog.FromContext(ctx), w.decoding(), body), nil
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

// decoding is what a stream of the Watcher decodes with, in a session of
// its own (compact.DecodedSession): what an earlier stream handed over
// is no hint for this one's objects.
func (w *Watcher[T, PT]) decoding() *decoding[T, PT] {
	return newDecoding[T, PT](Decoding[T]{Kind: w.Kind, Codecs: w.Codecs, Decode: w.Decode, Table: w.Table, Session: w.Decoded.Begin()})
}
