package cache

import (
	"context"
	"errors"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
)

// ListerWatcher lists and watches one kind of object on an API server.
// Implementations must be safe for concurrent use; the Reflector calls them
// from one goroutine at a time, but cancels ctx from another.
type ListerWatcher interface {
	// List returns a list object (one implementing meta.ListInterface)
	// for opts. When opts.Limit is set the server may return a page with a
	// continue token.
	List(ctx context.Context, opts metav1.ListOptions) (runtime.Object, error)
	// Watch starts a watch from opts.ResourceVersion.
	Watch(ctx context.Context, opts metav1.ListOptions) (watch.Interface, error)
}

// ListFunc lists objects; see ListerWatcher.List.
type ListFunc func(ctx context.Context, opts metav1.ListOptions) (runtime.Object, error)

// WatchFunc watches objects; see ListerWatcher.Watch.
type WatchFunc func(ctx context.Context, opts metav1.ListOptions) (watch.Interface, error)

// ListWatch is a ListerWatcher made of two functions, the shape generated
// informers build around a typed clientset.
type ListWatch struct {
	ListFunc  ListFunc
	WatchFunc WatchFunc
	// DisableChunking asks the Reflector not to page the initial list, for
	// servers that do not support limit/continue.
	DisableChunking bool
}

var errNoFunc = errors.New("cache.ListWatch: function not set")

// List calls ListFunc.
func (lw *ListWatch) List(ctx context.Context, opts metav1.ListOptions) (runtime.Object, error) {
	if lw.ListFunc == nil {
		return nil, errNoFunc
	}
	return lw.ListFunc(ctx, opts)
}

// Watch calls WatchFunc.
func (lw *ListWatch) Watch(ctx context.Context, opts metav1.ListOptions) (watch.Interface, error) {
	if lw.WatchFunc == nil {
		return nil, errNoFunc
	}
	return lw.WatchFunc(ctx, opts)
}
