package e2e

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/rest"

	stablev1 "github.com/informer-gen/informer-gen/examples/crd/apis/stable/v1"
	"github.com/informer-gen/informer-gen/examples/crd/pkg/generated/informers/externalversions"
)

// requestCounter counts the widget list and streamed-list (watch with
// sendInitialEvents) requests a client makes.
type requestCounter struct {
	next                http.RoundTripper
	lists, streamedList atomic.Int32
}

func (c *requestCounter) RoundTrip(req *http.Request) (*http.Response, error) {
	if strings.HasSuffix(req.URL.Path, "/widgets") {
		q := req.URL.Query()
		switch {
		case q.Get("watch") == "true" && q.Get("sendInitialEvents") == "true":
			c.streamedList.Add(1)
		case q.Get("watch") != "true":
			c.lists.Add(1)
		}
	}
	return c.next.RoundTrip(req)
}

// The generated factory's informers stream the initial list from the real
// server by default (one watch with sendInitialEvents, no LIST), and with
// WithWatchList; with WithoutWatchList they list.
func TestGeneratedFactoryStreamsTheInitialListUnlessTurnedOff(t *testing.T) {
	c := sharedCluster(t)
	cfg := c.AdminConfig()
	tests := []struct {
		name                  string
		opts                  []externalversions.SharedInformerOption
		wantLists, wantStream bool
	}{
		{"default streams", nil, false, true},
		{"WithWatchList streams", []externalversions.SharedInformerOption{externalversions.WithWatchList()}, false, true},
		{"WithoutWatchList lists", []externalversions.SharedInformerOption{externalversions.WithoutWatchList()}, true, false},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ns := fmt.Sprintf("watch-list-%d", i)
			createNamespaces(t, cfg, ns)
			ctx := t.Context()
			const n = 30
			for j := range n {
				if _, err := clientset(t, cfg).StableV1().Widgets(ns).Create(ctx, &stablev1.Widget{
					ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("w-%02d", j)},
					Spec:       stablev1.WidgetSpec{Size: int32(j), Color: "red"},
				}, metav1.CreateOptions{}); err != nil {
					t.Fatal(err)
				}
			}
			counter := &requestCounter{}
			counted := rest.CopyConfig(cfg)
			counted.Wrap(func(rt http.RoundTripper) http.RoundTripper { counter.next = rt; return counter })
			f := externalversions.NewSharedInformerFactoryWithOptions(clientset(t, counted), 0, append(tt.opts, externalversions.WithNamespace(ns))...)
			t.Cleanup(f.Shutdown)
			lister := f.Stable().V1().Widgets().Lister()
			f.StartWithContext(ctx)
			if err := f.WaitForCacheSyncWithContext(ctx).AsError(); err != nil {
				t.Fatal(err)
			}
			// A list at resourceVersion 0 may be served by the watch cache a
			// little behind the creations; the watch brings the rest.
			if err := wait.PollUntilContextTimeout(ctx, 20*time.Millisecond, convergeTimeout, true, func(context.Context) (bool, error) {
				got, err := lister.Widgets(ns).List(labels.Everything())
				return err == nil && len(got) == n, nil
			}); err != nil {
				t.Fatalf("the cache never held the %d widgets: %v", n, err)
			}
			lists, streamed := counter.lists.Load(), counter.streamedList.Load()
			if (lists > 0) != tt.wantLists || (streamed > 0) != tt.wantStream {
				t.Errorf("%d LIST and %d streamed-list requests; want lists %t, streamed %t", lists, streamed, tt.wantLists, tt.wantStream)
			}
		})
	}
}
