package conformance

import (
	"context"
	"fmt"
	"reflect"
	"testing"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"

	stablev1 "github.com/informer-gen/informer-gen/examples/crd/apis/stable/v1"
	"github.com/informer-gen/informer-gen/runtime/jsondecode"
	"github.com/informer-gen/informer-gen/runtime/jsonwatch"
)

// A list whose decoder hands over its items compact
// (jsonwatch.Lister.Decoded, compact.Decoded.AdoptCopied) must leave in
// the cache what decoding and then compacting in the informer leaves:
// equal objects, shared exactly alike; the items of keys the cache does
// not hold are not walked again, those of keys it holds (a relist) are
// walked against the cached version, as before.

// lister is the Lister of the generated Widget informer, decoding with
// the generated decoder into c's table (and compacting when c.decoded is
// set); its response is set by list.
func (c *widgetCache) lister() *pageLister {
	generated, _ := jsondecode.For[stablev1.WidgetList]()
	pl := &pageLister{}
	pl.Lister = &jsonwatch.Lister[stablev1.WidgetList, *stablev1.WidgetList]{
		Get: func(context.Context, metav1.ListOptions) (jsonwatch.Response, error) {
			return jsonwatch.Response{Body: pl.body, ContentType: runtime.ContentTypeJSON, Into: func(runtime.Object) error {
				return fmt.Errorf("the generated decoder did not decode the page")
			}}, nil
		},
		Kind:   stablev1.SchemeGroupVersion.WithKind("WidgetList"),
		Decode: generated, Table: c.decoderTable(), Decoded: c.decoded,
	}
	return pl
}

// pageLister is a Lister whose server answers body.
type pageLister struct {
	*jsonwatch.Lister[stablev1.WidgetList, *stablev1.WidgetList]
	body []byte
}

// list lists page through l, takes a shallow copy of each item as a
// reflector does (meta.EachListItemWithAlloc) and caches it as an
// informer's queue does (widgetCache.cache); it returns the cached
// copies, in order.
func (c *widgetCache) list(t *testing.T, l *pageLister, page *stablev1.WidgetList) []*stablev1.Widget {
	t.Helper()
	l.body = []byte(widgetListBody(t, page))
	obj, err := l.ListWithContext(context.Background(), metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var out []*stablev1.Widget
	if err := meta.EachListItemWithAlloc(obj, func(item runtime.Object) error {
		out = append(out, c.cache(watch.Event{Type: watch.Added, Object: item}))
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return out
}

// continued is page with a continue token: a page of a list that goes on.
func continued(page *stablev1.WidgetList) *stablev1.WidgetList {
	page.Continue = "next"
	return page
}

// widgetPage is a WidgetList of the Widgets from, at version v.
func widgetPage(v int, from ...int) *stablev1.WidgetList {
	page := &stablev1.WidgetList{TypeMeta: metav1.TypeMeta{APIVersion: "stable.example.com/v1", Kind: "WidgetList"}, ListMeta: metav1.ListMeta{ResourceVersion: "9000"}}
	for _, i := range from {
		page.Items = append(page.Items, *decodedWidget(i, v))
	}
	return page
}

func TestJSONListDecodedItemsShareWhatTheWalkShares(t *testing.T) {
	span := func(from, to int) []int {
		var s []int
		for i := from; i < to; i++ {
			s = append(s, i)
		}
		return s
	}
	for _, c := range []struct {
		name string
		// pages are listed in order into the same cache; the first list
		// ends with the first page without a continue token.
		pages []*stablev1.WidgetList
		// first is the number of items of the first list: decoded
		// compact and not walked again; a relist's are decoded and
		// walked as without Decoded.
		first int
	}{
		{"first list", []*stablev1.WidgetList{widgetPage(0, span(0, 24)...)}, 24},
		{"first list in two pages", []*stablev1.WidgetList{continued(widgetPage(0, span(0, 12)...)), widgetPage(0, span(12, 24)...)}, 24},
		{"relist: cached keys changed, new keys", []*stablev1.WidgetList{widgetPage(0, span(0, 24)...), widgetPage(1, span(12, 36)...)}, 24},
		{"relist: cached keys unchanged", []*stablev1.WidgetList{widgetPage(0, span(0, 8)...), widgetPage(0, span(0, 8)...)}, 8},
	} {
		t.Run(c.name, func(t *testing.T) {
			walked := newWidgetCache(false)
			decoded := newWidgetCache(true)
			lister, plain := decoded.lister(), walked.lister()
			var want, got []*stablev1.Widget
			for _, page := range c.pages {
				want = append(want, walked.list(t, plain, page)...)
				got = append(got, decoded.list(t, lister, page)...)
			}
			if len(got) != len(want) {
				t.Fatalf("%d items decoded compact, %d decoded then walked", len(got), len(want))
			}
			if decoded.skipped != c.first {
				t.Errorf("the informer skipped the walk of %d of %d items; want %d", decoded.skipped, len(got), c.first)
			}
			if walked.skipped != 0 {
				t.Errorf("without Decoded the informer skipped %d walks", walked.skipped)
			}
			var wantParts, gotParts []uintptr
			for i := range want {
				if !reflect.DeepEqual(got[i], want[i]) {
					t.Fatalf("item %d: decoded compact %+v, decoded then walked %+v", i, got[i], want[i])
				}
				if i < c.first {
					wantParts = append(wantParts, widgetParts(want[i])...)
					gotParts = append(gotParts, widgetParts(got[i])...)
				}
			}
			assertSameSharing(t, wantParts, gotParts)
		})
	}
}
