package e2e

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/rest"

	"github.com/informer-gen/informer-gen/e2e/internal/cluster"
	stablev1 "github.com/informer-gen/informer-gen/examples/crd/apis/stable/v1"
	"github.com/informer-gen/informer-gen/examples/crd/pkg/generated/clientset/versioned"
	"github.com/informer-gen/informer-gen/examples/crd/pkg/generated/informers/externalversions"
)

// watchListProgressTimeout is the runtime's documented default
// ReflectorOptions.WatchListProgressTimeout: how long a streamed initial
// list may go without an event before its initial-events-end bookmark.
const watchListProgressTimeout = 10 * time.Second

// hungSyncGuard fails a test whose informer never syncs. It is not a speed
// assertion: it is generous against the documented bound (the progress
// timeout plus a LIST) and well under WatchListTimeout (5 minutes), the
// total deadline a reflector without a progress deadline would wait.
const hungSyncGuard = 2 * time.Minute

// A proxy between the informer and the API server drops the bookmark that
// ends a watch list's initial events, as some aggregated APIs and proxies
// do: the stream delivers the objects and then nothing. The informer of
// the generated factory (watch lists on by default) gives up on the stream
// after the progress timeout, reports the stall, and syncs from a LIST,
// its cache holding exactly the server's objects.
func TestInformerSyncsThroughListWhenTheInitialEventsEndBookmarkIsDropped(t *testing.T) {
	c := sharedCluster(t)
	cfg := c.AdminConfig()
	cs := clientset(t, cfg)
	const ns, n = "dropped-bookmark", 8
	createNamespaces(t, cfg, ns)
	ctx := t.Context()
	for i := range n {
		if _, err := cs.StableV1().Widgets(ns).Create(ctx, &stablev1.Widget{
			ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("w-%d", i)},
			Spec:       stablev1.WidgetSpec{Size: int32(i), Color: "blue"},
		}, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	filter := newBookmarkFilter(t, cfg)
	f := externalversions.NewSharedInformerFactoryWithOptions(clientset(t, filter.Config()), 0, externalversions.WithNamespace(ns))
	t.Cleanup(f.Shutdown)
	inf := f.Stable().V1().Widgets().Informer()
	errs := &errorLog{}
	if err := inf.SetWatchErrorHandler(errs.handler); err != nil {
		t.Fatal(err)
	}
	guard, cancel := context.WithTimeout(ctx, hungSyncGuard)
	defer cancel()
	start := time.Now()
	f.StartWithContext(ctx)
	if err := f.WaitForCacheSyncWithContext(guard).AsError(); err != nil {
		t.Fatalf("the informer did not sync through the proxy: %v; requests: %v", err, describe(filter.Exchanges()))
	}
	t.Logf("synced through the proxy in %v (watch-list progress timeout %v); requests: %v",
		time.Since(start).Round(time.Millisecond), watchListProgressTimeout, describe(filter.Exchanges()))

	want, err := namespaceWidgets(ctx, cs, ns)
	if err != nil {
		t.Fatal(err)
	}
	if len(want) != n {
		t.Fatalf("the server holds %d widgets, want the %d created", len(want), n)
	}
	if d := diff(storeWidgets(t, inf.GetStore()), want); d != "" {
		t.Errorf("cache after sync: %s", d)
	}
	checkDroppedThenListed(t, filter.Exchanges(), "/apis/"+stablev1.GroupName+"/v1/namespaces/"+ns+"/widgets")
	checkStallReported(t, errs.snapshot())

	// The watch that follows the LIST, through the proxy too, keeps the
	// cache current.
	if _, err := cs.StableV1().Widgets(ns).Create(ctx, &stablev1.Widget{
		ObjectMeta: metav1.ObjectMeta{Name: "w-after-sync"},
	}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	waitConvergedWith(t, func(ctx context.Context) (versions, error) { return namespaceWidgets(ctx, cs, ns) },
		map[string]func() versions{"store": func() versions { return storeWidgets(t, inf.GetStore()) }})
}

func newBookmarkFilter(t *testing.T, cfg *rest.Config) *cluster.BookmarkFilter {
	t.Helper()
	filter, err := cluster.NewBookmarkFilter(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := filter.Close(); err != nil {
			t.Errorf("close the bookmark filter: %v", err)
		}
	})
	return filter
}

// checkDroppedThenListed checks that the filter forwarded a watch list
// (sendInitialEvents=true) of path whose initial-events-end bookmark it
// dropped, and after the drop a LIST of path.
func checkDroppedThenListed(t *testing.T, exchanges []cluster.Exchange, path string) {
	t.Helper()
	droppedAt, listedAfter := 0, false
	for _, e := range exchanges {
		if e.URL.Path != path {
			continue
		}
		if e.WatchList && e.DroppedAt > 0 && droppedAt == 0 {
			droppedAt = e.DroppedAt
		}
		listedAfter = listedAfter || (droppedAt > 0 && e.IsList() && e.Seq > droppedAt)
	}
	if droppedAt == 0 || !listedAfter {
		t.Errorf("want a watch list (sendInitialEvents=true) of %s whose initial-events-end bookmark was dropped, then a LIST; requests: %v",
			path, describe(exchanges))
	}
}

// checkStallReported checks that the watch error handler was told the
// watch list stalled before its initial-events-end bookmark (rather than
// failing some other way).
func checkStallReported(t *testing.T, errs []error) {
	t.Helper()
	for _, err := range errs {
		if strings.Contains(err.Error(), "no event before the initial-events-end bookmark") {
			return
		}
	}
	t.Errorf("the watch error handler was not told that the watch list stalled; errors: %v", errs)
}

// namespaceWidgets lists the Widgets of namespace ns on the server.
func namespaceWidgets(ctx context.Context, cs versioned.Interface, ns string) (versions, error) {
	list, err := cs.StableV1().Widgets(ns).List(ctx, metav1.ListOptions{})
	if err != nil {
		return nil, err
	}
	v := make(versions, len(list.Items))
	for i := range list.Items {
		v[ns+"/"+list.Items[i].Name] = list.Items[i].ResourceVersion
	}
	return v, nil
}

// describe lists the requests a BookmarkFilter forwarded, in order.
func describe(exchanges []cluster.Exchange) []string {
	out := make([]string, 0, len(exchanges))
	for _, e := range exchanges {
		s := fmt.Sprintf("#%d %s %s", e.Seq, e.Method, e.URL.RequestURI())
		if e.DroppedAt > 0 {
			s += fmt.Sprintf(" (bookmark dropped at #%d)", e.DroppedAt)
		}
		out = append(out, s)
	}
	return out
}
