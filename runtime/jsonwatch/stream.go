package jsonwatch

import (
	"bufio"
	"fmt"
	"io"
	"net/http"
	"sync"

	"github.com/go-logr/logr"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/runtime/serializer/streaming"
	utilnet "k8s.io/apimachinery/pkg/util/net"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/apimachinery/pkg/watch"

	"github.com/informer-gen/informer-gen/runtime/compact"
	"github.com/informer-gen/informer-gen/runtime/jsondecode"
)

// stream is the watch.Interface of one watch stream (Watcher). Its
// goroutine, run, reads the stream's frames with client-go's JSON framer
// and streaming decoder (so a frame ends, is too large or breaks off
// exactly where client-go's does), decodes each event (decoding.event)
// and sends the events on result, unbuffered, until the stream ends or
// Stop is called; it then closes the body and result.
//
// What a caller sees is client-go's StreamWatcher over its JSON
// decoders: the same event types and objects (TypeMeta empty, a
// *metav1.Status for ERROR events), result closed without an error event
// at the stream's end, on an unexpected EOF and on a broken connection,
// and otherwise one ERROR event whose Status says "unable to decode an
// event from the watch stream: ..." with client-go's wording of the
// cause.
type stream[T any, PT Object[T]] struct {
	logger logr.Logger
	dec    *decoding[T, PT]
	body   io.ReadCloser
	result chan watch.Event
	// done is closed by the first Stop.
	done     chan struct{}
	stopOnce sync.Once
}

func newStream[T any, PT Object[T]](logger logr.Logger, dec *decoding[T, PT], body io.ReadCloser) *stream[T, PT] {
	s := &stream[T, PT]{logger: logger, dec: dec, body: body, result: make(chan watch.Event), done: make(chan struct{})}
	go s.run()
	return s
}

// FromServer marks the stream as a server's (cache.ServerStream): a watch
// list over it waits for the server's progress, as over client-go's
// StreamWatcher.
func (s *stream[T, PT]) FromServer() {}

// ResultChan implements watch.Interface.
func (s *stream[T, PT]) ResultChan() <-chan watch.Event { return s.result }

// Stop implements watch.Interface: it closes the body, which ends run.
func (s *stream[T, PT]) Stop() {
	s.stopOnce.Do(func() {
		close(s.done)
		_ = s.body.Close()
	})
}

// run is the stream's goroutine (StreamWatcher.receive).
func (s *stream[T, PT]) run() {
	defer utilruntime.HandleCrashWithLogger(s.logger)
	defer close(s.result)
	defer s.Stop()
	next, err := s.dec.events(bufio.NewReader(s.body))
	if err != nil {
		s.end(err)
		return
	}
	s.end(s.send(next))
}

// send sends the events next decodes until next fails or Stop is called,
// and returns next's error (nil after Stop).
func (s *stream[T, PT]) send(next func() (watch.Event, error)) error {
	for {
		ev, err := next()
		if err != nil {
			return err
		}
		select {
		case <-s.done:
			return nil
		case s.result <- ev:
		}
	}
}

// end reports the error that ended the stream as StreamWatcher.receive
// does.
func (s *stream[T, PT]) end(err error) {
	switch {
	case err == nil: // stopped
	case err == io.EOF:
	case err == io.ErrUnexpectedEOF:
		s.logger.V(1).Info("Unexpected EOF during watch stream event decoding", "err", err)
	case utilnet.IsProbableEOF(err) || utilnet.IsTimeout(err):
		s.logger.V(5).Info("Unable to decode an event from the watch stream", "err", err)
	default:
		select {
		case <-s.done:
			// Stopped: the error is the closed body's. (client-go's
			// StreamWatcher may send it or not; after Stop it is noise.)
			return
		default:
		}
		reporter := apierrors.NewClientErrorReporter(http.StatusInternalServerError, http.MethodGet, "ClientWatchDecoding")
		select {
		case <-s.done:
		case s.result <- watch.Event{Type: watch.Error, Object: reporter.AsObject(fmt.Errorf("unable to decode an event from the watch stream: %v", err))}:
		}
	}
}

// decoding is what the streams of one Watcher decode with: T's kind and
// generated decoder, and the clientset's codecs for the rest.
type decoding[T any, PT Object[T]] struct {
	kind   schema.GroupVersionKind
	codecs runtime.NegotiatedSerializer
	// json is the codecs' JSON serializer (StreamSerializer nil when
	// they have none) and objects its decoder of the events' objects:
	// the ones client-go's REST client uses for a JSON watch.
	json    runtime.SerializerInfo
	objects runtime.Decoder
	decode  func(frame []byte, p *T) (watch.EventType, bool)
	// decoded compacts the objects decode decoded for the informer
	// (Watcher.Decoded); nil compacts none.
	decoded compact.DecodedSession
	// decodeCompact, when not nil, decodes into the compact object
	// (jsondecode.DecodeEventCompact, asking previous for the hint);
	// the stream's goroutine uses it once decoded is enabled.
	decodeCompact func(frame []byte, p *T, previous jsondecode.Previous) (watch.EventType, bool)
	previousFn    jsondecode.Previous // d.previous, made once
	// asked is what the last object decoded by decodeCompact was
	// decoded against (previous); used by the stream's goroutine only.
	asked askedPrevious
}

// events returns the decoder of the events of the stream r buffers: a
// stream one of the codecs' other stream serializers (protobuf, CBOR)
// recognizes from its first bytes is decoded as client-go decodes it,
// any other as JSON.
func (d *decoding[T, PT]) events(r *bufio.Reader) (func() (watch.Event, error), error) {
	_, _ = r.Peek(1)
	start, _ := r.Peek(r.Buffered())
	for _, info := range d.codecs.SupportedMediaTypes() {
		rd, ok := info.Serializer.(recognizingDecoder)
		if info.StreamSerializer == nil || info.MediaType == runtime.ContentTypeJSON || !ok {
			continue
		}
		if recognized, _, _ := rd.RecognizesData(start); !recognized {
			continue
		}
		events := streaming.NewDecoder(info.StreamSerializer.Framer.NewFrameReader(io.NopCloser(r)), info.StreamSerializer.Serializer)
		objects := d.codecs.DecoderToVersion(info.Serializer, nil)
		return func() (watch.Event, error) { return decodeEvent(events, objects) }, nil
	}
	return d.jsonEvents(r)
}

// jsonEvents returns the decoder of the events of the JSON stream r
// buffers: client-go's JSON framer, then event for each frame.
func (d *decoding[T, PT]) jsonEvents(r *bufio.Reader) (func() (watch.Event, error), error) {
	if d.json.StreamSerializer == nil {
		return nil, fmt.Errorf("jsonwatch: the codecs of %v have no JSON stream serializer", d.kind)
	}
	var last frame
	frames := streaming.NewDecoder(d.json.StreamSerializer.Framer.NewFrameReader(io.NopCloser(r)), &last)
	return func() (watch.Event, error) {
		if _, _, err := frames.Decode(nil, nil); err != nil {
			return watch.Event{}, err
		}
		return d.event(last.data)
	}, nil
}

// recognizingDecoder is a serializer that tells its format from the first
// bytes (apimachinery's recognizer.RecognizingDecoder).
type recognizingDecoder interface {
	RecognizesData(peek []byte) (ok, unknown bool, err error)
}

// frame is the runtime.Decoder under client-go's streaming decoder that
// only keeps the frame it is given (valid until the next Decode), for
// decoding.event.
type frame struct{ data []byte }

// Decode implements runtime.Decoder.
func (f *frame) Decode(data []byte, _ *schema.GroupVersionKind, into runtime.Object) (runtime.Object, *schema.GroupVersionKind, error) {
	f.data = data
	return into, nil, nil
}
