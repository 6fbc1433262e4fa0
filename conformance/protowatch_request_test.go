package conformance

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/rest"
	"k8s.io/utils/ptr"

	"github.com/informer-gen/informer-gen/runtime/protowatch"
)

// sentRequest is what a server sees of a watch request.
type sentRequest struct {
	path, query, accept string
}

// requestRecorder is a server on 127.0.0.1 that records each request and
// answers it with an empty watch stream.
type requestRecorder struct {
	mu   sync.Mutex
	sent []sentRequest // guarded by mu
}

func (r *requestRecorder) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	r.mu.Lock()
	r.sent = append(r.sent, sentRequest{path: req.URL.Path, query: req.URL.Query().Encode(), accept: req.Header.Get("Accept")})
	r.mu.Unlock()
	w.Header().Set("Content-Type", runtime.ContentTypeProtobuf+";stream=watch")
	w.WriteHeader(http.StatusOK)
}

func (r *requestRecorder) last(t *testing.T) sentRequest {
	t.Helper()
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.sent) == 0 {
		t.Fatal("no request reached the server")
	}
	return r.sent[len(r.sent)-1]
}

// A generated informer opens its watch stream with protowatch.OpenStream
// through client-go's REST client: the server must see the request the
// typed client's Watch sends (path, query, Accept header), for each
// content type a client may be configured with.
func TestOpenStreamSendsTheTypedClientsWatchRequest(t *testing.T) {
	options := metav1.ListOptions{ResourceVersion: "7", LabelSelector: "app=web", AllowWatchBookmarks: true, TimeoutSeconds: ptr.To[int64](42)}
	for _, tc := range []struct {
		name        string
		contentType string
		namespace   string
		resource    string
		typed       func(context.Context, kubernetes.Interface) error
	}{
		{name: "namespaced, protobuf (the clientset's default)", namespace: "ns", resource: "pods", typed: func(ctx context.Context, kc kubernetes.Interface) error {
			_, err := kc.CoreV1().Pods("ns").Watch(ctx, options)
			return err
		}},
		{name: "all namespaces, JSON", contentType: runtime.ContentTypeJSON, resource: "pods", typed: func(ctx context.Context, kc kubernetes.Interface) error {
			_, err := kc.CoreV1().Pods(metav1.NamespaceAll).Watch(ctx, options)
			return err
		}},
		{name: "cluster-scoped, protobuf", resource: "nodes", typed: func(ctx context.Context, kc kubernetes.Interface) error {
			_, err := kc.CoreV1().Nodes().Watch(ctx, options)
			return err
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := &requestRecorder{}
			srv := httptest.NewServer(rec)
			t.Cleanup(srv.Close)
			kc, err := kubernetes.NewForConfig(&rest.Config{Host: srv.URL, ContentConfig: rest.ContentConfig{ContentType: tc.contentType}})
			if err != nil {
				t.Fatal(err)
			}
			if err := tc.typed(t.Context(), kc); err != nil {
				t.Fatal(err)
			}
			want := rec.last(t)
			body, err := protowatch.OpenStream(t.Context(), kc.CoreV1().RESTClient(), tc.resource, tc.namespace, options, scheme.ParameterCodec)
			if err != nil {
				t.Fatal(err)
			}
			_ = body.Close()
			if got := rec.last(t); got != want {
				t.Errorf("OpenStream sent\n %+v\nthe typed Watch\n %+v", got, want)
			}
		})
	}
}
