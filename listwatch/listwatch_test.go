package listwatch

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"sync"
	"testing"
	"time"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/rest/fake"

	"github.com/informer-gen/informer-gen/runtime/cache"
	"github.com/informer-gen/informer-gen/runtime/cache/cachetest"
)

// fakeServer answers list requests with pods and watch requests with a
// stream of events, open until the test ends; it records every request.
type fakeServer struct {
	pods   []v1.Pod
	events [][]byte // encoded watch events

	mu       sync.Mutex
	requests []*url.URL
	watches  []*io.PipeWriter
}

func (s *fakeServer) client(t *testing.T) *fake.RESTClient {
	t.Cleanup(func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		for _, w := range s.watches {
			_ = w.Close()
		}
	})
	return &fake.RESTClient{
		NegotiatedSerializer: scheme.Codecs.WithoutConversion(),
		GroupVersion:         v1.SchemeGroupVersion,
		Client:               fake.CreateHTTPClient(s.roundTrip),
	}
}

func (s *fakeServer) roundTrip(req *http.Request) (*http.Response, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.requests = append(s.requests, req.URL)
	header := http.Header{"Content-Type": []string{"application/json"}}
	if req.URL.Query().Get("watch") != "true" {
		body, err := json.Marshal(&v1.PodList{TypeMeta: metav1.TypeMeta{Kind: "PodList", APIVersion: "v1"}, ListMeta: metav1.ListMeta{ResourceVersion: "10"}, Items: s.pods})
		if err != nil {
			return nil, err
		}
		return &http.Response{StatusCode: http.StatusOK, Header: header, Body: io.NopCloser(bytes.NewReader(body))}, nil
	}
	r, w := io.Pipe()
	s.watches = append(s.watches, w)
	go func() {
		for _, e := range s.events {
			if _, err := w.Write(e); err != nil {
				return
			}
		}
	}()
	return &http.Response{StatusCode: http.StatusOK, Header: header, Body: r}, nil
}

func (s *fakeServer) seen() []*url.URL {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]*url.URL(nil), s.requests...)
}

func pod(namespace, name, rv string) v1.Pod {
	return v1.Pod{
		TypeMeta:   metav1.TypeMeta{Kind: "Pod", APIVersion: "v1"},
		ObjectMeta: metav1.ObjectMeta{Namespace: namespace, Name: name, ResourceVersion: rv},
	}
}

// The ListWatch sends client-go's requests: the resource's path in the
// namespace (or across namespaces), the selector, and watch=true for
// watches, from every entry point (with and without a context).
func TestListWatchFromClientSendsClientGosRequests(t *testing.T) {
	tests := []struct {
		name      string
		lw        func(c Getter) *cache.ListWatch
		path      string
		selector  string
		labelSel  string
		listOrNot func(lw *cache.ListWatch) error
		watch     bool
	}{
		{"list in a namespace", func(c Getter) *cache.ListWatch {
			return NewListWatchFromClient(c, "pods", "ns", fields.OneTermEqualSelector("spec.nodeName", "n1"))
		}, "/namespaces/ns/pods", "spec.nodeName=n1", "", func(lw *cache.ListWatch) error { _, err := lw.List(metav1.ListOptions{}); return err }, false},
		{"list with a context across namespaces", func(c Getter) *cache.ListWatch {
			return NewListWatchFromClient(c, "pods", metav1.NamespaceAll, fields.Everything())
		}, "/pods", "", "", func(lw *cache.ListWatch) error {
			_, err := lw.ListWithContext(context.Background(), metav1.ListOptions{})
			return err
		}, false},
		{"watch", func(c Getter) *cache.ListWatch {
			return NewListWatchFromClient(c, "pods", "ns", fields.Everything())
		}, "/namespaces/ns/pods", "", "", func(lw *cache.ListWatch) error {
			w, err := lw.Watch(metav1.ListOptions{ResourceVersion: "10"})
			if err == nil {
				w.Stop()
			}
			return err
		}, true},
		{"filtered watch with a context", func(c Getter) *cache.ListWatch {
			return NewFilteredListWatchFromClient(c, "pods", "ns", func(o *metav1.ListOptions) { o.LabelSelector = "app=x" })
		}, "/namespaces/ns/pods", "", "app=x", func(lw *cache.ListWatch) error {
			w, err := lw.WatchWithContext(context.Background(), metav1.ListOptions{})
			if err == nil {
				w.Stop()
			}
			return err
		}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := &fakeServer{}
			if err := tt.listOrNot(tt.lw(srv.client(t))); err != nil {
				t.Fatal(err)
			}
			reqs := srv.seen()
			if len(reqs) != 1 {
				t.Fatalf("%d requests, want 1", len(reqs))
			}
			q := reqs[0].Query()
			if reqs[0].Path != tt.path || q.Get("fieldSelector") != tt.selector || q.Get("labelSelector") != tt.labelSel || (q.Get("watch") == "true") != tt.watch {
				t.Errorf("request %s, want path %s fieldSelector %q labelSelector %q watch %v", reqs[0], tt.path, tt.selector, tt.labelSel, tt.watch)
			}
		})
	}
}

// An informer of runtime/cache runs on the ListWatch: it lists, then
// watches from the list's resourceVersion and applies the events.
func TestInformerRunsOnTheListWatch(t *testing.T) {
	added := pod("ns", "b", "11")
	event, err := json.Marshal(metav1.WatchEvent{Type: "ADDED", Object: runtime.RawExtension{Object: &added}})
	if err != nil {
		t.Fatal(err)
	}
	srv := &fakeServer{pods: []v1.Pod{pod("ns", "a", "9")}, events: [][]byte{event}}
	lw := NewListWatchFromClient(srv.client(t), "pods", "ns", fields.Everything())
	informer := cache.NewSharedIndexInformer(lw, &v1.Pod{}, 0, cache.Indexers{})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	done := make(chan struct{})
	go func() { defer close(done); informer.RunWithContext(ctx) }()
	defer func() { cancel(); <-done }()
	if !cache.WaitForCacheSync(ctx.Done(), informer.HasSynced) {
		t.Fatal("never synced")
	}
	cachetest.Eventually(t, "the watched pod in the cache", func() bool { return len(informer.GetStore().ListKeys()) >= 2 })
	if _, exists, _ := informer.GetStore().GetByKey("ns/b"); !exists {
		t.Fatalf("the watched pod is not cached: %v", informer.GetStore().ListKeys())
	}
	var watchRV string
	for _, u := range srv.seen() {
		if u.Query().Get("watch") == "true" {
			watchRV = u.Query().Get("resourceVersion")
			break
		}
	}
	if watchRV != "10" {
		t.Errorf("watched from resourceVersion %q, want the list's (10)", watchRV)
	}
}
