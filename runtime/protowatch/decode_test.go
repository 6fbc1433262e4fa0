package protowatch

import (
	"bytes"
	"context"
	"encoding/binary"
	"io"
	"reflect"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"

	"github.com/informer-gen/informer-gen/runtime/compact"
	"github.com/informer-gen/informer-gen/runtime/protodecode"
)

// decodePartial is a generated-style decoder of PartialObjectMetadata.
func decodePartial(d *protodecode.Decoder, p *metav1.PartialObjectMetadata) {
	for d.Next() {
		switch d.Field() {
		case 1:
			protodecode.Message(d, &p.ObjectMeta, protodecode.ObjectMeta)
		default:
			d.Skip()
		}
	}
}

// decodePartial builds the compact object: its only shared parts are
// ObjectMeta's, which protodecode.ObjectMeta shares.
func init() { protodecode.RegisterCompact(decodePartial) }

// partialFrame is a watch frame of a PartialObjectMetadata named name.
func partialFrame(t *testing.T, eventType, name string) []byte {
	t.Helper()
	raw, err := (&metav1.PartialObjectMetadata{ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{"app": "a"}}}).Marshal()
	if err != nil {
		t.Fatal(err)
	}
	return partialFrameOf(t, eventType, raw)
}

// scatteredLabels is a PartialObjectMetadata named "b" whose two labels'
// records are not consecutive (its generation between them): Unmarshal
// takes both, the fast path of decoding into the compact object none.
var scatteredLabels = []byte{0x0a, 0x15, 0x0a, 0x01, 'b', 0x5a, 0x06, 0x0a, 0x01, 'x', 0x12, 0x01, 'y', 0x38, 0x01, 0x5a, 0x06, 0x0a, 0x01, 'z', 0x12, 0x01, 'w'}

// partialFrameOf is a watch frame of the PartialObjectMetadata raw.
func partialFrameOf(t *testing.T, eventType string, raw []byte) []byte {
	t.Helper()
	unk, err := (&runtime.Unknown{TypeMeta: runtime.TypeMeta{APIVersion: "meta.k8s.io/v1", Kind: "PartialObjectMetadata"}, Raw: raw}).Marshal()
	if err != nil {
		t.Fatal(err)
	}
	ev, err := (&metav1.WatchEvent{Type: eventType, Object: runtime.RawExtension{Raw: append(bytes.Clone(protobufEnvelope), unk...)}}).Marshal()
	if err != nil {
		t.Fatal(err)
	}
	return append(binary.BigEndian.AppendUint32(nil, uint32(len(ev))), ev...)
}

func TestWatcherDecodesWithTheGeneratedDecoderAndHandsObjectsOverCompact(t *testing.T) {
	stream := bytes.Join([][]byte{
		partialFrame(t, "ADDED", "a"), partialFrame(t, "BOOKMARK", ""), partialFrame(t, "DELETED", "a"),
		partialFrameOf(t, "ADDED", scatteredLabels),
	}, nil)
	for _, tc := range []struct {
		name          string
		decode        protodecode.Func[metav1.PartialObjectMetadata]
		table         *compact.Table
		wantCompacted []bool // per event, whether the informer finds its object compacted
		wantWalked    int    // objects the informer's compaction walked on the stream's goroutine
	}{
		{name: "decoded into the compact object, ADDED and DELETED handed over unwalked; scattered records decoded by Unmarshal and walked",
			decode: decodePartial, table: compact.NewTable(), wantCompacted: []bool{true, false, true, true}, wantWalked: 1},
		{name: "with the generated decoder interning nowhere, ADDED and DELETED walked and handed over",
			decode: decodePartial, wantCompacted: []bool{true, false, true, true}, wantWalked: 3},
		{name: "with Unmarshal, nothing handed over", decode: nil, wantCompacted: []bool{false, false, false, false}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var decoded compact.Decoded
			var walked []string
			decoded.Enable(func(obj any) (string, error) { return obj.(*metav1.PartialObjectMetadata).Name, nil },
				func(string) any { return nil },
				func(obj, _ any) { walked = append(walked, obj.(*metav1.PartialObjectMetadata).Name) }, false)
			pw := &Watcher[metav1.PartialObjectMetadata, *metav1.PartialObjectMetadata]{
				Open: func(context.Context, metav1.ListOptions) (io.ReadCloser, error) {
					return io.NopCloser(bytes.NewReader(stream)), nil
				},
				Kind: metav1.SchemeGroupVersion.WithKind("PartialObjectMetadata"), Codecs: metaCodecs(t),
				Decode: tc.decode, Table: tc.table, Decoded: &decoded,
			}
			w, err := pw.WatchWithContext(context.Background(), metav1.ListOptions{})
			if err != nil {
				t.Fatal(err)
			}
			var types []watch.EventType
			var compacted []bool
			cached := map[string]any{} // the informer's objects by key: the hints it compacts against
			for ev := range w.ResultChan() {
				types = append(types, ev.Type)
				name := ev.Object.(*metav1.PartialObjectMetadata).Name
				compacted = append(compacted, decoded.Compacted(ev.Object, cached[name]))
				if ev.Type == watch.Added {
					cached[name] = ev.Object
				}
			}
			wantTypes := []watch.EventType{watch.Added, watch.Bookmark, watch.Deleted, watch.Added}
			if !reflect.DeepEqual(types, wantTypes) || !reflect.DeepEqual(compacted, tc.wantCompacted) || len(walked) != tc.wantWalked {
				t.Errorf("events %v compacted %v, %d walked; want %v, %v and %d", types, compacted, len(walked), wantTypes, tc.wantCompacted, tc.wantWalked)
			}
		})
	}
}
