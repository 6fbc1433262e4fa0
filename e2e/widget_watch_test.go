package e2e

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/wait"

	stablev1 "github.com/informer-gen/informer-gen/examples/crd/apis/stable/v1"
	"github.com/informer-gen/informer-gen/examples/crd/pkg/generated/informers/externalversions"
	"github.com/informer-gen/informer-gen/runtime/jsondecode"
)

// countWidgetDecodes registers, for the test, a Widget decoder that counts
// the Widgets the generated decoder decodes, and returns the count.
// Informers built afterwards find it (jsondecode.For).
func countWidgetDecodes(t *testing.T) *atomic.Int64 {
	t.Helper()
	generated, ok := jsondecode.For[stablev1.Widget]()
	if !ok {
		t.Fatal("examples/crd registered no Widget decoder (--json-decoders)")
	}
	var n atomic.Int64
	jsondecode.Register(func(d *jsondecode.Decoder, p *stablev1.Widget) {
		n.Add(1)
		generated(d, p)
	})
	t.Cleanup(func() { jsondecode.Register(generated) })
	return &n
}

// Generated informers of custom resources decode the server's JSON watch
// stream with their generated decoders (jsonwatch.Watcher). Against a
// real kube-apiserver, the Widget informer streams its initial list,
// follows creations, updates and deletions and ends with the server's
// Widgets, through the generated decoder, and through the typed client
// when WithoutGeneratedDecoders turns it off.
func TestGeneratedWidgetInformerFollowsTheServerThroughItsGeneratedDecoder(t *testing.T) {
	c := sharedCluster(t)
	for i, tc := range []struct {
		name        string
		options     []externalversions.SharedInformerOption
		wantDecoded bool
	}{
		{name: "generated decoders (the default of informers generated with them)", wantDecoded: true},
		{name: "WithoutGeneratedDecoders: the typed client", options: []externalversions.SharedInformerOption{externalversions.WithoutGeneratedDecoders()}},
		{name: "paged lists, then watches through the generated decoder", options: []externalversions.SharedInformerOption{externalversions.WithoutWatchList()}, wantDecoded: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			decoded := countWidgetDecodes(t)
			ns := fmt.Sprintf("widget-watch-%d-%d", i, time.Now().UnixNano()) // fresh under -count
			cfg := c.AdminConfig()
			createNamespaces(t, cfg, ns)
			cs := clientset(t, cfg)
			createWidgets(t, cs, ns, "before", 5)

			f := externalversions.NewSharedInformerFactoryWithOptions(cs, 0, append(tc.options, externalversions.WithNamespace(ns))...)
			lister := f.Stable().V1().Widgets().Lister()
			f.StartWithContext(t.Context())
			t.Cleanup(f.Shutdown)
			if res := f.WaitForCacheSyncWithContext(t.Context()); res.AsError() != nil {
				t.Fatal(res.AsError())
			}

			widgets := cs.StableV1().Widgets(ns)
			createWidgets(t, cs, ns, "after", 5)
			for _, name := range []string{"before-0", "after-1"} {
				if _, err := widgets.Patch(t.Context(), name, types.MergePatchType, []byte(`{"spec":{"color":"blue"},"metadata":{"labels":{"changed":"yes"}}}`), metav1.PatchOptions{}); err != nil {
					t.Fatal(err)
				}
			}
			for _, name := range []string{"before-1", "after-2"} {
				if err := widgets.Delete(t.Context(), name, metav1.DeleteOptions{}); err != nil {
					t.Fatal(err)
				}
			}

			var cached, onServer []string
			err := wait.PollUntilContextTimeout(t.Context(), 50*time.Millisecond, 30*time.Second, true, func(ctx context.Context) (bool, error) {
				list, err := widgets.List(ctx, metav1.ListOptions{})
				if err != nil {
					return false, err
				}
				onServer = widgetVersions(list.Items)
				inCache, err := lister.Widgets(ns).List(labels.Everything())
				if err != nil {
					return false, err
				}
				cached = cached[:0]
				for _, w := range inCache {
					// What a watch delivered comes without TypeMeta, as from
					// client-go's decoders (a paged list's items keep theirs).
					fromWatch := strings.HasPrefix(w.Name, "after-") || w.Labels["changed"] != ""
					if fromWatch && (w.APIVersion != "" || w.Kind != "") {
						return false, fmt.Errorf("cached Widget %s has TypeMeta %v, client-go's decoders clear it", w.Name, w.TypeMeta)
					}
					cached = append(cached, widgetVersion(*w))
				}
				sort.Strings(cached)
				return strings.Join(cached, ",") == strings.Join(onServer, ","), nil
			})
			if err != nil {
				t.Fatalf("the cache holds %v, the server %v: %v", cached, onServer, err)
			}
			if n := decoded.Load(); (n > 0) != tc.wantDecoded {
				t.Errorf("the generated decoder decoded %d Widgets; want some: %v", n, tc.wantDecoded)
			}
		})
	}
}

func widgetVersion(w stablev1.Widget) string {
	return w.Name + "@" + w.ResourceVersion + " " + w.Labels["changed"] + " " + w.Spec.Color
}

// widgetVersions is each Widget's widgetVersion, sorted.
func widgetVersions(items []stablev1.Widget) []string {
	out := make([]string, 0, len(items))
	for _, w := range items {
		out = append(out, widgetVersion(w))
	}
	sort.Strings(out)
	return out
}
