package conformance

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer/protobuf"
	"k8s.io/apimachinery/pkg/runtime/serializer/streaming"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/kubernetes/scheme"
	restclientwatch "k8s.io/client-go/rest/watch"

	_ "github.com/informer-gen/informer-gen/internal/corev1gen/informers/externalversions/core/v1" // registers the generated decoders
	"github.com/informer-gen/informer-gen/runtime/compact"
	"github.com/informer-gen/informer-gen/runtime/jsondecode"
	"github.com/informer-gen/informer-gen/runtime/protodecode"
	"github.com/informer-gen/informer-gen/runtime/protowatch"
)

// protobufFrame is one frame of a protobuf watch stream: a 4-byte
// big-endian length, then a metav1.WatchEvent.
func protobufFrame(t *testing.T, eventType string, raw []byte) []byte {
	t.Helper()
	data, err := (&metav1.WatchEvent{Type: eventType, Object: runtime.RawExtension{Raw: raw}}).Marshal()
	if err != nil {
		t.Fatal(err)
	}
	return append(binary.BigEndian.AppendUint32(nil, uint32(len(data))), data...)
}

// protobufObject is obj as the server encodes it in a watch event: the
// protobuf envelope (runtime.Unknown) around the object.
func protobufObject(t *testing.T, obj runtime.Object) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := protobuf.NewSerializer(scheme.Scheme, scheme.Scheme).Encode(obj, &buf); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func testPod(name, rv string) *corev1.Pod {
	return &corev1.Pod{
		TypeMeta:   metav1.TypeMeta{APIVersion: "v1", Kind: "Pod"},
		ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: name, ResourceVersion: rv, Labels: map[string]string{"app": "a"}},
		Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Image: "img:" + name, Args: []string{"--x=" + name}}}},
		Status:     corev1.PodStatus{Phase: corev1.PodRunning, PodIP: "10.0.0.1"},
	}
}

// clientGoEvents decodes stream with client-go's protobuf watch decoder,
// as its REST client's Request.Watch does.
func clientGoEvents(stream []byte) []watch.Event {
	return clientGoEventsOf(runtime.ContentTypeProtobuf, stream)
}

// clientGoEventsOf decodes stream with client-go's watch decoder of
// mediaType.
func clientGoEventsOf(mediaType string, stream []byte) []watch.Event {
	info, _ := runtime.SerializerInfoForMediaType(scheme.Codecs.WithoutConversion().SupportedMediaTypes(), mediaType)
	frames := info.StreamSerializer.Framer.NewFrameReader(io.NopCloser(bytes.NewReader(stream)))
	objects := scheme.Codecs.WithoutConversion().DecoderToVersion(info.Serializer, nil)
	w := watch.NewStreamWatcher(
		restclientwatch.NewDecoder(streaming.NewDecoder(frames, info.StreamSerializer.Serializer), objects),
		apierrors.NewClientErrorReporter(http.StatusInternalServerError, http.MethodGet, "ClientWatchDecoding"))
	return drain(w)
}

// ourEvents decodes stream with protowatch.Watcher, the way every
// decoding variant does; it fails t when two variants disagree, and
// returns the events of the first (Pod.Unmarshal's).
func ourEvents(t *testing.T, stream []byte) []watch.Event {
	t.Helper()
	first := ourEventsWith(t, stream, nil, nil)
	generated, ok := protodecode.For[corev1.Pod]()
	if !ok {
		t.Fatal("no generated protobuf decoder registered for Pod")
	}
	if !sameEvents(t, ourEventsWith(t, stream, generated, nil), first) {
		t.Errorf("the generated protobuf decoder (want) and Pod.Unmarshal (got) decode %q differently", stream)
	}
	return first
}

// ourEventsWith decodes stream with a protowatch.Watcher whose Decode is
// decode (nil: Pod.Unmarshal) and DecodeJSON decodeJSON (nil: client-go's
// decoders of a JSON stream), interning strings in a table of its own.
func ourEventsWith(t *testing.T, stream []byte, decode protodecode.Func[corev1.Pod], decodeJSON jsondecode.Func[corev1.Pod]) []watch.Event {
	t.Helper()
	pw := &protowatch.Watcher[corev1.Pod, *corev1.Pod]{
		Decode:     decode,
		DecodeJSON: decodeJSON,
		Table:      compact.NewTable(),
		Open: func(context.Context, metav1.ListOptions) (io.ReadCloser, error) {
			return io.NopCloser(bytes.NewReader(stream)), nil
		},
		Watch: func(context.Context, metav1.ListOptions) (watch.Interface, error) {
			t.Fatal("the typed watch was used")
			return nil, nil
		},
		Kind:   corev1.SchemeGroupVersion.WithKind("Pod"),
		Codecs: scheme.Codecs.WithoutConversion(),
	}
	w, err := pw.WatchWithContext(context.Background(), metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return drain(w)
}

// sameEvents reports whether got, ours, are want, client-go's: the same
// types and semantically equal objects, in order; it says where not.
func sameEvents(t *testing.T, got, want []watch.Event) bool {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("%d events, client-go %d:\n ours %v\n client-go %v", len(got), len(want), got, want)
		return false
	}
	same := true
	for i := range want {
		if got[i].Type != want[i].Type || !equality.Semantic.DeepEqual(got[i].Object, want[i].Object) {
			t.Errorf("event %d:\n ours      %s %#v\n client-go %s %#v", i, got[i].Type, got[i].Object, want[i].Type, want[i].Object)
			same = false
		}
	}
	return same
}

func drain(w watch.Interface) []watch.Event {
	var out []watch.Event
	for ev := range w.ResultChan() {
		out = append(out, ev)
	}
	return out
}

func TestProtobufWatchDecodesWhatClientGoDecodes(t *testing.T) {
	pod := func(name, rv string) []byte { return protobufObject(t, testPod(name, rv)) }
	status := protobufObject(t, &metav1.Status{
		TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Status"},
		Status:   metav1.StatusFailure, Code: http.StatusGone, Reason: metav1.StatusReasonExpired,
		Message: "too old resource version: 1 (50)",
	})
	bookmark := protobufObject(t, &corev1.Pod{
		TypeMeta:   metav1.TypeMeta{APIVersion: "v1", Kind: "Pod"},
		ObjectMeta: metav1.ObjectMeta{ResourceVersion: "60", Annotations: map[string]string{metav1.InitialEventsAnnotationKey: "true"}},
	})
	noKind := protobufObject(t, testPod("x", "1"))
	noKind = bytes.Replace(noKind, []byte("\x12\x03Pod"), []byte("\x12\x00"), 1) // the envelope's kind, emptied
	configMap := protobufObject(t, &corev1.ConfigMap{TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "ConfigMap"}, Data: map[string]string{"k": "v"}})
	cat := func(frames ...[]byte) []byte { return bytes.Join(frames, nil) }
	huge := binary.BigEndian.AppendUint32(nil, 17<<20)

	for _, tc := range []struct {
		name   string
		stream []byte
	}{
		{"events of every type in order, then the stream's end", cat(
			protobufFrame(t, "ADDED", pod("a", "10")), protobufFrame(t, "MODIFIED", pod("a", "11")),
			protobufFrame(t, "BOOKMARK", bookmark), protobufFrame(t, "DELETED", pod("a", "12")))},
		{"an ERROR event carries the server's Status", cat(protobufFrame(t, "ADDED", pod("a", "10")), protobufFrame(t, "ERROR", status))},
		{"an empty stream", nil},
		{"a stream cut inside a frame ends without an event", cat(protobufFrame(t, "ADDED", pod("a", "10")), protobufFrame(t, "ADDED", pod("b", "11"))[:40])},
		{"a stream cut inside a header ends without an event", cat(protobufFrame(t, "ADDED", pod("a", "10")), []byte{0, 0})},
		{"a stream cut after a header ends without an event", cat(protobufFrame(t, "ADDED", pod("a", "10")), []byte{0, 0, 0, 9})},
		{"an unknown event type ends the watch with an error", cat(protobufFrame(t, "ADDED", pod("a", "10")), protobufFrame(t, "RENAMED", pod("a", "11")))},
		{"an empty frame ends the watch with an error", cat(protobufFrame(t, "ADDED", pod("a", "10")), []byte{0, 0, 0, 0})},
		{"an object without the protobuf envelope", protobufFrame(t, "ADDED", []byte(`{"kind":"Pod"}`))},
		{"an object that is only the envelope", protobufFrame(t, "ADDED", []byte("k8s\x00"))},
		{"an empty object", protobufFrame(t, "ADDED", nil)},
		{"an object without a kind", protobufFrame(t, "ADDED", noKind)},
		{"an object of another kind", protobufFrame(t, "ADDED", configMap)},
		{"a malformed event", cat([]byte{0, 0, 0, 3}, []byte{0x0a, 0x09, 'A'})},
		{"a malformed object", protobufFrame(t, "ADDED", append([]byte("k8s\x00"), 0x0a, 0x7f, 0x01))},
		{"a frame over 16 MiB", cat(protobufFrame(t, "ADDED", pod("a", "10")), huge)},
		{"a field repeated in the event: the last type counts", cat([]byte{0, 0, 0, 12}, []byte{0x0a, 0x03, 'F', 'O', 'O'}, protobufFrame(t, "ADDED", nil)[4:])},
		{"an unknown field of the event is skipped", cat(protobufFrame(t, "ADDED", pod("a", "10"))[:4], []byte{0x18, 0x01}, protobufFrame(t, "ADDED", pod("a", "10"))[4:])},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sameEvents(t, ourEvents(t, tc.stream), clientGoEvents(tc.stream))
		})
	}
}

// jsonEvent is one event of a JSON watch stream.
func jsonEvent(t *testing.T, eventType string, obj runtime.Object) []byte {
	t.Helper()
	return encodeJSONWatchEvent(t, scheme.Codecs, eventType, obj)
}

// TestProtobufWatchDecodesJSONStreamsAsClientGoDoes: a server answers in
// JSON to a client configured for JSON, and for a type it does not serve
// in protobuf.
func TestProtobufWatchDecodesJSONStreamsAsClientGoDoes(t *testing.T) {
	events := bytes.Join([][]byte{
		jsonEvent(t, "ADDED", testPod("a", "10")), jsonEvent(t, "MODIFIED", testPod("a", "11")),
		jsonEvent(t, "ERROR", &metav1.Status{TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Status"}, Status: metav1.StatusFailure, Code: http.StatusGone}),
	}, nil)
	for _, tc := range []struct {
		name   string
		stream []byte
	}{
		{"events of JSON streams", events},
		{"a JSON stream cut inside an event", events[:len(events)-20]},
		{"an unknown event type", append(jsonEvent(t, "ADDED", testPod("a", "10")), []byte(`{"type":"RENAMED","object":{"kind":"Pod","apiVersion":"v1"}}`)...)},
		{"an event that is not JSON", append(jsonEvent(t, "ADDED", testPod("a", "10")), []byte("{not json}")...)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			want := clientGoEventsOf(runtime.ContentTypeJSON, tc.stream)
			sameEvents(t, ourEvents(t, tc.stream), want)
			// With the generated JSON decoder (what generated Pod
			// informers set): the same events, the Pods decoded by it.
			generated, ok := jsondecode.For[corev1.Pod]()
			if !ok {
				t.Fatal("no generated JSON decoder registered for Pod")
			}
			var calls int
			counted := func(d *jsondecode.Decoder, p *corev1.Pod) {
				calls++
				generated(d, p)
			}
			sameEvents(t, ourEventsWith(t, tc.stream, nil, counted), want)
			if calls == 0 {
				t.Error("the generated JSON decoder decoded nothing")
			}
		})
	}
}

// TestProtobufWatchDecodesCorruptStreamsAsClientGoDoes flips random bytes
// of a valid stream and compares what the two decoders make of it.
func TestProtobufWatchDecodesCorruptStreamsAsClientGoDoes(t *testing.T) {
	var valid []byte
	for i, typ := range []string{"ADDED", "MODIFIED", "BOOKMARK", "DELETED"} {
		valid = append(valid, protobufFrame(t, typ, protobufObject(t, testPod(fmt.Sprint("p", i), fmt.Sprint(10+i))))...)
	}
	rnd := rand.New(rand.NewPCG(1, 2))
	for i := range 3000 {
		stream := bytes.Clone(valid)
		for range 1 + rnd.IntN(3) {
			stream[rnd.IntN(len(stream))] = byte(rnd.IntN(256))
		}
		stream = stream[:len(stream)-rnd.IntN(8)]
		if !sameEvents(t, ourEvents(t, stream), clientGoEvents(stream)) {
			t.Fatalf("stream %d (%q) decodes differently", i, stream)
		}
	}
}

// TestProtobufWatchObjectsOutliveTheFrameBuffer checks that objects
// decoded from earlier frames are intact after later frames reused the
// buffer they were decoded from.
func TestProtobufWatchObjectsOutliveTheFrameBuffer(t *testing.T) {
	var stream []byte
	var want []*corev1.Pod
	for i := range 200 {
		p := testPod(strings.Repeat("p", 1+i%37), "1")
		stream = append(stream, protobufFrame(t, "ADDED", protobufObject(t, p))...)
		p.TypeMeta = metav1.TypeMeta{}
		want = append(want, p)
	}
	got := ourEvents(t, stream)
	if len(got) != len(want) {
		t.Fatalf("%d events, want %d", len(got), len(want))
	}
	for i, ev := range got {
		if !equality.Semantic.DeepEqual(ev.Object, want[i]) {
			t.Fatalf("event %d: %#v, want %#v", i, ev.Object, want[i])
		}
	}
}
