package rawstream

import (
	"context"
	"io"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// Request is the part of client-go's *rest.Request that Open uses: R is
// the request type itself (its methods return it) and L the rate limiter
// Throttle takes (flowcontrol.RateLimiter). protowatch.Request and
// jsonwatch.Request, the exported constraints, include these methods.
type Request[R any, L any] interface {
	Throttle(limiter L) R
	NamespaceIfScoped(namespace string, scoped bool) R
	Resource(resource string) R
	VersionedParams(obj runtime.Object, codec runtime.ParameterCodec) R
	Timeout(d time.Duration) R
	Stream(ctx context.Context) (io.ReadCloser, error)
}

// Open sends req, a new request of a clientset's REST client, as a typed
// client's Watch of resource in namespace (empty for all namespaces or a
// cluster-scoped resource) for options, with codec the clientset's
// scheme.ParameterCodec, and returns the response body. It differs from
// the typed Watch's request only where the stream needs it to: it is not
// throttled (client-go's Request.Watch is not either, its Request.Stream
// is), and accept, when not nil, sets its content negotiation right after
// (protowatch: UseProtobufAsDefault).
func Open[R Request[R, L], L any](ctx context.Context, req R, accept func(R) R, resource, namespace string, options metav1.ListOptions, codec runtime.ParameterCodec) (io.ReadCloser, error) {
	var timeout time.Duration
	if options.TimeoutSeconds != nil {
		timeout = time.Duration(*options.TimeoutSeconds) * time.Second
	}
	options.Watch = true
	var unthrottled L
	req = req.Throttle(unthrottled)
	if accept != nil {
		req = accept(req)
	}
	return req.
		NamespaceIfScoped(namespace, namespace != "").
		Resource(resource).
		VersionedParams(&options, codec).
		Timeout(timeout).
		Stream(ctx)
}
