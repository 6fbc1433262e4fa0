package conformance

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/rest"
	clientgocache "k8s.io/client-go/tools/cache"

	stablev1 "github.com/informer-gen/informer-gen/examples/crd/apis/stable/v1"
	"github.com/informer-gen/informer-gen/examples/crd/pkg/generated/clientset/versioned"
	"github.com/informer-gen/informer-gen/examples/crd/pkg/generated/informers/externalversions"
)

// widgetServer serves the Widgets of namespace "ns" on 127.0.0.1 to one
// informer: lists and watch lists hold widget a; the first watch that is
// not only a watch list's initial events then sends widget b and the
// malformed frame bad and ends; later watches stay open, silent. It
// records each request (verb, resourceVersion, sendInitialEvents).
type widgetServer struct {
	t   *testing.T
	bad string
	mu  sync.Mutex
	// requests is guarded by mu; arrived gets a value per request.
	requests []string
	watched  bool
	arrived  chan struct{}
}

func (s *widgetServer) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	q := req.URL.Query()
	s.mu.Lock()
	isWatch := q.Get("watch") == "true"
	verb := "LIST"
	if isWatch {
		verb = "WATCH"
	}
	s.requests = append(s.requests, fmt.Sprintf("%s rv=%s initial=%s", verb, q.Get("resourceVersion"), q.Get("sendInitialEvents")))
	first := isWatch && !s.watched
	s.watched = s.watched || isWatch
	s.mu.Unlock()
	s.arrived <- struct{}{}
	w.Header().Set("Content-Type", "application/json")
	if !isWatch {
		_, _ = fmt.Fprintf(w, `{"kind":"WidgetList","apiVersion":"stable.example.com/v1","metadata":{"resourceVersion":"10"},"items":[%s]}`, widgetJSONAt(s.t, "a", "5"))
		return
	}
	if q.Get("sendInitialEvents") == "true" {
		_, _ = io.WriteString(w, widgetEvent(s.t, "ADDED", testWidget("a", "5")))
		_, _ = io.WriteString(w, widgetEvent(s.t, "BOOKMARK", &stablev1.Widget{
			TypeMeta:   metav1.TypeMeta{APIVersion: "stable.example.com/v1", Kind: "Widget"},
			ObjectMeta: metav1.ObjectMeta{ResourceVersion: "10", Annotations: map[string]string{metav1.InitialEventsAnnotationKey: "true"}},
		}))
	}
	w.(http.Flusher).Flush()
	if first {
		_, _ = io.WriteString(w, widgetEvent(s.t, "ADDED", testWidget("b", "11"))+s.bad)
		return
	}
	<-req.Context().Done()
}

// widgetJSONAt is widget name at resourceVersion rv, as a list item.
func widgetJSONAt(t *testing.T, name, rv string) string {
	ev := widgetEvent(t, "ADDED", testWidget(name, rv))
	return strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(ev), `{"type":"ADDED","object":`), "}")
}

// requestsOf runs an informer started by start against a widgetServer
// serving bad until it made n requests, and returns them.
func requestsOf(t *testing.T, bad string, n int, start func(ctx context.Context, cs versioned.Interface)) []string {
	s := &widgetServer{t: t, bad: bad, arrived: make(chan struct{}, 64)}
	srv := httptest.NewServer(s)
	defer srv.Close()
	cs, err := versioned.NewForConfig(&rest.Config{Host: srv.URL, QPS: -1})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	start(ctx, cs)
	deadline := time.NewTimer(30 * time.Second)
	defer deadline.Stop()
	for range n {
		select {
		case <-s.arrived:
		case <-deadline.C:
			s.mu.Lock()
			defer s.mu.Unlock()
			t.Fatalf("%d requests in 30s, want %d: %v", len(s.requests), n, s.requests)
		}
	}
	cancel()
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.requests[:n]...)
}

// A malformed frame in a JSON watch stream ends the watch of the
// generated Widget informer (jsonwatch) as it ends the watch of the same
// informer over the typed client (WithoutGeneratedDecoders): both
// reconnect with the same requests, since the events are client-go's
// (TestJSONWatchDecodesWhatClientGoDecodes).
//
// client-go's informer over the typed client is run beside them, and its
// reconnect is pinned (clientGo): after a watch that ended with an error
// event it relists through a watch list from the last resourceVersion
// (after a 410 too), where runtime/cache's reflector resumes the watch
// at that resourceVersion (after a 410: relists from the latest). That
// difference is the reflector's, whichever decoder fed it; this test
// found it and leaves it to runtime/cache.
func TestJSONWatchReconnectsAfterAMalformedStreamAsTheTypedClient(t *testing.T) {
	b := widgetEvent(t, "ADDED", testWidget("c", "12"))
	const relistFrom11 = "WATCH rv=11 initial=true"
	for _, tc := range []struct{ name, bad, clientGo string }{
		{"a stream cut inside an event", b[:len(b)/2], ""},
		{"an event that is not JSON", "{not json}\n", relistFrom11},
		{"an unknown event type", strings.Replace(b, `"ADDED"`, `"RENAMED"`, 1), relistFrom11},
		{"an invalid object", strings.Replace(b, `"size":3`, `"size":"3"`, 1), relistFrom11},
		{"an object of another kind", widgetEvent(t, "ADDED", &stablev1.Gadget{TypeMeta: metav1.TypeMeta{APIVersion: "stable.example.com/v1", Kind: "Gadget"}, ObjectMeta: metav1.ObjectMeta{Name: "g", Namespace: "ns", ResourceVersion: "12"}}), ""},
		{"an ERROR event", widgetEvent(t, "ERROR", &metav1.Status{TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Status"}, Status: metav1.StatusFailure, Code: http.StatusGone, Reason: metav1.StatusReasonExpired, Message: "too old resource version: 11 (12)"}), relistFrom11},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			const n = 2 // the first watch, then how each informer reconnects (later watches are silent)
			ourInformer := func(opts ...externalversions.SharedInformerOption) func(ctx context.Context, cs versioned.Interface) {
				return func(ctx context.Context, cs versioned.Interface) {
					f := externalversions.NewSharedInformerFactoryWithOptions(cs, 0, append(opts, externalversions.WithNamespace("ns"))...)
					f.Stable().V1().Widgets().Informer()
					f.StartWithContext(ctx)
				}
			}
			ours := requestsOf(t, tc.bad, n, ourInformer())
			typed := requestsOf(t, tc.bad, n, ourInformer(externalversions.WithoutGeneratedDecoders()))
			theirs := requestsOf(t, tc.bad, n, func(ctx context.Context, cs versioned.Interface) {
				widgets := cs.StableV1().Widgets("ns")
				inf := clientgocache.NewSharedIndexInformer(clientgocache.ToListWatcherWithWatchListSemantics(&clientgocache.ListWatch{
					ListWithContextFunc: func(ctx context.Context, o metav1.ListOptions) (runtime.Object, error) {
						return widgets.List(ctx, o)
					},
					WatchFuncWithContext: func(ctx context.Context, o metav1.ListOptions) (watch.Interface, error) {
						return widgets.Watch(ctx, o)
					},
				}, cs), &stablev1.Widget{}, 0, clientgocache.Indexers{})
				go inf.RunWithContext(ctx)
			})
			if strings.Join(ours, "; ") != strings.Join(typed, "; ") {
				t.Errorf("requests:\n generated decoders %v\n typed client       %v", ours, typed)
			}
			want := ours
			if tc.clientGo != "" {
				want = []string{ours[0], tc.clientGo}
			}
			if strings.Join(want, "; ") != strings.Join(theirs, "; ") {
				t.Errorf("client-go's requests %v, want %v", theirs, want)
			}
		})
	}
}
