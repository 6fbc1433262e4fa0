package jsonwatch

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	"k8s.io/apimachinery/pkg/watch"

	"github.com/informer-gen/informer-gen/runtime/cache"
	"github.com/informer-gen/informer-gen/runtime/compact"
	"github.com/informer-gen/informer-gen/runtime/jsondecode"
)

// The test's T is metav1.PartialObjectMetadata, with a hand-written
// decoder of the generated shape.
type object = metav1.PartialObjectMetadata

var objectKind = metav1.SchemeGroupVersion.WithKind("PartialObjectMetadata")

// fastMark is the annotation markedDecoder adds: an object carrying it
// was decoded by the generated decoder, not by the codecs.
const fastMark = "test/decoded-by"

func decodeObject(d *jsondecode.Decoder, p *object) {
	if !d.Object() {
		return
	}
	for name, ok := d.Field(); ok; name, ok = d.Field() {
		switch {
		case jsondecode.TypeMetaField(d, &p.TypeMeta, name):
		case string(name) == "metadata":
			jsondecode.ObjectMeta(d, &p.ObjectMeta)
		default:
			d.Skip()
		}
	}
}

// markedDecoder is decodeObject marking what it decoded (fastMark).
func markedDecoder(d *jsondecode.Decoder, p *object) {
	decodeObject(d, p)
	if p.Annotations == nil {
		p.Annotations = map[string]string{}
	}
	p.Annotations[fastMark] = "generated"
}

// refusingDecoder never decodes (a type error on any object): every
// frame goes to the codecs, client-go's way.
func refusingDecoder(d *jsondecode.Decoder, _ *object) {
	jsondecode.Bool(d, new(bool))
}

func testCodecs(t *testing.T) runtime.NegotiatedSerializer {
	t.Helper()
	s := runtime.NewScheme()
	if err := metav1.AddMetaToScheme(s); err != nil {
		t.Fatal(err)
	}
	metav1.AddToGroupVersion(s, schema.GroupVersion{Version: "v1"})
	return serializer.NewCodecFactory(s).WithoutConversion()
}

// serve starts a server on 127.0.0.1 answering every request with body.
func serve(t *testing.T, body string) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, body)
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// watchOver watches url's body with a Watcher decoding with decode.
func watchOver(t *testing.T, url string, decode jsondecode.Func[object]) []watch.Event {
	t.Helper()
	w := &Watcher[object, *object]{
		Open: func(ctx context.Context, _ metav1.ListOptions) (io.ReadCloser, error) {
			req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
			if err != nil {
				return nil, err
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				return nil, err
			}
			return resp.Body, nil
		},
		Watch: func(context.Context, metav1.ListOptions) (watch.Interface, error) {
			t.Fatal("the typed watch was used")
			return nil, nil
		},
		Kind: objectKind, Codecs: testCodecs(t), Decode: decode, Table: compact.NewTable(),
	}
	wi, err := w.WatchWithContext(context.Background(), metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var out []watch.Event
	for ev := range wi.ResultChan() {
		out = append(out, ev)
	}
	return out
}

const (
	added    = `{"type":"ADDED","object":{"kind":"PartialObjectMetadata","apiVersion":"meta.k8s.io/v1","metadata":{"name":"a","namespace":"ns","resourceVersion":"10","labels":{"app":"x"}}}}` + "\n"
	modified = `{"type":"MODIFIED","object":{"apiVersion":"meta.k8s.io/v1","kind":"PartialObjectMetadata","metadata":{"name":"a","namespace":"ns","resourceVersion":"11"}}}` + "\n"
	bookmark = `{"type":"BOOKMARK","object":{"kind":"PartialObjectMetadata","apiVersion":"meta.k8s.io/v1","metadata":{"resourceVersion":"12","annotations":{"k8s.io/initial-events-end":"true"}}}}` + "\n"
	deleted  = `{"object":{"kind":"PartialObjectMetadata","apiVersion":"meta.k8s.io/v1","metadata":{"name":"a","namespace":"ns","resourceVersion":"13"}},"type":"DELETED"}` + "\n"
	gone     = `{"type":"ERROR","object":{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"too old resource version: 1 (50)","reason":"Expired","code":410}}` + "\n"
)

func TestStreamsDecodeAsTheCodecsDo(t *testing.T) {
	for _, tc := range []struct {
		name, stream string
		fast         []bool // per event: decoded by the generated decoder
	}{
		{name: "events of every type, then the end", stream: added + modified + bookmark + deleted, fast: []bool{true, true, true, true}},
		{name: "an ERROR event's Status is decoded by the codecs", stream: added + gone, fast: []bool{true, false}},
		{name: "an empty stream", stream: ""},
		{name: "a stream cut inside an event ends without an error", stream: added + modified[:40], fast: []bool{true}},
		{name: "an unknown event type ends the watch with an error", stream: added + strings.Replace(modified, "MODIFIED", "RENAMED", 1), fast: []bool{true, false}},
		{name: "an event type of another case", stream: strings.Replace(added, "ADDED", "added", 1), fast: []bool{false}},
		{name: "a frame that is not JSON", stream: added + "{not json}\n", fast: []bool{true, false}},
		{name: "an object of another kind", stream: strings.Replace(added, "PartialObjectMetadata", "PartialObjectMetadataList", 1), fast: []bool{false}},
		{name: "an object without a kind", stream: strings.Replace(added, `"kind":"PartialObjectMetadata",`, "", 1), fast: []bool{false}},
		{name: "a kind in another case wins, as encoding/json finds it", stream: strings.Replace(added, `"metadata"`, `"Kind":"PartialObjectMetadataList","metadata"`, 1), fast: []bool{false}},
		{name: "a member of the wrong JSON kind", stream: strings.Replace(added, `"labels":{"app":"x"}`, `"labels":["app"]`, 1), fast: []bool{false}},
		{name: "an event member beyond type and object", stream: strings.Replace(added, `"type"`, `"extra":1,"type"`, 1), fast: []bool{false}},
		{name: "a type that is not a string", stream: `{"type":1,"object":{}}` + "\n", fast: []bool{false}},
		{name: "a null object", stream: `{"type":"ADDED","object":null}` + "\n", fast: []bool{false}},
		{name: "a frame that is not an object", stream: "[1]\n", fast: []bool{false}},
		{name: "the type repeated: the last one counts", stream: strings.Replace(added, `"type":"ADDED"`, `"type":"DELETED","type":"ADDED"`, 1), fast: []bool{false}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			url := serve(t, tc.stream)
			got, want := watchOver(t, url, markedDecoder), watchOver(t, url, refusingDecoder)
			if len(got) != len(want) {
				t.Fatalf("%d events, the codecs' %d:\n %v\n %v", len(got), len(want), got, want)
			}
			for i := range want {
				fast := unmark(got[i].Object)
				if i < len(tc.fast) && fast != tc.fast[i] {
					t.Errorf("event %d decoded by the generated decoder: %v, want %v", i, fast, tc.fast[i])
				}
				if got[i].Type != want[i].Type || !equality.Semantic.DeepEqual(got[i].Object, want[i].Object) {
					t.Errorf("event %d:\n ours   %s %#v\n codecs %s %#v", i, got[i].Type, got[i].Object, want[i].Type, want[i].Object)
				}
			}
		})
	}
}

// unmark removes fastMark from obj and reports whether it was there.
func unmark(obj runtime.Object) bool {
	o, ok := obj.(*object)
	if !ok {
		return false
	}
	_, fast := o.Annotations[fastMark]
	delete(o.Annotations, fastMark)
	if fast && len(o.Annotations) == 0 {
		o.Annotations = nil
	}
	return fast
}

func TestEventsComeWithoutTypeMeta(t *testing.T) {
	got := watchOver(t, serve(t, added), decodeObject)
	if len(got) != 1 {
		t.Fatalf("events %v, want one", got)
	}
	if o := got[0].Object.(*object); o.TypeMeta != (metav1.TypeMeta{}) || o.Name != "a" || o.Labels["app"] != "x" {
		t.Errorf("object %#v, want a's, without TypeMeta", o)
	}
}

func TestWatcherFallsBackToTheTypedWatch(t *testing.T) {
	typed := watch.NewFake()
	for _, tc := range []struct {
		name       string
		openErr    error
		decode     jsondecode.Func[object]
		wantOpened int // Open calls over two watches, each of which the typed client makes
	}{
		{name: "a client that cannot stream (a fake clientset)", openErr: ErrNoStream, decode: decodeObject, wantOpened: 2},
		{name: "no generated decoder (or turned off)", wantOpened: 0},
		{name: "a server that refuses the content type (406) is not asked again", openErr: apierrors.NewGenericServerResponse(http.StatusNotAcceptable, "GET", schema.GroupResource{Resource: "widgets"}, "", "", 0, false), decode: decodeObject, wantOpened: 1},
		{name: "a server that refuses the content type (415) is not asked again", openErr: apierrors.NewGenericServerResponse(http.StatusUnsupportedMediaType, "GET", schema.GroupResource{Resource: "widgets"}, "", "", 0, false), decode: decodeObject, wantOpened: 1},
		{name: "a broken connection: the typed client retries as client-go does", openErr: io.ErrUnexpectedEOF, decode: decodeObject, wantOpened: 2},
		{name: "an error status: the typed client's error", openErr: apierrors.NewForbidden(schema.GroupResource{Resource: "widgets"}, "", errors.New("no")), decode: decodeObject, wantOpened: 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var opened, watched atomic.Int32
			w := &Watcher[object, *object]{
				Open: func(context.Context, metav1.ListOptions) (io.ReadCloser, error) {
					opened.Add(1)
					return nil, tc.openErr
				},
				Watch: func(context.Context, metav1.ListOptions) (watch.Interface, error) {
					watched.Add(1)
					return typed, nil
				},
				Kind: objectKind, Codecs: testCodecs(t), Decode: tc.decode,
			}
			for range 2 {
				if got, err := w.WatchWithContext(context.Background(), metav1.ListOptions{}); got != typed || err != nil {
					t.Fatalf("watch %v, error %v; want the typed watch", got, err)
				}
			}
			if opened.Load() != int32(tc.wantOpened) || watched.Load() != 2 {
				t.Errorf("opened %d, typed watches %d; want %d and 2", opened.Load(), watched.Load(), tc.wantOpened)
			}
		})
	}
}

// blockingBody is a stream body that blocks until closed.
type blockingBody struct {
	closed chan struct{}
	once   atomic.Bool
}

func (b *blockingBody) Read([]byte) (int, error) {
	<-b.closed
	return 0, io.ErrClosedPipe
}

func (b *blockingBody) Close() error {
	if !b.once.Swap(true) {
		close(b.closed)
	}
	return nil
}

func TestStopEndsTheStreamAndClosesTheBody(t *testing.T) {
	body := &blockingBody{closed: make(chan struct{})}
	w := &Watcher[object, *object]{
		Open:  func(context.Context, metav1.ListOptions) (io.ReadCloser, error) { return body, nil },
		Watch: func(context.Context, metav1.ListOptions) (watch.Interface, error) { return nil, errors.New("unused") },
		Kind:  objectKind, Codecs: testCodecs(t), Decode: decodeObject,
	}
	wi, err := w.WatchWithContext(context.Background(), metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	wi.Stop()
	for ev := range wi.ResultChan() {
		t.Errorf("event after Stop: %v", ev)
	}
	if !body.once.Load() {
		t.Error("the body was not closed")
	}
}

func TestObjectsOutliveTheFrameBuffer(t *testing.T) {
	var stream bytes.Buffer
	for i := range 200 {
		name := strings.Repeat("n", 1+i%37)
		stream.WriteString(strings.Replace(added, `"name":"a"`, `"name":"`+name+`"`, 1))
	}
	got := watchOver(t, serve(t, stream.String()), decodeObject)
	if len(got) != 200 {
		t.Fatalf("%d events, want 200", len(got))
	}
	for i, ev := range got {
		if name := ev.Object.(*object).Name; name != strings.Repeat("n", 1+i%37) {
			t.Fatalf("event %d: name %q", i, name)
		}
	}
}

// The reflector waits for a server's progress on a watch list over a
// stream, not the grace it gives in-process watches.
var _ cache.ServerStream = (*stream[object, *object])(nil)
