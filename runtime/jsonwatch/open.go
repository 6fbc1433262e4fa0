package jsonwatch

import (
	"context"
	"io"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/informer-gen/informer-gen/runtime/internal/rawstream"
)

// Request is the part of client-go's *rest.Request that OpenStream uses,
// declared here because this package never imports client-go: R is the
// request type itself (*rest.Request, whose methods return it) and L the
// rate limiter Throttle takes (flowcontrol.RateLimiter). Both are
// inferred from the REST client given to OpenStream.
type Request[R any, L any] interface {
	Throttle(limiter L) R
	NamespaceIfScoped(namespace string, scoped bool) R
	Resource(resource string) R
	VersionedParams(obj runtime.Object, codec runtime.ParameterCodec) R
	Timeout(d time.Duration) R
	Stream(ctx context.Context) (io.ReadCloser, error)
}

// OpenStream sends the request a typed client's Watch of resource in
// namespace (empty for all namespaces or a cluster-scoped resource)
// sends for options, through client, a clientset's REST client
// (rest.Interface), and returns the response body: a Watcher's Open.
// The request differs from the typed Watch's only where the stream needs
// it to: it is not throttled (client-go's Request.Watch is not either,
// its Request.Stream is). Its Accept header is the client's, as the
// typed Watch's. codec is the clientset's scheme.ParameterCodec. A nil
// client gets ErrNoStream.
//
// Generated informers call it with the typed group client's RESTClient():
//
//	jsonwatch.OpenStream(ctx, cs.StableV1().RESTClient(), "widgets", namespace, opts, scheme.ParameterCodec)
func OpenStream[R Request[R, L], L any](ctx context.Context, client interface{ Get() R }, resource, namespace string, options metav1.ListOptions, codec runtime.ParameterCodec) (io.ReadCloser, error) {
	if client == nil {
		return nil, ErrNoStream
	}
	return rawstream.Open[R, L](ctx, client.Get(), nil, resource, namespace, options, codec)
}
