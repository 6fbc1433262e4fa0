package e2e

import (
	"fmt"
	"reflect"
	"sort"
	"sync/atomic"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"

	stablev1 "github.com/informer-gen/informer-gen/examples/crd/apis/stable/v1"
	"github.com/informer-gen/informer-gen/examples/crd/pkg/generated/informers/externalversions"
	"github.com/informer-gen/informer-gen/runtime/jsondecode"
)

// listDecodes counts what the generated WidgetList decoder decoded.
type listDecodes struct {
	pages, items atomic.Int64
	// continued counts the pages that said more follow (a continue token).
	continued atomic.Int64
}

// countWidgetListDecodes registers, for the test, a WidgetList decoder
// that counts the pages and items the generated decoder decodes.
// Informers built afterwards find it (jsondecode.For).
func countWidgetListDecodes(t *testing.T) *listDecodes {
	t.Helper()
	generated, ok := jsondecode.For[stablev1.WidgetList]()
	if !ok {
		t.Fatal("examples/crd registered no WidgetList decoder")
	}
	var n listDecodes
	jsondecode.Register(func(d *jsondecode.Decoder, p *stablev1.WidgetList) {
		generated(d, p)
		n.pages.Add(1)
		n.items.Add(int64(len(p.Items)))
		if p.Continue != "" {
			n.continued.Add(1)
		}
	})
	t.Cleanup(func() { jsondecode.Register(generated) })
	return &n
}

// Generated informers of custom resources decode their LIST pages with
// the generated list decoder (jsonwatch.Lister) and their watch lists'
// initial events with the generated decoder (jsonwatch.Watcher). Against
// a real kube-apiserver, the Widget informer's first list, paged four
// Widgets at a time or streamed, goes through them, and the cache then
// holds exactly the server's Widgets (reflect.DeepEqual but for the
// managedFields the factory drops).
func TestGeneratedWidgetInformerListsThroughItsGeneratedDecoders(t *testing.T) {
	c := sharedCluster(t)
	const widgets = 11
	// Lists (not the watches, which ask for bookmarks) of 4 Widgets a page,
	// at the newest resourceVersion: the server pages those (a list at
	// resourceVersion 0, the reflector's first, is served whole from its
	// watch cache).
	pageOf4 := externalversions.WithTweakListOptions(func(o *metav1.ListOptions) {
		if !o.AllowWatchBookmarks {
			o.Limit, o.ResourceVersion, o.ResourceVersionMatch = 4, "", ""
		}
	})
	for i, tc := range []struct {
		name      string
		options   []externalversions.SharedInformerOption
		wantPages bool  // list pages decoded by the generated list decoder
		wantItems int64 // Widgets decoded by the generated decoder before the sync (a watch list's)
	}{
		{name: "paged lists of 4", options: []externalversions.SharedInformerOption{externalversions.WithoutWatchList(), pageOf4}, wantPages: true},
		{name: "a watch list", wantItems: widgets},
		{name: "paged lists of 4 without the generated decoders", options: []externalversions.SharedInformerOption{externalversions.WithoutWatchList(), pageOf4, externalversions.WithoutGeneratedDecoders()}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pages, items := countWidgetListDecodes(t), countWidgetDecodes(t)
			ns := fmt.Sprintf("widget-list-%d-%d", i, time.Now().UnixNano()) // fresh under -count
			cfg := c.AdminConfig()
			createNamespaces(t, cfg, ns)
			cs := clientset(t, cfg)
			createWidgets(t, cs, ns, "w", widgets)
			onServer, err := cs.StableV1().Widgets(ns).List(t.Context(), metav1.ListOptions{})
			if err != nil {
				t.Fatal(err)
			}

			f := externalversions.NewSharedInformerFactoryWithOptions(cs, 0, append(tc.options, externalversions.WithNamespace(ns))...)
			lister := f.Stable().V1().Widgets().Lister()
			f.StartWithContext(t.Context())
			t.Cleanup(f.Shutdown)
			if res := f.WaitForCacheSyncWithContext(t.Context()); res.AsError() != nil {
				t.Fatal(res.AsError())
			}
			checkListDecodes(t, pages, items.Load(), tc.wantPages, tc.wantItems, widgets)
			cached, err := lister.Widgets(ns).List(labels.Everything())
			if err != nil {
				t.Fatal(err)
			}
			sameWidgets(t, cached, onServer.Items, tc.wantItems > 0)
		})
	}
}

// checkListDecodes checks what the generated decoders decoded before the
// sync: with pages, the n Widgets in pages of 4 (three pages, two of them
// continued); streamed, at least wantItems Widgets of a watch list.
func checkListDecodes(t *testing.T, pages *listDecodes, streamed int64, wantPages bool, wantItems int64, n int64) {
	t.Helper()
	p, listed, continued := pages.pages.Load(), pages.items.Load(), pages.continued.Load()
	if wantPages && (p != 3 || listed != n || continued != 2) {
		t.Errorf("the generated list decoder decoded %d pages (%d continued) of %d Widgets; want 3 (2) of %d", p, continued, listed, n)
	}
	if !wantPages && p != 0 {
		t.Errorf("the generated list decoder decoded %d pages; want none", p)
	}
	if streamed < wantItems {
		t.Errorf("the generated decoder decoded %d Widgets before the sync; want %d", streamed, wantItems)
	}
}

// sameWidgets checks that the cache holds the server's Widgets,
// reflect.DeepEqual but for the managedFields the factory drops and, for
// objects a watch delivered, the TypeMeta client-go's decoders clear (a
// list's items keep theirs).
func sameWidgets(t *testing.T, cached []*stablev1.Widget, onServer []stablev1.Widget, watched bool) {
	t.Helper()
	got := make([]stablev1.Widget, 0, len(cached))
	for _, w := range cached {
		got = append(got, *w)
	}
	want := onServer
	for i := range want {
		want[i].ManagedFields = nil
		if watched {
			want[i].TypeMeta = metav1.TypeMeta{}
		}
	}
	sort.Slice(got, func(i, j int) bool { return got[i].Name < got[j].Name })
	sort.Slice(want, func(i, j int) bool { return want[i].Name < want[j].Name })
	if !reflect.DeepEqual(got, want) {
		t.Errorf("the cache holds\n %#v\nthe server\n %#v", got, want)
	}
}
