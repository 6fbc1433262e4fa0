package conformance

import (
	"bytes"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// encodeJSONWatchEvent is one event of a JSON watch stream as the server
// writes it: obj encoded with the JSON serializer of codecs, wrapped in a
// WatchEvent by its stream serializer.
func encodeJSONWatchEvent(t testing.TB, codecs runtime.NegotiatedSerializer, eventType string, obj runtime.Object) []byte {
	t.Helper()
	info, _ := runtime.SerializerInfoForMediaType(codecs.SupportedMediaTypes(), runtime.ContentTypeJSON)
	var raw bytes.Buffer
	if err := info.Serializer.Encode(obj, &raw); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := info.StreamSerializer.Encode(&metav1.WatchEvent{Type: eventType, Object: runtime.RawExtension{Raw: raw.Bytes()}}, &out); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}
