package protowatch

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"net/http"
	"sync"

	"github.com/go-logr/logr"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer/streaming"
	utilnet "k8s.io/apimachinery/pkg/util/net"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/apimachinery/pkg/watch"

	"github.com/informer-gen/informer-gen/runtime/compact"
)

// stream is the watch.Interface of one protobuf watch stream
// (Watcher). Its goroutine, run, reads the stream's frames (a
// 4-byte big-endian length, then a metav1.WatchEvent), decodes each
// event's object from the frame in place, and sends the events on
// result, unbuffered, until the stream ends or Stop is called; it then
// closes the body and result.
//
// What a caller sees is client-go's StreamWatcher over its protobuf
// decoder: the same event types and objects (TypeMeta empty, a
// *metav1.Status for ERROR events), result closed without an error event
// at the stream's end, on an unexpected EOF and on a broken connection,
// and otherwise one ERROR event whose Status says "unable to decode an
// event from the watch stream: ..." with client-go's wording of the
// cause (a malformed frame is decoded again by the generated Unmarshal
// methods client-go uses, for their error).
type stream[T any, PT Object[T]] struct {
	logger logr.Logger
	kinds  envelopeKinds
	body   io.ReadCloser
	result chan watch.Event
	// done is closed by the first Stop.
	done     chan struct{}
	stopOnce sync.Once
}

// maxWatchFrame is client-go's largest watch frame (the streaming
// decoder's maxBytes).
const maxWatchFrame = 16 << 20

// protobufEnvelope starts every protobuf-encoded object ("k8s\x00").
var protobufEnvelope = []byte{0x6b, 0x38, 0x73, 0x00}

// envelopeKinds tells decodeEnvelope which objects to decode itself: a
// T has apiVersion and kind; a metav1.Status is "v1" "Status". It hands
// any other object to other, client-go's decoder of protobuf objects.
// codecs decodes streams in other formats (JSON, for a client configured
// for it).
type envelopeKinds struct {
	apiVersion, kind string
	other            runtime.Decoder
	codecs           runtime.NegotiatedSerializer
	// decode, when set, decodes a T (p, a *T) in place of its Unmarshal:
	// the generated decoder, with Unmarshal's result on any error
	// (Watcher.Decode); decoded then compacts the objects it decodes
	// (Watcher.Decoded).
	decode  func(data []byte, p any) error
	decoded compact.DecodedSession
	// compactDecode, when set, decodes a T (p, a *T) of an ADDED,
	// MODIFIED or DELETED event (deleted for the latter) into the
	// compact object and hands it to the informer, or decodes it by
	// Unmarshal and compacts it (compactDecoding.object); the stream's
	// own, used by its goroutine only.
	compactDecode func(data []byte, p any, deleted bool) error
	// json, when set, returns the decoder of the events of a JSON
	// stream r buffers, with the generated JSON decoder
	// (Watcher.DecodeJSON, jsonwatch.Events) and decoded.
	json func(r *bufio.Reader) (func() (watch.Event, error), error)
}

func newStream[T any, PT Object[T]](logger logr.Logger, kinds envelopeKinds, body io.ReadCloser) *stream[T, PT] {
	s := &stream[T, PT]{logger: logger, kinds: kinds, body: body, result: make(chan watch.Event), done: make(chan struct{})}
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

// run is the stream's goroutine (StreamWatcher.receive). A protobuf
// stream starts with a zero byte (the high byte of a frame's length); a
// stream in another format (the Accept header lets the server answer in
// JSON, for a client configured for JSON or a type not served in
// protobuf) is decoded as client-go decodes it.
func (s *stream[T, PT]) run() {
	defer utilruntime.HandleCrashWithLogger(s.logger)
	defer close(s.result)
	defer s.Stop()
	first := []byte{0}
	if _, err := io.ReadFull(s.body, first); err != nil {
		s.end(err)
		return
	}
	r := io.MultiReader(bytes.NewReader(first), s.body)
	if first[0] != 0 {
		br := bufio.NewReader(r)
		if next, ok := s.otherFormat(br); ok {
			s.end(s.send(next))
			return
		}
		r = br
	}
	var frame []byte
	s.end(s.send(func() (watch.Event, error) {
		var err error
		if frame, err = readWatchFrame(r, frame); err != nil {
			return watch.Event{}, err
		}
		return decodeWatchEvent[T, PT](s.kinds, frame)
	}))
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

// otherFormat returns the decoder of the events of a stream in a format
// other than protobuf that one of the codecs' stream serializers
// recognizes from its first bytes (buffered in r): for JSON, with the
// generated JSON decoder when the Watcher has one (kinds.json), else
// client-go's restclientwatch.Decoder over the serializer's frames.
func (s *stream[T, PT]) otherFormat(r *bufio.Reader) (func() (watch.Event, error), bool) {
	_, _ = r.Peek(1)
	start, _ := r.Peek(r.Buffered())
	for _, info := range s.kinds.codecs.SupportedMediaTypes() {
		rd, ok := info.Serializer.(recognizingDecoder)
		if info.StreamSerializer == nil || info.MediaType == runtime.ContentTypeProtobuf || !ok {
			continue
		}
		if recognized, _, _ := rd.RecognizesData(start); !recognized {
			continue
		}
		if info.MediaType == runtime.ContentTypeJSON && s.kinds.json != nil {
			if next, err := s.kinds.json(r); err == nil {
				return next, true
			}
		}
		events := streaming.NewDecoder(info.StreamSerializer.Framer.NewFrameReader(io.NopCloser(r)), info.StreamSerializer.Serializer)
		objects := s.kinds.codecs.DecoderToVersion(info.Serializer, nil)
		return func() (watch.Event, error) { return decodeOtherEvent(events, objects) }, true
	}
	return nil, false
}

// recognizingDecoder is a serializer that tells its format from the first
// bytes (apimachinery's recognizer.RecognizingDecoder).
type recognizingDecoder interface {
	RecognizesData(peek []byte) (ok, unknown bool, err error)
}

// decodeOtherEvent decodes the next event of events, whose objects
// objects decodes: client-go's restclientwatch.Decoder.Decode.
func decodeOtherEvent(events streaming.Decoder, objects runtime.Decoder) (watch.Event, error) {
	var got metav1.WatchEvent
	res, _, err := events.Decode(nil, &got)
	if err != nil {
		return watch.Event{}, err
	}
	if res != &got {
		return watch.Event{}, fmt.Errorf("unable to decode to metav1.WatchEvent")
	}
	t, ok := watchEventType([]byte(got.Type))
	if !ok {
		return watch.Event{}, fmt.Errorf("got invalid watch event type: %v", got.Type)
	}
	obj, err := runtime.Decode(objects, got.Object.Raw)
	if err != nil {
		return watch.Event{}, fmt.Errorf("unable to decode watch event: %v", err)
	}
	return watch.Event{Type: t, Object: obj}, nil
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
		reporter := apierrors.NewClientErrorReporter(http.StatusInternalServerError, http.MethodGet, "ClientWatchDecoding")
		select {
		case <-s.done:
		case s.result <- watch.Event{Type: watch.Error, Object: reporter.AsObject(fmt.Errorf("unable to decode an event from the watch stream: %v", err))}:
		}
	}
}

// readWatchFrame reads one length-prefixed frame into buf (grown as
// needed) and returns it. Its errors are client-go's frame reader's: EOF
// before a frame or after its header, ErrUnexpectedEOF within either,
// streaming.ErrObjectTooLarge once it read maxWatchFrame bytes of a
// longer frame.
func readWatchFrame(r io.Reader, buf []byte) ([]byte, error) {
	var header [4]byte
	if _, err := io.ReadFull(r, header[:]); err != nil {
		return buf, err
	}
	n := int(binary.BigEndian.Uint32(header[:]))
	if n > maxWatchFrame {
		switch read, err := io.CopyN(io.Discard, r, maxWatchFrame); {
		case err == io.EOF && read == 0:
			return buf, io.EOF
		case err == io.EOF:
			return buf, io.ErrUnexpectedEOF
		case err != nil:
			return buf, err
		}
		return buf, streaming.ErrObjectTooLarge
	}
	if cap(buf) < n {
		buf = make([]byte, n, max(n, 2*cap(buf)))
	}
	buf = buf[:n]
	_, err := io.ReadFull(r, buf)
	return buf, err
}

// decodeWatchEvent decodes one frame: a metav1.WatchEvent whose object is
// T, or a *metav1.Status for an ERROR event.
func decodeWatchEvent[T any, PT Object[T]](kinds envelopeKinds, frame []byte) (watch.Event, error) {
	if len(frame) == 0 {
		return watch.Event{}, fmt.Errorf("empty data")
	}
	eventType, raw, err := watchEventFields(frame)
	if err != nil {
		return watch.Event{}, err
	}
	t, ok := watchEventType(eventType)
	if !ok {
		return watch.Event{}, fmt.Errorf("got invalid watch event type: %v", string(eventType))
	}
	obj, err := decodeEnvelope[T, PT](kinds, raw, t)
	if err != nil {
		return watch.Event{}, fmt.Errorf("unable to decode watch event: %v", err)
	}
	return watch.Event{Type: t, Object: obj}, nil
}

// watchEventType returns the event type named name, if it is one,
// without allocating (the constant, not a copy of name).
func watchEventType(name []byte) (watch.EventType, bool) {
	for _, t := range [...]watch.EventType{watch.Added, watch.Modified, watch.Deleted, watch.Bookmark, watch.Error} {
		if string(name) == string(t) {
			return t, true
		}
	}
	return "", false
}

// watchEventFields returns a metav1.WatchEvent's type and its object's
// raw bytes, both within frame when it parses fast (scanFields), else
// what metav1.WatchEvent.Unmarshal makes of it.
func watchEventFields(frame []byte) (eventType, raw []byte, err error) {
	var object []byte
	ok := scanFields(frame, 1<<1|1<<2, func(num uint64, value []byte) {
		if num == 1 {
			eventType = value
		} else {
			object = value
		}
	})
	if ok {
		ok = scanFields(object, 1<<1, func(_ uint64, value []byte) { raw = value })
	}
	if !ok {
		var ev metav1.WatchEvent
		if err := ev.Unmarshal(frame); err != nil {
			return nil, nil, err
		}
		return []byte(ev.Type), ev.Object.Raw, nil
	}
	return eventType, raw, nil
}

// decodeEnvelope decodes an object in the protobuf envelope (a
// runtime.Unknown after protobufEnvelope): a T or a Status itself, any
// other object with kinds.other. Its errors are client-go's protobuf
// serializer's.
func decodeEnvelope[T any, PT Object[T]](kinds envelopeKinds, data []byte, t watch.EventType) (runtime.Object, error) {
	if !bytes.HasPrefix(data, protobufEnvelope) || len(data) == len(protobufEnvelope) {
		return runtime.Decode(kinds.other, data)
	}
	apiVersion, kind, raw, err := unknownFields(data[len(protobufEnvelope):])
	switch {
	case err != nil:
		return nil, err
	case string(apiVersion) == kinds.apiVersion && string(kind) == kinds.kind:
		obj := PT(new(T))
		if kinds.decode != nil {
			return obj, kinds.decodeObject(raw, (*T)(obj), t)
		}
		return obj, obj.Unmarshal(raw)
	case string(apiVersion) == "v1" && string(kind) == "Status":
		status := &metav1.Status{}
		return status, status.Unmarshal(raw)
	default:
		return runtime.Decode(kinds.other, data)
	}
}

// decodeObject decodes raw, a T, into p (a *T) with the generated
// decoder, for an event of type t: into the compact object, handed to
// the informer (compactDecode), or decoded then compacted by the walk
// as the informer would (Decoded.Compact); a BOOKMARK's or ERROR's
// object is not compacted.
func (kinds envelopeKinds) decodeObject(raw []byte, p any, t watch.EventType) error {
	switch {
	case t == watch.Bookmark || t == watch.Error:
		return kinds.decode(raw, p)
	case kinds.compactDecode != nil:
		return kinds.compactDecode(raw, p, t == watch.Deleted)
	}
	if err := kinds.decode(raw, p); err != nil {
		return err
	}
	kinds.decoded.Compact(p, t == watch.Deleted) // as the informer would
	return nil
}

// unknownFields returns the apiVersion, the kind and the raw object of a
// runtime.Unknown, all within data when it parses fast (scanFields),
// else what runtime.Unknown.Unmarshal makes of it.
func unknownFields(data []byte) (apiVersion, kind, raw []byte, err error) {
	var typeMeta []byte
	ok := scanFields(data, 1<<1|1<<2|1<<3|1<<4, func(num uint64, value []byte) {
		switch num {
		case 1:
			typeMeta = value
		case 2:
			raw = value
		}
	})
	if ok {
		ok = scanFields(typeMeta, 1<<1|1<<2, func(num uint64, value []byte) {
			if num == 1 {
				apiVersion = value
			} else {
				kind = value
			}
		})
	}
	if !ok {
		var unk runtime.Unknown
		if err := unk.Unmarshal(data); err != nil {
			return nil, nil, nil, err
		}
		return []byte(unk.APIVersion), []byte(unk.Kind), unk.Raw, nil
	}
	return apiVersion, kind, raw, nil
}

// scanFields calls field with the number and contents of each field of
// the protobuf message msg whose number is in known (a bit mask: the
// message's fields, all length-delimited in the messages of this file),
// in order, and skips the other fields. It reports whether msg is well
// formed, with each known field length-delimited and there at most once
// (a generated Unmarshal merges the occurrences of a field); when it is
// not, the callers decode msg with its generated Unmarshal method
// instead, for client-go's result or error.
func scanFields(msg []byte, known uint64, field func(num uint64, value []byte)) bool {
	var seen uint64
	for len(msg) > 0 {
		tag, n := binary.Uvarint(msg)
		num, wire := tag>>3, tag&7
		isKnown := num < 64 && known&(1<<num) != 0
		if n <= 0 || num == 0 || isKnown && (wire != 2 || seen&(1<<num) != 0) {
			return false
		}
		value, rest, ok := fieldValue(msg[n:], wire)
		if !ok {
			return false
		}
		if isKnown {
			seen |= 1 << num
			field(num, value)
		}
		msg = rest
	}
	return true
}

// fieldValue splits msg, which starts with the value of a field of wire
// type wire, into the value (the contents of a length-delimited one) and
// the rest; ok is false when msg is too short or wire is a group's, which
// no Kubernetes type has.
func fieldValue(msg []byte, wire uint64) (value, rest []byte, ok bool) {
	switch wire {
	case 0: // varint
		_, n := binary.Uvarint(msg)
		return msg[:max(n, 0)], msg[max(n, 0):], n > 0
	case 1, 5: // fixed64, fixed32
		size := 8
		if wire == 5 {
			size = 4
		}
		return msg[:min(size, len(msg))], msg[min(size, len(msg)):], len(msg) >= size
	case 2: // length-delimited
		size, n := binary.Uvarint(msg)
		if n <= 0 || size > uint64(len(msg)-n) {
			return nil, nil, false
		}
		return msg[n : n+int(size)], msg[n+int(size):], true
	}
	return nil, nil, false
}
