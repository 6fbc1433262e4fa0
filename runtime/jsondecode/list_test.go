package jsondecode_test

import (
	"strings"
	"testing"
	"unsafe"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/informer-gen/informer-gen/runtime/compact"
	"github.com/informer-gen/informer-gen/runtime/jsondecode"
)

// decodeMetaList is the generated shape of a list's decoder, for
// metav1.PartialObjectMetadataList.
func decodeMetaList(d *jsondecode.Decoder, p *metav1.PartialObjectMetadataList) {
	if !d.Object() {
		return
	}
	for name, ok := d.Field(); ok; name, ok = d.Field() {
		switch {
		case jsondecode.TypeMetaField(d, &p.TypeMeta, name):
		case string(name) == "metadata":
			jsondecode.Reflective(d, &p.ListMeta)
		case string(name) == "items":
			jsondecode.Slice(d, &p.Items, decodeMetaItem)
		default:
			d.Skip()
		}
	}
}

func decodeMetaItem(d *jsondecode.Decoder, p *metav1.PartialObjectMetadata) {
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

const metaList = `{"kind":"PartialObjectMetadataList","apiVersion":"meta.k8s.io/v1","metadata":{"resourceVersion":"9","continue":"c","remainingItemCount":2},"items":[` +
	`{"kind":"PartialObjectMetadata","metadata":{"name":"a","labels":{"team":"list-shared-value"}}},` +
	`{"kind":"PartialObjectMetadata","metadata":{"name":"b","labels":{"team":"list-shared-value"}}},` +
	`{"kind":"PartialObjectMetadata","metadata":{"name":"c","labels":{"team":"list-shared-value"}}}]}`

func TestDecodeListTakesOnlyWhatTheSerializerCertainlyDecodesAlike(t *testing.T) {
	for _, tc := range []struct {
		name, data string
		ok         bool
	}{
		{"a page", metaList, true},
		{"white space around the page", " \n" + metaList + "\t\n", true},
		{"a kind in another case at the top level", strings.Replace(metaList, `"kind":"PartialObjectMetadataList",`, `"kind":"PartialObjectMetadataList","KIND":"x",`, 1), false},
		{"an apiVersion in another case at the top level", strings.Replace(metaList, `"apiVersion"`, `"APIVersion"`, 1), false},
		{"a kind in another case in an item (decoded case-sensitively)", strings.Replace(metaList, `"kind":"PartialObjectMetadata",`, `"kind":"PartialObjectMetadata","Kind":"x",`, 1), true},
		{"data after the page", metaList + "{}", false},
		{"a page cut short", metaList[:len(metaList)-2], false},
		{"list metadata of the wrong kind", strings.Replace(metaList, `"remainingItemCount":2`, `"remainingItemCount":"2"`, 1), false},
		{"an item of the wrong kind", strings.Replace(metaList, `"items":[`, `"items":["x",`, 1), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got metav1.PartialObjectMetadataList
			if ok := jsondecode.DecodeList([]byte(tc.data), &got, decodeMetaList, compact.NewTable()); ok != tc.ok {
				t.Fatalf("ok %v, want %v", ok, tc.ok)
			}
			if tc.ok && (got.ResourceVersion != "9" || got.Continue != "c" || *got.RemainingItemCount != 2 || len(got.Items) != 3 || got.Items[2].Name != "c") {
				t.Errorf("decoded %#v", got)
			}
		})
	}
}

// Each item is an object of its own for the table's admission, as a watch
// event's object is: a string repeated across the page's items is shared
// from its second sighting on.
func TestDecodeListInternsAcrossItems(t *testing.T) {
	var got metav1.PartialObjectMetadataList
	if !jsondecode.DecodeList([]byte(metaList), &got, decodeMetaList, compact.NewTable()) {
		t.Fatal("the page was not decoded")
	}
	b, c := got.Items[1].Labels["team"], got.Items[2].Labels["team"]
	if b != "list-shared-value" || unsafe.StringData(b) != unsafe.StringData(c) {
		t.Errorf("the second and third items' label values %q and %q are not one string", b, c)
	}
}
