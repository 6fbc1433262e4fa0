package protowatch

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/utils/ptr"
)

// limiter stands for client-go's flowcontrol.RateLimiter.
type limiter interface{ Accept() }

// clientLimiter is the REST client's limiter, which a request starts with.
type clientLimiter struct{}

func (clientLimiter) Accept() {}

// recordedRequest records what OpenStream asks of a request, in the
// shape of client-go's *rest.Request (each method returns it).
type recordedRequest struct {
	calls   []string
	limiter limiter
	options *metav1.ListOptions
	timeout time.Duration
}

func (r *recordedRequest) Throttle(l limiter) *recordedRequest {
	r.calls, r.limiter = append(r.calls, "Throttle"), l
	return r
}

func (r *recordedRequest) UseProtobufAsDefault() *recordedRequest {
	r.calls = append(r.calls, "UseProtobufAsDefault")
	return r
}

func (r *recordedRequest) NamespaceIfScoped(namespace string, scoped bool) *recordedRequest {
	if scoped {
		r.calls = append(r.calls, "Namespace "+namespace)
	}
	return r
}

func (r *recordedRequest) Resource(resource string) *recordedRequest {
	r.calls = append(r.calls, "Resource "+resource)
	return r
}

func (r *recordedRequest) VersionedParams(obj runtime.Object, _ runtime.ParameterCodec) *recordedRequest {
	r.calls, r.options = append(r.calls, "VersionedParams"), obj.(*metav1.ListOptions)
	return r
}

func (r *recordedRequest) Timeout(d time.Duration) *recordedRequest {
	r.calls, r.timeout = append(r.calls, "Timeout"), d
	return r
}

func (r *recordedRequest) Stream(context.Context) (io.ReadCloser, error) {
	r.calls = append(r.calls, "Stream")
	return io.NopCloser(strings.NewReader("")), nil
}

// restClient stands for client-go's rest.Interface.
type restClient interface{ Get() *recordedRequest }

type recordingClient struct{ req *recordedRequest }

func (c *recordingClient) Get() *recordedRequest { return c.req }

func TestOpenStreamSendsTheTypedWatchRequestUnthrottled(t *testing.T) {
	for _, tc := range []struct {
		name        string
		namespace   string
		options     metav1.ListOptions
		wantCalls   string
		wantTimeout time.Duration
	}{
		{
			name:      "a namespace, no timeout",
			namespace: "ns", options: metav1.ListOptions{ResourceVersion: "7"},
			wantCalls: "Throttle,UseProtobufAsDefault,Namespace ns,Resource pods,VersionedParams,Timeout,Stream",
		},
		{
			name:      "all namespaces or a cluster-scoped resource, the options' timeout",
			options:   metav1.ListOptions{ResourceVersion: "7", TimeoutSeconds: ptr.To[int64](42)},
			wantCalls: "Throttle,UseProtobufAsDefault,Resource pods,VersionedParams,Timeout,Stream", wantTimeout: 42 * time.Second,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req := &recordedRequest{limiter: clientLimiter{}}
			var client restClient = &recordingClient{req: req}
			given := tc.options
			body, err := OpenStream(context.Background(), client, "pods", tc.namespace, given, metav1.ParameterCodec)
			if err != nil || body == nil {
				t.Fatalf("OpenStream: body %v, error %v", body, err)
			}
			if got := strings.Join(req.calls, ","); got != tc.wantCalls {
				t.Errorf("requests calls %s, want %s", got, tc.wantCalls)
			}
			if req.limiter != nil {
				t.Errorf("throttled by %#v, want nil (unthrottled)", req.limiter)
			}
			if req.timeout != tc.wantTimeout {
				t.Errorf("timeout %v, want %v", req.timeout, tc.wantTimeout)
			}
			want := tc.options
			want.Watch = true
			if req.options == nil || *req.options != want {
				t.Errorf("options %+v, want %+v", req.options, want)
			}
			if given.Watch {
				t.Error("the caller's options were changed")
			}
		})
	}
}

func TestOpenStreamWithoutAClientIsErrNoStream(t *testing.T) {
	var client restClient // a typed group client's RESTClient() of a zero Clientset
	if body, err := OpenStream(context.Background(), client, "pods", "", metav1.ListOptions{}, metav1.ParameterCodec); !errors.Is(err, ErrNoStream) || body != nil {
		t.Errorf("OpenStream(nil client): body %v, error %v; want ErrNoStream", body, err)
	}
}
