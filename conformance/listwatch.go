package conformance

import (
	"context"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
	clientgocache "k8s.io/client-go/tools/cache"

	ourcache "github.com/informer-gen/informer-gen/runtime/cache"
)

// ClientGoListerWatcher adapts a Client to client-go's ListerWatcher, and,
// unchanged, to runtime/cache's (the interfaces have the same shape). It
// declares no support for watch lists, so both reflectors list and then
// watch.
type ClientGoListerWatcher struct {
	Client *Client
}

var (
	_ clientgocache.ListerWatcherWithContext = ClientGoListerWatcher{}
	_ clientgocache.ListerWatcher            = ClientGoListerWatcher{}
	_ ourcache.ListerWatcher                 = ClientGoListerWatcher{}
	_ ourcache.ListerWatcherWithContext      = ClientGoListerWatcher{}
)

// List lists without a context (client-go's deprecated entry point).
func (lw ClientGoListerWatcher) List(opts metav1.ListOptions) (runtime.Object, error) {
	return lw.Client.List(context.Background(), opts)
}

// Watch watches without a context (client-go's deprecated entry point).
func (lw ClientGoListerWatcher) Watch(opts metav1.ListOptions) (watch.Interface, error) {
	return lw.Client.Watch(context.Background(), opts)
}

// ListWithContext lists; see Client.List.
func (lw ClientGoListerWatcher) ListWithContext(ctx context.Context, opts metav1.ListOptions) (runtime.Object, error) {
	return lw.Client.List(ctx, opts)
}

// WatchWithContext watches; see Client.Watch.
func (lw ClientGoListerWatcher) WatchWithContext(ctx context.Context, opts metav1.ListOptions) (watch.Interface, error) {
	return lw.Client.Watch(ctx, opts)
}

// IsWatchListSemanticsUnSupported tells client-go's reflector not to
// stream its lists over a watch.
func (ClientGoListerWatcher) IsWatchListSemanticsUnSupported() bool { return true }
