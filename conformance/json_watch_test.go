package conformance

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"strings"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer/streaming"
	"k8s.io/apimachinery/pkg/watch"
	restclientwatch "k8s.io/client-go/rest/watch"

	stablev1 "github.com/informer-gen/informer-gen/examples/crd/apis/stable/v1"
	crdscheme "github.com/informer-gen/informer-gen/examples/crd/pkg/generated/clientset/versioned/scheme"
	_ "github.com/informer-gen/informer-gen/examples/crd/pkg/generated/informers/externalversions/stable/v1" // registers the generated Widget decoders
	"github.com/informer-gen/informer-gen/runtime/compact"
	"github.com/informer-gen/informer-gen/runtime/jsondecode"
	"github.com/informer-gen/informer-gen/runtime/jsonwatch"
)

// The JSON watch stream of a custom resource, as the generated Widget
// informer of examples/crd decodes it (jsonwatch.Watcher with the
// generated decoder) and as client-go's REST client decodes it
// (Request.Watch: the JSON framer, streaming decoder and
// restclientwatch.Decoder over the clientset's codecs).

func testWidget(name, rv string) *stablev1.Widget {
	return &stablev1.Widget{
		TypeMeta:   metav1.TypeMeta{APIVersion: "stable.example.com/v1", Kind: "Widget"},
		ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: name, ResourceVersion: rv, UID: "uid-" + "name", Labels: map[string]string{"app": "a"}},
		Spec:       stablev1.WidgetSpec{Color: "red", Size: 3, Tags: []string{"x", name}},
		Status:     stablev1.WidgetStatus{Phase: "Ready"},
	}
}

// widgetEvent is one event of a JSON watch stream, as the server writes
// it.
func widgetEvent(t testing.TB, eventType string, obj runtime.Object) string {
	t.Helper()
	return string(encodeJSONWatchEvent(t, crdscheme.Codecs, eventType, obj))
}

// clientGoWidgetEvents decodes stream as client-go's REST client decodes
// a JSON watch of the examples' clientset.
func clientGoWidgetEvents(stream string) []watch.Event {
	codecs := crdscheme.Codecs.WithoutConversion()
	info, _ := runtime.SerializerInfoForMediaType(codecs.SupportedMediaTypes(), runtime.ContentTypeJSON)
	frames := info.StreamSerializer.Framer.NewFrameReader(io.NopCloser(strings.NewReader(stream)))
	w := watch.NewStreamWatcher(
		restclientwatch.NewDecoder(streaming.NewDecoder(frames, info.StreamSerializer.Serializer), codecs.DecoderToVersion(info.Serializer, nil)),
		apierrors.NewClientErrorReporter(http.StatusInternalServerError, http.MethodGet, "ClientWatchDecoding"))
	return drain(w)
}

// ourWidgetEvents decodes stream as the generated Widget informer does;
// fast counts the events its generated decoder took.
func ourWidgetEvents(t *testing.T, stream string) (events []watch.Event, fast int) {
	t.Helper()
	generated, ok := jsondecode.For[stablev1.Widget]()
	if !ok {
		t.Fatal("no generated Widget decoder registered")
	}
	jw := &jsonwatch.Watcher[stablev1.Widget, *stablev1.Widget]{
		Open: func(context.Context, metav1.ListOptions) (io.ReadCloser, error) {
			return io.NopCloser(strings.NewReader(stream)), nil
		},
		Watch: func(context.Context, metav1.ListOptions) (watch.Interface, error) {
			t.Fatal("the typed watch was used")
			return nil, nil
		},
		Kind:   stablev1.SchemeGroupVersion.WithKind("Widget"),
		Codecs: crdscheme.Codecs.WithoutConversion(),
		Decode: func(d *jsondecode.Decoder, p *stablev1.Widget) {
			generated(d, p)
			if p.Annotations == nil {
				p.Annotations = map[string]string{}
			}
			p.Annotations[generatedMark] = ""
		},
		Table: compact.NewTable(),
	}
	w, err := jw.WatchWithContext(context.Background(), metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	events = drain(w)
	for _, ev := range events {
		if w, ok := ev.Object.(*stablev1.Widget); ok {
			if _, marked := w.Annotations[generatedMark]; marked {
				fast++
				delete(w.Annotations, generatedMark)
				if len(w.Annotations) == 0 {
					w.Annotations = nil
				}
			}
		}
	}
	return events, fast
}

// generatedMark is the annotation ourWidgetEvents's decoder adds to what
// the generated decoder decoded, and removes from the events it returns:
// it tells the events the generated decoder took from those the codecs
// decoded.
const generatedMark = "conformance.informer-gen.io/generated-decoder"

func TestJSONWatchDecodesWhatClientGoDecodes(t *testing.T) {
	a, b := widgetEvent(t, "ADDED", testWidget("a", "10")), widgetEvent(t, "ADDED", testWidget("b", "11"))
	modified := widgetEvent(t, "MODIFIED", testWidget("a", "12"))
	bookmark := widgetEvent(t, "BOOKMARK", &stablev1.Widget{
		TypeMeta:   metav1.TypeMeta{APIVersion: "stable.example.com/v1", Kind: "Widget"},
		ObjectMeta: metav1.ObjectMeta{ResourceVersion: "60", Annotations: map[string]string{metav1.InitialEventsAnnotationKey: "true"}},
	})
	deleted := widgetEvent(t, "DELETED", testWidget("a", "13"))
	gone := widgetEvent(t, "ERROR", &metav1.Status{
		TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Status"},
		Status:   metav1.StatusFailure, Code: http.StatusGone, Reason: metav1.StatusReasonExpired,
		Message: "too old resource version: 1 (50)",
	})
	gadget := widgetEvent(t, "ADDED", &stablev1.Gadget{TypeMeta: metav1.TypeMeta{APIVersion: "stable.example.com/v1", Kind: "Gadget"}, ObjectMeta: metav1.ObjectMeta{Name: "g"}})
	for _, tc := range []struct {
		name   string
		stream string
		fast   int // events the generated decoder takes
	}{
		{"events of every type in order, then the stream's end", a + modified + bookmark + deleted, 4},
		{"an ERROR event carries the server's Status", a + gone, 1},
		{"an empty stream", "", 0},
		{"white space between and after events", a + "\n\n  " + b + "  \n", 2},
		{"a stream cut inside an event ends without an error", a + b[:len(b)/2], 1},
		{"a stream cut inside a string", a + b[:strings.Index(b, `"red"`)+3], 1},
		{"an unknown event type ends the watch with an error", a + strings.Replace(b, `"ADDED"`, `"RENAMED"`, 1), 1},
		{"an event type in another case", strings.Replace(a, `"ADDED"`, `"Added"`, 1), 0},
		{"an event type that is not a string", strings.Replace(a, `"ADDED"`, `7`, 1), 0},
		{"an event without a type", strings.Replace(a, `"type":"ADDED",`, ``, 1), 0},
		{"an event without an object", `{"type":"ADDED"}` + "\n", 0},
		{"a null object", `{"type":"ADDED","object":null}` + "\n", 0},
		{"an object that is an array", `{"type":"ADDED","object":[1,2]}` + "\n", 0},
		{"an object that is a string", `{"type":"ADDED","object":"x"}` + "\n", 0},
		{"an event that is not an object", a + "[1]\n", 1},
		{"an event that is not JSON", a + "{not json}\n", 1},
		{"garbage after an event", a + "}\n", 1},
		{"an invalid object: a field of the wrong JSON kind", strings.Replace(a, `"size":3`, `"size":"3"`, 1), 0},
		{"an invalid object: an integer out of range", strings.Replace(a, `"size":3`, `"size":1e400`, 1), 0},
		{"an invalid object: metadata that is not an object", strings.Replace(a, `"metadata":{`, `"metadata":[],"x":{`, 1), 0},
		{"an object of another kind", a + gadget, 1},
		{"an object without a kind", strings.Replace(a, `"kind":"Widget",`, ``, 1), 0},
		{"an object without an apiVersion", strings.Replace(a, `"apiVersion":"stable.example.com/v1",`, ``, 1), 0},
		{"an object of another version", strings.Replace(a, `stable.example.com/v1`, `stable.example.com/v2`, 1), 0},
		{"a kind spelt in another case beside the kind", strings.Replace(a, `"kind":"Widget",`, `"kind":"Widget","KIND":"Gadget",`, 1), 0},
		{"an apiVersion spelt in another case", strings.Replace(a, `"apiVersion":"stable.example.com/v1",`, `"apiversion":"stable.example.com/v1",`, 1), 0},
		{"a repeated type: the last one counts", strings.Replace(a, `"type":"ADDED"`, `"type":"DELETED","type":"ADDED"`, 1), 0},
		{"a repeated object: the last one counts", strings.Replace(a, `"object":`, `"object":{"kind":"Gadget"},"object":`, 1), 0},
		{"an extra member of the event", strings.Replace(a, `"type"`, `"extra":{},"type"`, 1), 0},
		{"a kind in the event envelope", strings.Replace(a, `"type"`, `"kind":"WatchEvent","type"`, 1), 0},
		{"unknown members of the object are dropped", strings.Replace(a, `"spec":{`, `"spec":{"unknown":[1,{"a":null}],`, 1), 1},
		{"escapes and invalid UTF-8 in strings", strings.Replace(a, `"red"`, "\"r\\u00e9d\xff\\ud800\"", 1), 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, fast := ourWidgetEvents(t, tc.stream)
			sameEvents(t, got, clientGoWidgetEvents(tc.stream))
			if fast != tc.fast {
				t.Errorf("the generated decoder took %d events, want %d", fast, tc.fast)
			}
		})
	}
}

// TestJSONWatchDecodesCorruptStreamsAsClientGoDoes changes random bytes of
// a valid stream (or cuts it) and compares what the two decoders make of
// it.
func TestJSONWatchDecodesCorruptStreamsAsClientGoDoes(t *testing.T) {
	var valid string
	for i, typ := range []string{"ADDED", "MODIFIED", "BOOKMARK", "DELETED"} {
		valid += widgetEvent(t, typ, testWidget(fmt.Sprint("w", i), fmt.Sprint(10+i)))
	}
	alphabet := []byte(`{}[]":,0123456789 \tabcdeklnrstuvxADEIKMW-.eE+\` + "\n\xff")
	rnd := rand.New(rand.NewPCG(3, 4))
	for i := range 3000 {
		stream := []byte(valid)
		for range 1 + rnd.IntN(3) {
			stream[rnd.IntN(len(stream))] = alphabet[rnd.IntN(len(alphabet))]
		}
		stream = stream[:len(stream)-rnd.IntN(8)]
		got, _ := ourWidgetEvents(t, string(stream))
		if !sameEvents(t, got, clientGoWidgetEvents(string(stream))) {
			t.Fatalf("stream %d (%q) decodes differently", i, stream)
		}
	}
}
