package protowatch

import (
	"bytes"
	"context"
	"io"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	"k8s.io/apimachinery/pkg/watch"

	"github.com/informer-gen/informer-gen/runtime/compact"
	"github.com/informer-gen/informer-gen/runtime/jsondecode"
)

// decodePartialJSON is a generated-style JSON decoder of
// PartialObjectMetadata.
func decodePartialJSON(d *jsondecode.Decoder, p *metav1.PartialObjectMetadata) {
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

// decodePartialJSON builds the compact object: its only shared parts are
// ObjectMeta's, which jsondecode.ObjectMeta shares.
func init() { jsondecode.RegisterCompact(decodePartialJSON) }

// jsonMark is the annotation markedPartialJSON adds: an object carrying
// it was decoded by the generated JSON decoder, not by the codecs.
const jsonMark = "test/decoded-by"

// markedPartialJSON is decodePartialJSON marking what it decoded.
func markedPartialJSON(d *jsondecode.Decoder, p *metav1.PartialObjectMetadata) {
	decodePartialJSON(d, p)
	if p.Annotations == nil {
		p.Annotations = map[string]string{}
	}
	p.Annotations[jsonMark] = "generated"
}

// unmarkJSON removes jsonMark from obj and reports whether it was there.
func unmarkJSON(obj runtime.Object) bool {
	o, ok := obj.(*metav1.PartialObjectMetadata)
	if !ok {
		return false
	}
	_, fast := o.Annotations[jsonMark]
	delete(o.Annotations, jsonMark)
	if fast && len(o.Annotations) == 0 {
		o.Annotations = nil
	}
	return fast
}

const (
	jsonAdded    = `{"type":"ADDED","object":{"kind":"PartialObjectMetadata","apiVersion":"meta.k8s.io/v1","metadata":{"name":"a","namespace":"ns","resourceVersion":"10","labels":{"app":"x"}}}}` + "\n"
	jsonModified = `{"type":"MODIFIED","object":{"apiVersion":"meta.k8s.io/v1","kind":"PartialObjectMetadata","metadata":{"name":"a","namespace":"ns","resourceVersion":"11"}}}` + "\n"
	jsonBookmark = `{"type":"BOOKMARK","object":{"kind":"PartialObjectMetadata","apiVersion":"meta.k8s.io/v1","metadata":{"resourceVersion":"12","annotations":{"k8s.io/initial-events-end":"true"}}}}` + "\n"
	jsonDeleted  = `{"object":{"kind":"PartialObjectMetadata","apiVersion":"meta.k8s.io/v1","metadata":{"name":"a","namespace":"ns","resourceVersion":"13"}},"type":"DELETED"}` + "\n"
	jsonGone     = `{"type":"ERROR","object":{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"too old resource version: 1 (50)","reason":"Expired","code":410}}` + "\n"
	// jsonManaged is an ADDED event of an object with managedFields.
	jsonManaged = `{"type":"ADDED","object":{"kind":"PartialObjectMetadata","apiVersion":"meta.k8s.io/v1","metadata":{"name":"m","namespace":"ns","resourceVersion":"14","managedFields":[{"manager":"kubectl","operation":"Apply","apiVersion":"v1","fieldsType":"FieldsV1","fieldsV1":{"f:metadata":{}}}]}}}` + "\n"
)

// jsonCodecs decodes metav1's objects and the Status of ERROR events.
func jsonCodecs(t *testing.T) runtime.NegotiatedSerializer {
	t.Helper()
	s := runtime.NewScheme()
	if err := metav1.AddMetaToScheme(s); err != nil {
		t.Fatal(err)
	}
	metav1.AddToGroupVersion(s, schema.GroupVersion{Version: "v1"})
	return serializer.NewCodecFactory(s).WithoutConversion()
}

// jsonWatcher is a Watcher of PartialObjectMetadata whose every watch
// reads stream, decoding JSON with decodeJSON.
func jsonWatcher(t *testing.T, stream string, decodeJSON jsondecode.Func[metav1.PartialObjectMetadata], decoded *compact.Decoded) *Watcher[metav1.PartialObjectMetadata, *metav1.PartialObjectMetadata] {
	t.Helper()
	return &Watcher[metav1.PartialObjectMetadata, *metav1.PartialObjectMetadata]{
		Open: func(context.Context, metav1.ListOptions) (io.ReadCloser, error) {
			return io.NopCloser(strings.NewReader(stream)), nil
		},
		Watch: func(context.Context, metav1.ListOptions) (watch.Interface, error) {
			t.Error("the typed watch was used")
			return watch.NewEmptyWatch(), nil
		},
		Kind: metav1.SchemeGroupVersion.WithKind("PartialObjectMetadata"), Codecs: jsonCodecs(t),
		DecodeJSON: decodeJSON, Table: compact.NewTable(), Decoded: decoded,
	}
}

// drainWatch starts a watch of pw and returns its events, calling each
// (if set) as it receives it.
func drainWatch(t *testing.T, pw *Watcher[metav1.PartialObjectMetadata, *metav1.PartialObjectMetadata], each func(watch.Event)) []watch.Event {
	t.Helper()
	w, err := pw.WatchWithContext(context.Background(), metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var out []watch.Event
	for ev := range w.ResultChan() {
		if each != nil {
			each(ev)
		}
		out = append(out, ev)
	}
	return out
}

func TestJSONStreamsDecodeWithTheGeneratedJSONDecoderAsClientGoDoes(t *testing.T) {
	for _, tc := range []struct {
		name, stream string
		fast         []bool // per event: decoded by the generated JSON decoder
	}{
		{name: "events of every type, then the end", stream: jsonAdded + jsonModified + jsonBookmark + jsonDeleted, fast: []bool{true, true, true, true}},
		{name: "an ERROR event's Status is decoded by the codecs", stream: jsonAdded + jsonGone, fast: []bool{true, false}},
		{name: "a stream cut inside an event ends without an error", stream: jsonAdded + jsonModified[:40], fast: []bool{true}},
		{name: "an unknown event type ends the watch with an error", stream: jsonAdded + strings.Replace(jsonModified, "MODIFIED", "RENAMED", 1), fast: []bool{true, false}},
		{name: "a frame that is not JSON ends the watch with an error", stream: jsonAdded + "{not json}\n", fast: []bool{true, false}},
		{name: "an object of another kind is decoded by the codecs", stream: strings.Replace(jsonAdded, "PartialObjectMetadata", "PartialObjectMetadataList", 1), fast: []bool{false}},
		{name: "a member of the wrong JSON kind is decoded by the codecs, for their error", stream: strings.Replace(jsonAdded, `"labels":{"app":"x"}`, `"labels":["app"]`, 1), fast: []bool{false}},
		{name: "an event member beyond type and object is decoded by the codecs", stream: strings.Replace(jsonAdded, `"type"`, `"extra":1,"type"`, 1), fast: []bool{false}},
		{name: "a null object is decoded by the codecs", stream: `{"type":"ADDED","object":null}` + "\n", fast: []bool{false}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// The Watcher without DecodeJSON decodes a JSON stream as
			// client-go does (conformance compares the two).
			want := drainWatch(t, jsonWatcher(t, tc.stream, nil, nil), nil)
			got := drainWatch(t, jsonWatcher(t, tc.stream, markedPartialJSON, nil), nil)
			if len(got) != len(want) {
				t.Fatalf("%d events, client-go's %d:\n %v\n %v", len(got), len(want), got, want)
			}
			for i := range want {
				if fast := unmarkJSON(got[i].Object); i < len(tc.fast) && fast != tc.fast[i] {
					t.Errorf("event %d decoded by the generated JSON decoder: %v, want %v", i, fast, tc.fast[i])
				}
				if !reflect.DeepEqual(got[i], want[i]) {
					t.Errorf("event %d:\n ours     %s %#v\n client-go %s %#v", i, got[i].Type, got[i].Object, want[i].Type, want[i].Object)
				}
			}
		})
	}
}

// informer stands for the informer of a compact.Decoded: it enables it,
// takes the events' objects, caches them by name (the hints it compacts
// against) and counts the objects its compaction walks.
type informer struct {
	decoded compact.Decoded
	walked  atomic.Int32
	mu      sync.Mutex
	cached  map[string]any // guarded by mu
}

func newInformer(stripManagedFields bool) *informer {
	inf := &informer{cached: map[string]any{}}
	inf.decoded.Enable(func(obj any) (string, error) { return obj.(*metav1.PartialObjectMetadata).Name, nil },
		func(key string) any {
			inf.mu.Lock()
			defer inf.mu.Unlock()
			return inf.cached[key]
		},
		func(any, any) { inf.walked.Add(1) }, stripManagedFields)
	return inf
}

// take is what the informer does with an event: whether it finds its
// object compacted against the version it caches, after which it caches
// the object.
func (inf *informer) take(ev watch.Event) bool {
	obj := ev.Object.(*metav1.PartialObjectMetadata)
	inf.mu.Lock()
	hint := inf.cached[obj.Name]
	inf.mu.Unlock()
	compacted := inf.decoded.Compacted(obj, hint)
	if ev.Type == watch.Added || ev.Type == watch.Modified {
		inf.mu.Lock()
		inf.cached[obj.Name] = obj
		inf.mu.Unlock()
	}
	return compacted
}

func TestJSONStreamObjectsAreHandedOverCompact(t *testing.T) {
	for _, tc := range []struct {
		name          string
		stream        string
		strip         bool
		wantCompacted []bool // per event, whether the informer finds its object compacted
		wantWalked    int32  // objects the informer's compaction walked
		wantManaged   bool   // whether the last object keeps its managedFields
	}{
		{name: "ADDED, MODIFIED and DELETED decoded compact and adopted unwalked; a BOOKMARK not handed over",
			stream: jsonAdded + jsonModified + jsonBookmark + jsonDeleted, wantCompacted: []bool{true, true, false, true}},
		{name: "an ERROR event's Status is not handed over",
			stream: jsonAdded + jsonGone, wantCompacted: []bool{true, false}},
		{name: "managedFields left out when the informer strips them",
			stream: jsonManaged, strip: true, wantCompacted: []bool{true}},
		{name: "managedFields kept when the informer does not strip them",
			stream: jsonManaged, wantCompacted: []bool{true}, wantManaged: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			inf := newInformer(tc.strip)
			var compacted []bool
			var last *metav1.PartialObjectMetadata
			drainWatch(t, jsonWatcher(t, tc.stream, decodePartialJSON, &inf.decoded), func(ev watch.Event) {
				compacted = append(compacted, ev.Type != watch.Error && inf.take(ev))
				if o, ok := ev.Object.(*metav1.PartialObjectMetadata); ok {
					last = o
				}
			})
			if !reflect.DeepEqual(compacted, tc.wantCompacted) || inf.walked.Load() != tc.wantWalked {
				t.Errorf("compacted %v, %d walked; want %v and %d", compacted, inf.walked.Load(), tc.wantCompacted, tc.wantWalked)
			}
			if managed := last != nil && len(last.ManagedFields) > 0; managed != tc.wantManaged {
				t.Errorf("managedFields kept: %v, want %v (%#v)", managed, tc.wantManaged, last)
			}
		})
	}
}

// TestEachJSONStreamHandsOverInASessionOfItsOwn: an object the first
// stream handed over, which the informer never took, is no hint for the
// second stream's object of the same key, which is handed over against
// the informer's own hint (none) and found compacted.
func TestEachJSONStreamHandsOverInASessionOfItsOwn(t *testing.T) {
	inf := newInformer(false)
	var streams atomic.Int32
	pw := jsonWatcher(t, "", decodePartialJSON, &inf.decoded)
	pw.Open = func(context.Context, metav1.ListOptions) (io.ReadCloser, error) {
		if streams.Add(1) == 1 {
			return io.NopCloser(strings.NewReader(jsonAdded)), nil
		}
		return io.NopCloser(strings.NewReader(jsonModified)), nil
	}
	first := drainWatch(t, pw, nil) // not taken: the reflector stopped before it
	second := drainWatch(t, pw, nil)
	if len(first) != 1 || len(second) != 1 {
		t.Fatalf("events %v and %v, want one each", first, second)
	}
	if !inf.take(second[0]) || inf.walked.Load() != 0 {
		t.Errorf("the second stream's object not handed over compact against the informer's hint (%d walked)", inf.walked.Load())
	}
}

// TestProtobufStreamsIgnoreTheJSONDecoder: a protobuf stream of a
// Watcher with a JSON decoder is decoded as before.
func TestProtobufStreamsIgnoreTheJSONDecoder(t *testing.T) {
	stream := bytes.Join([][]byte{partialFrame(t, "ADDED", "a"), partialFrame(t, "DELETED", "a")}, nil)
	pw := jsonWatcher(t, string(stream), markedPartialJSON, nil)
	pw.Codecs = metaCodecs(t)
	got := drainWatch(t, pw, nil)
	if len(got) != 2 || got[0].Type != watch.Added || got[1].Type != watch.Deleted {
		t.Fatalf("events %v, want ADDED and DELETED", got)
	}
	for i, ev := range got {
		if o := ev.Object.(*metav1.PartialObjectMetadata); o.Name != "a" || unmarkJSON(o) {
			t.Errorf("event %d: %#v, want a decoded from protobuf", i, o)
		}
	}
}
