package conformance

import (
	"context"
	"fmt"
	"reflect"
	"testing"
	"unsafe"

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
// equal objects, shared exactly alike, the update walk's taking of the
// cached version's equal parts included. Every list's items are decoded
// against the version the informer compacts them against (none for a
// key the cache does not hold, the cached version on a relist) and are
// not walked again; but an item at the cached version (the informer
// keeps the cached object) and one whose cached version changed between
// the decode and the informer's compaction, which the informer walks.

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

// pageLister is a Lister whose server answers body; it keeps every page
// it listed.
type pageLister struct {
	*jsonwatch.Lister[stablev1.WidgetList, *stablev1.WidgetList]
	body []byte
	// listed keeps the decoded pages alive: a freed string's address,
	// reused by a later decode, would look to the table's admission like
	// the same value seen again at the same address.
	listed []runtime.Object
}

// list lists page through l, takes a shallow copy of each item as a
// reflector does (meta.EachListItemWithAlloc) and caches it as an
// informer's queue does (widgetCache.cache); it returns the cached
// copies, in order. meanwhile, when not nil, changes the cache between
// the decode and the caching.
func (c *widgetCache) list(t *testing.T, l *pageLister, page *stablev1.WidgetList, meanwhile func(*widgetCache)) []*stablev1.Widget {
	t.Helper()
	l.body = []byte(widgetListBody(t, page))
	obj, err := l.ListWithContext(context.Background(), metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	l.listed = append(l.listed, obj)
	if meanwhile != nil {
		meanwhile(c)
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

// mixedPage is a WidgetList of the Widgets from, Widget i at version
// version(i).
func mixedPage(version func(i int) int, from ...int) *stablev1.WidgetList {
	page := widgetPage(0)
	for _, i := range from {
		page.Items = append(page.Items, *decodedWidget(i, version(i)))
	}
	return page
}

// fifth is version v for every fifth Widget, 0 for the others.
func fifth(i, v int) int {
	if i%5 == 0 {
		return v
	}
	return 0
}

// recached replaces every cached Widget by a copy of it: another version
// object of each key, as when a watch event was applied meanwhile.
func recached(c *widgetCache) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for key, w := range c.objects {
		c.objects[key] = w.DeepCopy()
	}
}

// span is from, from+1, ..., to-1.
func span(from, to int) []int {
	var s []int
	for i := from; i < to; i++ {
		s = append(s, i)
	}
	return s
}

func TestJSONListDecodedItemsShareWhatTheWalkShares(t *testing.T) {
	for _, c := range []struct {
		name string
		// pages are listed in order into the same cache.
		pages []*stablev1.WidgetList
		// meanwhile changes the cache between the last page's decode
		// and its caching.
		meanwhile func(*widgetCache)
		// skipped is the number of items decoded compact against the
		// version the informer compacts them against, and not walked
		// again.
		skipped int
	}{
		{"first list", []*stablev1.WidgetList{widgetPage(0, span(0, 24)...)}, nil, 24},
		{"first list in two pages", []*stablev1.WidgetList{continued(widgetPage(0, span(0, 12)...)), widgetPage(0, span(12, 24)...)}, nil, 24},
		{"relist: cached keys changed, new keys", []*stablev1.WidgetList{widgetPage(0, span(0, 24)...), widgetPage(1, span(12, 36)...)}, nil, 48},
		{"relist: cached keys unchanged", []*stablev1.WidgetList{widgetPage(0, span(0, 8)...), widgetPage(0, span(0, 8)...)}, nil, 8},
		{"relists: most unchanged, every fifth changed", []*stablev1.WidgetList{
			widgetPage(0, span(0, 40)...),
			continued(mixedPage(func(i int) int { return fifth(i, 1) }, span(0, 20)...)),
			mixedPage(func(i int) int { return fifth(i, 1) }, span(20, 40)...),
			mixedPage(func(i int) int { return fifth(i, 2) }, span(0, 40)...),
		}, nil, 40 + 8 + 8},
		{"relist: the cache changed between the decode and the caching", []*stablev1.WidgetList{widgetPage(0, span(0, 12)...), widgetPage(1, span(0, 12)...)}, recached, 12},
	} {
		t.Run(c.name, func(t *testing.T) {
			walked := newWidgetCache(false)
			decoded := newWidgetCache(true)
			lister, plain := decoded.lister(), walked.lister()
			var want, got []*stablev1.Widget
			for i, page := range c.pages {
				var meanwhile func(*widgetCache)
				if i == len(c.pages)-1 {
					meanwhile = c.meanwhile
				}
				want = append(want, walked.list(t, plain, page, meanwhile)...)
				got = append(got, decoded.list(t, lister, page, meanwhile)...)
			}
			if len(got) != len(want) {
				t.Fatalf("%d items decoded compact, %d decoded then walked", len(got), len(want))
			}
			if decoded.skipped != c.skipped {
				t.Errorf("the informer skipped the walk of %d of %d items; want %d", decoded.skipped, len(got), c.skipped)
			}
			if walked.skipped != 0 {
				t.Errorf("without Decoded the informer skipped %d walks", walked.skipped)
			}
			parts := widgetParts
			if c.meanwhile != nil {
				// Walked after the decoder: its strings are interned
				// from the decoder's sighting on.
				parts = widgetComposites
			}
			assertListedAlike(t, want, got, parts)
		})
	}
}

// assertListedAlike fails unless got's items are reflect.DeepEqual to
// want's and their parts (parts) one address exactly where want's are.
func assertListedAlike(t *testing.T, want, got []*stablev1.Widget, parts func(*stablev1.Widget) []uintptr) {
	t.Helper()
	var wantParts, gotParts []uintptr
	for i := range want {
		if !reflect.DeepEqual(got[i], want[i]) {
			t.Fatalf("item %d: decoded compact %+v, decoded then walked %+v", i, got[i], want[i])
		}
		wantParts = append(wantParts, parts(want[i])...)
		gotParts = append(gotParts, parts(got[i])...)
	}
	assertSameSharing(t, wantParts, gotParts)
}

// widgetComposites are widgetParts without the strings: the maps, slices
// and pointers. A walk after a decoder that interns finds the decoder's
// strings seen once already in another object, and interns them from
// their first sighting in the page (compact.Table's admission), where a
// walk alone interns them from their second: which strings are shared
// then differs, which maps, slices and pointers are does not.
func widgetComposites(w *stablev1.Widget) []uintptr {
	mp := func(m map[string]string) uintptr { return reflect.ValueOf(m).Pointer() }
	parts := []uintptr{mp(w.Labels), mp(w.Annotations), uintptr(unsafe.Pointer(unsafe.SliceData(w.OwnerReferences))),
		uintptr(unsafe.Pointer(unsafe.SliceData(w.Finalizers))), uintptr(unsafe.Pointer(unsafe.SliceData(w.Spec.Tags)))}
	for _, r := range w.OwnerReferences {
		parts = append(parts, uintptr(unsafe.Pointer(r.Controller)))
	}
	return parts
}
