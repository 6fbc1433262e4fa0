package jsonwatch

import (
	"context"
	"errors"
	"testing"

	"k8s.io/apimachinery/pkg/api/equality"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/informer-gen/informer-gen/runtime/compact"
	"github.com/informer-gen/informer-gen/runtime/jsondecode"
)

type objectList = metav1.PartialObjectMetadataList

func decodeObjectList(d *jsondecode.Decoder, p *objectList) {
	if !d.Object() {
		return
	}
	for name, ok := d.Field(); ok; name, ok = d.Field() {
		switch {
		case jsondecode.TypeMetaField(d, &p.TypeMeta, name):
		case string(name) == "metadata":
			jsondecode.Reflective(d, &p.ListMeta)
		case string(name) == "items":
			jsondecode.Slice(d, &p.Items, markedDecoder)
		default:
			d.Skip()
		}
	}
}

const listPage = `{"kind":"PartialObjectMetadataList","apiVersion":"meta.k8s.io/v1","metadata":{"resourceVersion":"9","continue":"next"},"items":[{"kind":"PartialObjectMetadata","apiVersion":"meta.k8s.io/v1","metadata":{"name":"a","namespace":"ns"}}]}`

// codecsInto is Response.Into as client-go's would decode a JSON body
// with the test's codecs.
func codecsInto(t *testing.T, body string, err error) func(runtime.Object) error {
	return func(obj runtime.Object) error {
		if err != nil {
			return err
		}
		info, _ := runtime.SerializerInfoForMediaType(testCodecs(t).SupportedMediaTypes(), runtime.ContentTypeJSON)
		_, _, derr := testCodecs(t).DecoderToVersion(info.Serializer, nil).Decode([]byte(body), nil, obj)
		return derr
	}
}

func TestListerDecodesWhereItCanAndHandsTheRestToTheResponse(t *testing.T) {
	typed := &objectList{ListMeta: metav1.ListMeta{ResourceVersion: "typed"}}
	failure := errors.New("the server said no")
	for _, tc := range []struct {
		name       string
		getErr     error
		res        Response
		decode     jsondecode.Func[objectList]
		wantTyped  bool
		wantFast   bool
		wantErr    error
		wantFields string // the list's resourceVersion
	}{
		{name: "a JSON page takes the generated decoder", res: Response{Body: []byte(listPage), ContentType: "application/json"}, decode: decodeObjectList, wantFast: true, wantFields: "9"},
		{name: "a client that cannot send the request (a fake clientset) lists through the typed client", getErr: ErrNoStream, decode: decodeObjectList, wantTyped: true, wantFields: "typed"},
		{name: "no generated decoder (or turned off) lists through the typed client", wantTyped: true, wantFields: "typed"},
		{name: "a failed request: the response's error", res: Response{Err: failure, ContentType: "application/json"}, decode: decodeObjectList, wantErr: failure},
		{name: "another format: the response's decoding", res: Response{Body: []byte(listPage), ContentType: "application/vnd.kubernetes.protobuf"}, decode: decodeObjectList, wantFields: "9"},
		{name: "a page the decoder refuses: the response's decoding", res: Response{Body: []byte(listPage), ContentType: "application/json"}, decode: func(d *jsondecode.Decoder, _ *objectList) { jsondecode.Bool(d, new(bool)) }, wantFields: "9"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l := &Lister[objectList, *objectList]{
				Get: func(context.Context, metav1.ListOptions) (Response, error) {
					res := tc.res
					res.Into = codecsInto(t, string(res.Body), res.Err)
					return res, tc.getErr
				},
				List:   func(context.Context, metav1.ListOptions) (*objectList, error) { return typed, nil },
				Kind:   metav1.SchemeGroupVersion.WithKind("PartialObjectMetadataList"),
				Decode: tc.decode,
				Table:  compact.NewTable(),
			}
			obj, err := l.ListWithContext(context.Background(), metav1.ListOptions{Limit: 1})
			if !errors.Is(err, tc.wantErr) {
				t.Fatalf("error %v, want %v", err, tc.wantErr)
			}
			list := obj.(*objectList)
			if (list == typed) != tc.wantTyped || list.ResourceVersion != tc.wantFields && tc.wantErr == nil {
				t.Fatalf("list %#v; want typed %v, resourceVersion %q", list, tc.wantTyped, tc.wantFields)
			}
			if tc.wantErr != nil || tc.wantTyped {
				return
			}
			if fast := unmark(&list.Items[0]); fast != tc.wantFast {
				t.Errorf("item decoded by the generated decoder: %v, want %v", fast, tc.wantFast)
			}
			want := &objectList{}
			_ = codecsInto(t, listPage, nil)(want)
			if !equality.Semantic.DeepEqual(list, want) {
				t.Errorf("list\n %#v\nwant the codecs'\n %#v", list, want)
			}
		})
	}
}
