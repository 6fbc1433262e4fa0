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

// partialFrame is a watch frame of a PartialObjectMetadata named name.
func partialFrame(t *testing.T, eventType, name string) []byte {
	t.Helper()
	raw, err := (&metav1.PartialObjectMetadata{ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{"app": "a"}}}).Marshal()
	if err != nil {
		t.Fatal(err)
	}
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
	}, nil)
	for _, tc := range []struct {
		name          string
		decode        protodecode.Func[metav1.PartialObjectMetadata]
		wantCompacted []bool // per event, whether the informer finds its object compacted
		wantWalked    int    // objects the informer's compaction walked on the stream's goroutine
	}{
		{name: "with the generated decoder, ADDED and DELETED handed over compact", decode: decodePartial, wantCompacted: []bool{true, false, true}, wantWalked: 2},
		{name: "with Unmarshal, nothing handed over", decode: nil, wantCompacted: []bool{false, false, false}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var decoded compact.Decoded
			var walked []string
			decoded.Enable(func(obj any) (string, error) { return obj.(*metav1.PartialObjectMetadata).Name, nil },
				func(string) any { return nil },
				func(obj, _ any) { walked = append(walked, obj.(*metav1.PartialObjectMetadata).Name) })
			pw := &Watcher[metav1.PartialObjectMetadata, *metav1.PartialObjectMetadata]{
				Open: func(context.Context, metav1.ListOptions) (io.ReadCloser, error) {
					return io.NopCloser(bytes.NewReader(stream)), nil
				},
				Kind: metav1.SchemeGroupVersion.WithKind("PartialObjectMetadata"), Codecs: metaCodecs(t),
				Decode: tc.decode, Table: compact.NewTable(), Decoded: &decoded,
			}
			w, err := pw.WatchWithContext(context.Background(), metav1.ListOptions{})
			if err != nil {
				t.Fatal(err)
			}
			var types []watch.EventType
			var compacted []bool
			var cached any // the informer's object of key "a": the hint it compacts against
			for ev := range w.ResultChan() {
				types = append(types, ev.Type)
				compacted = append(compacted, decoded.Compacted(ev.Object, cached))
				if ev.Type == watch.Added {
					cached = ev.Object
				}
			}
			wantTypes := []watch.EventType{watch.Added, watch.Bookmark, watch.Deleted}
			if !reflect.DeepEqual(types, wantTypes) || !reflect.DeepEqual(compacted, tc.wantCompacted) || len(walked) != tc.wantWalked {
				t.Errorf("events %v compacted %v, %d walked; want %v, %v and %d", types, compacted, len(walked), wantTypes, tc.wantCompacted, tc.wantWalked)
			}
		})
	}
}
