package jsonwatch

import (
	"context"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// ListRequest is the part of client-go's *rest.Request that GetList
// uses, declared here because this package never imports client-go: R is
// the request type itself (*rest.Request, whose methods return it) and
// Res the result Do returns (rest.Result). Both are inferred from the
// REST client given to GetList.
type ListRequest[R any, Res Result[Res]] interface {
	NamespaceIfScoped(namespace string, scoped bool) R
	Resource(resource string) R
	VersionedParams(obj runtime.Object, codec runtime.ParameterCodec) R
	Timeout(d time.Duration) R
	Do(ctx context.Context) Res
}

// Result is the part of client-go's rest.Result that GetList reads.
type Result[Res any] interface {
	Raw() ([]byte, error)
	Into(obj runtime.Object) error
	ContentType(contentType *string) Res
}

// Response is a LIST response as client-go's REST client read it (a
// rest.Result): what a Lister decodes itself, or hands to Into.
type Response struct {
	// Body and Err are the result's (rest.Result.Raw): Err is not nil
	// when the request failed or the server answered with an error
	// status.
	Body []byte
	Err  error
	// ContentType is the response's content type, or the client's when
	// the response had none (rest.Result.ContentType).
	ContentType string
	// Into decodes the response into obj as the typed client's List does
	// (rest.Result.Into): client-go's object, or client-go's error.
	Into func(obj runtime.Object) error
}

// GetList sends the request a typed client's List of resource in
// namespace (empty for all namespaces or a cluster-scoped resource)
// sends for options, through client, a clientset's REST client
// (rest.Interface), and returns the response as client-go's REST client
// read it: a Lister's Get. The request is the typed List's exactly (the
// same builder calls in the same order: throttled, retried and timed out
// as client-go's), so the response, and its error when it has one, are
// what the typed client would have had; only the body's decoding is left
// to the caller. codec is the clientset's scheme.ParameterCodec. A nil
// client gets ErrNoStream.
//
// Generated informers call it with the typed group client's RESTClient():
//
//	jsonwatch.GetList(ctx, cs.StableV1().RESTClient(), "widgets", namespace, opts, scheme.ParameterCodec)
func GetList[R ListRequest[R, Res], Res Result[Res]](ctx context.Context, client interface{ Get() R }, resource, namespace string, options metav1.ListOptions, codec runtime.ParameterCodec) (Response, error) {
	if client == nil {
		return Response{}, ErrNoStream
	}
	var timeout time.Duration
	if options.TimeoutSeconds != nil {
		timeout = time.Duration(*options.TimeoutSeconds) * time.Second
	}
	res := client.Get().
		NamespaceIfScoped(namespace, namespace != "").
		Resource(resource).
		VersionedParams(&options, codec).
		Timeout(timeout).
		Do(ctx)
	var r Response
	res.ContentType(&r.ContentType)
	r.Body, r.Err = res.Raw()
	r.Into = res.Into
	return r, nil
}
