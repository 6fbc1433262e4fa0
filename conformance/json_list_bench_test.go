package conformance

import (
	"context"
	"fmt"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"

	stablev1 "github.com/informer-gen/informer-gen/examples/crd/apis/stable/v1"
	crdscheme "github.com/informer-gen/informer-gen/examples/crd/pkg/generated/clientset/versioned/scheme"
	"github.com/informer-gen/informer-gen/runtime/compact"
	"github.com/informer-gen/informer-gen/runtime/jsondecode"
	"github.com/informer-gen/informer-gen/runtime/jsonwatch"
)

// benchWidgetPage is a LIST page of n Widgets as the server writes it:
// shaped as BenchmarkJSONWatchEvent's (ten per team), with the
// creationTimestamp and managedFields entry the server adds, and a
// continue token.
func benchWidgetPage(b *testing.B, n int) []byte {
	list := &stablev1.WidgetList{
		TypeMeta: metav1.TypeMeta{APIVersion: "stable.example.com/v1", Kind: "WidgetList"},
		ListMeta: metav1.ListMeta{ResourceVersion: "9000", Continue: "eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6OTAwMCwic3RhcnQiOiJ3aWRnZXQtNDk5XHUwMDAwIn0", RemainingItemCount: new(int64(1000))},
	}
	created := metav1.NewTime(time.Date(2026, 11, 27, 4, 0, 0, 0, time.UTC))
	for i := range n {
		team := fmt.Sprintf("team-%d", i/10)
		list.Items = append(list.Items, stablev1.Widget{
			TypeMeta: metav1.TypeMeta{APIVersion: "stable.example.com/v1", Kind: "Widget"},
			ObjectMeta: metav1.ObjectMeta{Namespace: team, Name: fmt.Sprintf("widget-%d", i), UID: types.UID(fmt.Sprintf("uid-%09d", i)),
				ResourceVersion: fmt.Sprint(100 + i), Generation: int64(1 + i%3), CreationTimestamp: created,
				Labels: map[string]string{"team": team, "tier": "backend"},
				ManagedFields: []metav1.ManagedFieldsEntry{{Manager: "widget-controller", Operation: metav1.ManagedFieldsOperationUpdate, APIVersion: "stable.example.com/v1", Time: &created,
					FieldsType: "FieldsV1", FieldsV1: metav1.NewFieldsV1(`{"f:metadata":{"f:labels":{".":{},"f:team":{},"f:tier":{}}},"f:spec":{".":{},"f:color":{},"f:size":{},"f:tags":{}}}`)}}},
			Spec:   stablev1.WidgetSpec{Size: int32(i % 4), Color: []string{"red", "green", "blue"}[i%3], Tags: []string{"prod", team, "owned-by-" + team}},
			Status: stablev1.WidgetStatus{ObservedGeneration: int64(1 + i%3), Phase: "Ready"},
		})
	}
	return []byte(widgetListBody(b, list))
}

// BenchmarkJSONListPage decodes the same LIST page of 500 Widgets as the
// typed client's List decodes it (rest.Result.Into: the clientset's JSON
// decoder, sigs.k8s.io/json) and as the generated informer's
// jsonwatch.Lister does (the generated WidgetList decoder, interning in a
// Table). One op is one page; the figures per Widget are op/500.
//
//	cd conformance && go test -run '^$' -bench JSONListPage -benchmem -count 6 . > list.txt && benchstat -col /path list.txt
func BenchmarkJSONListPage(b *testing.B) {
	const widgets = 500
	body := benchWidgetPage(b, widgets)
	codecs := crdscheme.Codecs.WithoutConversion()
	info, _ := runtime.SerializerInfoForMediaType(codecs.SupportedMediaTypes(), runtime.ContentTypeJSON)
	decoder := codecs.DecoderToVersion(info.Serializer, nil)
	into := func(obj runtime.Object) error {
		_, _, err := decoder.Decode(body, nil, obj)
		return err
	}
	b.Run("path=client-go", func(b *testing.B) {
		b.SetBytes(int64(len(body)))
		b.ReportAllocs()
		for b.Loop() {
			list := &stablev1.WidgetList{}
			if err := into(list); err != nil || len(list.Items) != widgets {
				b.Fatalf("%d items, error %v", len(list.Items), err)
			}
		}
	})
	b.Run("path=generated", func(b *testing.B) {
		decode, ok := jsondecode.For[stablev1.WidgetList]()
		if !ok {
			b.Fatal("no generated WidgetList decoder registered")
		}
		l := &jsonwatch.Lister[stablev1.WidgetList, *stablev1.WidgetList]{
			Get: func(context.Context, metav1.ListOptions) (jsonwatch.Response, error) {
				return jsonwatch.Response{Body: body, ContentType: runtime.ContentTypeJSON, Into: into}, nil
			},
			Kind:   stablev1.SchemeGroupVersion.WithKind("WidgetList"),
			Decode: decode,
			Table:  compact.NewTable(),
		}
		b.SetBytes(int64(len(body)))
		b.ReportAllocs()
		for b.Loop() {
			obj, err := l.ListWithContext(context.Background(), metav1.ListOptions{Limit: widgets})
			if list := obj.(*stablev1.WidgetList); err != nil || len(list.Items) != widgets || list.Kind != "" {
				b.Fatalf("%d items, kind %q, error %v", len(list.Items), list.Kind, err)
			}
		}
	})
	// The page as the informer takes it, a first list's: the reflector's
	// copy of each item (meta.EachListItemWithAlloc), then the informer's
	// compaction (against no hint) unless the Lister's Decoded says the
	// decoder built the compact object. walk=informer is the Lister
	// without Decoded, walk=none with it (a new informer each page: a
	// first list each time).
	for _, withDecoded := range []bool{false, true} {
		b.Run(fmt.Sprintf("path=generated/walk=%s", map[bool]string{false: "informer", true: "none"}[withDecoded]), func(b *testing.B) {
			benchListIntoInformer(b, body, into, widgets, withDecoded)
		})
	}
}

// benchListIntoInformer lists body through a generated Lister into a
// Table and hands each item to the informer's compaction as a first
// list's, with the Lister's Decoded when withDecoded.
func benchListIntoInformer(b *testing.B, body []byte, into func(runtime.Object) error, widgets int, withDecoded bool) {
	decode, _ := jsondecode.For[stablev1.WidgetList]()
	table := compact.NewTable()
	compaction := table.TransformUpdate(&stablev1.Widget{})
	key := func(obj any) (string, error) {
		w := obj.(*stablev1.Widget)
		return w.Namespace + "/" + w.Name, nil
	}
	noHint := func(string) any { return nil }
	walked := 0
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		var decoded *compact.Decoded
		if withDecoded {
			decoded = &compact.Decoded{}
			decoded.Enable(key, noHint, compaction)
		}
		l := &jsonwatch.Lister[stablev1.WidgetList, *stablev1.WidgetList]{
			Get: func(context.Context, metav1.ListOptions) (jsonwatch.Response, error) {
				return jsonwatch.Response{Body: body, ContentType: runtime.ContentTypeJSON, Into: into}, nil
			},
			Kind: stablev1.SchemeGroupVersion.WithKind("WidgetList"), Decode: decode, Table: table, Decoded: decoded,
		}
		obj, err := l.ListWithContext(context.Background(), metav1.ListOptions{Limit: int64(widgets)})
		if err != nil {
			b.Fatal(err)
		}
		_ = meta.EachListItemWithAlloc(obj, func(item runtime.Object) error {
			if !decoded.Compacted(item, nil) {
				compaction(item, nil)
				walked++
			}
			return nil
		})
	}
	b.ReportMetric(float64(walked)/float64(b.N), "walks/op")
}
