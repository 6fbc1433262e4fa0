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
	return []byte(widgetListBody(b, benchWidgetList(n, func(int) bool { return false })))
}

// benchWidgetList is benchWidgetPage's list, with the Widgets changed(i)
// at a second version: a new resourceVersion and generation, another
// tag and phase.
func benchWidgetList(n int, changed func(i int) bool) *stablev1.WidgetList {
	list := &stablev1.WidgetList{
		TypeMeta: metav1.TypeMeta{APIVersion: "stable.example.com/v1", Kind: "WidgetList"},
		ListMeta: metav1.ListMeta{ResourceVersion: "9000", Continue: "eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6OTAwMCwic3RhcnQiOiJ3aWRnZXQtNDk5XHUwMDAwIn0", RemainingItemCount: new(int64(1000))},
	}
	created := metav1.NewTime(time.Date(2026, 11, 27, 4, 0, 0, 0, time.UTC))
	for i := range n {
		team := fmt.Sprintf("team-%d", i/10)
		w := stablev1.Widget{
			TypeMeta: metav1.TypeMeta{APIVersion: "stable.example.com/v1", Kind: "Widget"},
			ObjectMeta: metav1.ObjectMeta{Namespace: team, Name: fmt.Sprintf("widget-%d", i), UID: types.UID(fmt.Sprintf("uid-%09d", i)),
				ResourceVersion: fmt.Sprint(100 + i), Generation: int64(1 + i%3), CreationTimestamp: created,
				Labels: map[string]string{"team": team, "tier": "backend"},
				ManagedFields: []metav1.ManagedFieldsEntry{{Manager: "widget-controller", Operation: metav1.ManagedFieldsOperationUpdate, APIVersion: "stable.example.com/v1", Time: &created,
					FieldsType: "FieldsV1", FieldsV1: metav1.NewFieldsV1(`{"f:metadata":{"f:labels":{".":{},"f:team":{},"f:tier":{}}},"f:spec":{".":{},"f:color":{},"f:size":{},"f:tags":{}}}`)}}},
			Spec:   stablev1.WidgetSpec{Size: int32(i % 4), Color: []string{"red", "green", "blue"}[i%3], Tags: []string{"prod", team, "owned-by-" + team}},
			Status: stablev1.WidgetStatus{ObservedGeneration: int64(1 + i%3), Phase: "Ready"},
		}
		if changed(i) {
			w.ResourceVersion, w.Generation = fmt.Sprint(10000+i), w.Generation+1
			w.Spec.Tags = []string{"canary", team, "owned-by-" + team}
			w.Status = stablev1.WidgetStatus{ObservedGeneration: w.Generation, Phase: "Updating"}
		}
		list.Items = append(list.Items, w)
	}
	return list
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
	// A relist's page as the informer takes it: the same 500 Widgets,
	// cached at their first version, every tenth changed since. The
	// informer keeps the cached object of an unchanged item (its UID and
	// resourceVersion) and compacts a changed one against the cached
	// version, unless the Lister's Decoded says the decoder built it
	// against that version: walk=informer is the Lister without
	// Decoded, walk=none with it.
	for _, withDecoded := range []bool{false, true} {
		b.Run(fmt.Sprintf("path=generated/list=relist/walk=%s", map[bool]string{false: "informer", true: "none"}[withDecoded]), func(b *testing.B) {
			benchRelistIntoInformer(b, widgets, withDecoded)
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
			decoded.Enable(key, noHint, compaction, false)
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

// benchRelistIntoInformer lists a page of n Widgets, every tenth changed
// since the cached versions, through a generated Lister into a Table and
// hands each item to the informer as a relist's (sameVersion: the cached
// object kept; else compacted against the cached version unless the
// Lister's Decoded compacted it against it), with Decoded when
// withDecoded.
func benchRelistIntoInformer(b *testing.B, n int, withDecoded bool) {
	decode, _ := jsondecode.For[stablev1.WidgetList]()
	table := compact.NewTable()
	compaction := table.TransformUpdate(&stablev1.Widget{})
	key := func(obj any) (string, error) {
		w := obj.(*stablev1.Widget)
		return w.Namespace + "/" + w.Name, nil
	}
	cached := map[string]*stablev1.Widget{}
	for _, w := range benchWidgetList(n, func(int) bool { return false }).Items {
		compaction(&w, nil)
		cached[w.Namespace+"/"+w.Name] = &w
	}
	hint := func(key string) any {
		if w, ok := cached[key]; ok {
			return w
		}
		return nil
	}
	body := []byte(widgetListBody(b, benchWidgetList(n, func(i int) bool { return i%10 == 0 })))
	walked, kept := 0, 0
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	var decoded *compact.Decoded
	if withDecoded {
		decoded = &compact.Decoded{}
	}
	l := bodyLister(body, decode, table, decoded)
	for b.Loop() {
		// The Decoded emptied for each page, so that its pending
		// versions are the cached ones (Enable, once per informer in
		// an informer), outside the timing.
		if withDecoded {
			b.StopTimer()
			decoded.Enable(key, hint, compaction, false)
			b.StartTimer()
		}
		obj, err := l.ListWithContext(context.Background(), metav1.ListOptions{Limit: int64(n)})
		if err != nil {
			b.Fatal(err)
		}
		_ = meta.EachListItemWithAlloc(obj, func(item runtime.Object) error {
			w := item.(*stablev1.Widget)
			old := cached[w.Namespace+"/"+w.Name]
			switch {
			case old.UID == w.UID && old.ResourceVersion == w.ResourceVersion:
				kept++
			case !decoded.Compacted(item, old):
				compaction(item, old)
				walked++
			}
			return nil
		})
	}
	b.ReportMetric(float64(walked)/float64(b.N), "walks/op")
	b.ReportMetric(float64(kept)/float64(b.N), "kept/op")
}

// bodyLister is a generated Widget informer's Lister whose server answers
// body.
func bodyLister(body []byte, decode jsondecode.Func[stablev1.WidgetList], table *compact.Table, decoded *compact.Decoded) *jsonwatch.Lister[stablev1.WidgetList, *stablev1.WidgetList] {
	return &jsonwatch.Lister[stablev1.WidgetList, *stablev1.WidgetList]{
		Get: func(context.Context, metav1.ListOptions) (jsonwatch.Response, error) {
			return jsonwatch.Response{Body: body, ContentType: runtime.ContentTypeJSON, Into: func(runtime.Object) error {
				return fmt.Errorf("the generated decoder did not decode the page")
			}}, nil
		},
		Kind: stablev1.SchemeGroupVersion.WithKind("WidgetList"), Decode: decode, Table: table, Decoded: decoded,
	}
}
