package cache

import (
	"context"
	"errors"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
)

// Lister lists one kind of object. See ListerWatcher.
type Lister interface {
	// List returns a list object (one implementing meta.ListInterface)
	// for options. When options.Limit is set the server may return a page
	// with a continue token.
	List(options metav1.ListOptions) (runtime.Object, error)
}

// ListerWithContext is Lister whose calls a context cancels.
type ListerWithContext interface {
	// ListWithContext is Lister.List, cancelled with ctx.
	ListWithContext(ctx context.Context, options metav1.ListOptions) (runtime.Object, error)
}

// Watcher watches one kind of object. See ListerWatcher.
type Watcher interface {
	// Watch starts a watch from options.ResourceVersion.
	Watch(options metav1.ListOptions) (watch.Interface, error)
}

// WatcherWithContext is Watcher whose calls a context cancels.
type WatcherWithContext interface {
	// WatchWithContext is Watcher.Watch, cancelled with ctx.
	WatchWithContext(ctx context.Context, options metav1.ListOptions) (watch.Interface, error)
}

// ListerWatcher lists and watches one kind of object on an API server; it
// is what informers and reflectors are built from. An implementation that
// also implements ListerWatcherWithContext (ListWatch does) is called
// through the context forms, so stopping the informer cancels calls in
// flight. Implementations must be safe for concurrent use.
type ListerWatcher interface {
	Lister
	Watcher
}

// ListerWatcherWithContext is ListerWatcher whose calls a context cancels.
type ListerWatcherWithContext interface {
	ListerWithContext
	WatcherWithContext
}

// ToListerWithContext returns l itself when it implements
// ListerWithContext, and otherwise an adapter that ignores the context.
func ToListerWithContext(l Lister) ListerWithContext {
	if lc, ok := l.(ListerWithContext); ok {
		return lc
	}
	return listerAdapter{l}
}

// ToWatcherWithContext returns w itself when it implements
// WatcherWithContext, and otherwise an adapter that ignores the context.
func ToWatcherWithContext(w Watcher) WatcherWithContext {
	if wc, ok := w.(WatcherWithContext); ok {
		return wc
	}
	return watcherAdapter{w}
}

// ToListerWatcherWithContext returns lw itself when it implements
// ListerWatcherWithContext, and otherwise adapters for whichever half
// lacks the context form.
func ToListerWatcherWithContext(lw ListerWatcher) ListerWatcherWithContext {
	if lwc, ok := lw.(ListerWatcherWithContext); ok {
		return lwc
	}
	return listerWatcherAdapter{ToListerWithContext(lw), ToWatcherWithContext(lw)}
}

type listerAdapter struct{ l Lister }

func (a listerAdapter) ListWithContext(_ context.Context, options metav1.ListOptions) (runtime.Object, error) {
	return a.l.List(options)
}

type watcherAdapter struct{ w Watcher }

func (a watcherAdapter) WatchWithContext(_ context.Context, options metav1.ListOptions) (watch.Interface, error) {
	return a.w.Watch(options)
}

type listerWatcherAdapter struct {
	ListerWithContext
	WatcherWithContext
}

// ListFunc lists objects; see Lister.
type ListFunc func(options metav1.ListOptions) (runtime.Object, error)

// ListWithContextFunc lists objects; see ListerWithContext.
type ListWithContextFunc func(ctx context.Context, options metav1.ListOptions) (runtime.Object, error)

// WatchFunc watches objects; see Watcher.
type WatchFunc func(options metav1.ListOptions) (watch.Interface, error)

// WatchFuncWithContext watches objects; see WatcherWithContext.
type WatchFuncWithContext func(ctx context.Context, options metav1.ListOptions) (watch.Interface, error)

// ListWatch is a ListerWatcher and ListerWatcherWithContext made of
// functions, the shape generated informers build around a typed clientset.
// Set the context forms, the plain forms, or both: each method prefers its
// own form and falls back to the other (the context-less fallback uses
// context.Background()).
type ListWatch struct {
	ListFunc  ListFunc
	WatchFunc WatchFunc
	// ListWithContextFunc and WatchFuncWithContext are preferred by the
	// context methods, which informers use.
	ListWithContextFunc  ListWithContextFunc
	WatchFuncWithContext WatchFuncWithContext
	// DisableChunking asks the Reflector not to page the initial list, for
	// servers that do not support limit/continue.
	DisableChunking bool
}

var (
	_ ListerWatcher            = &ListWatch{}
	_ ListerWatcherWithContext = &ListWatch{}
)

var errNoFunc = errors.New("cache.ListWatch: function not set")

// List calls ListFunc, or ListWithContextFunc with context.Background().
func (lw *ListWatch) List(options metav1.ListOptions) (runtime.Object, error) {
	if lw.ListFunc != nil {
		return lw.ListFunc(options)
	}
	if lw.ListWithContextFunc != nil {
		return lw.ListWithContextFunc(context.Background(), options)
	}
	return nil, errNoFunc
}

// ListWithContext calls ListWithContextFunc, or ListFunc.
func (lw *ListWatch) ListWithContext(ctx context.Context, options metav1.ListOptions) (runtime.Object, error) {
	if lw.ListWithContextFunc != nil {
		return lw.ListWithContextFunc(ctx, options)
	}
	if lw.ListFunc != nil {
		return lw.ListFunc(options)
	}
	return nil, errNoFunc
}

// Watch calls WatchFunc, or WatchFuncWithContext with context.Background().
func (lw *ListWatch) Watch(options metav1.ListOptions) (watch.Interface, error) {
	if lw.WatchFunc != nil {
		return lw.WatchFunc(options)
	}
	if lw.WatchFuncWithContext != nil {
		return lw.WatchFuncWithContext(context.Background(), options)
	}
	return nil, errNoFunc
}

// WatchWithContext calls WatchFuncWithContext, or WatchFunc.
func (lw *ListWatch) WatchWithContext(ctx context.Context, options metav1.ListOptions) (watch.Interface, error) {
	if lw.WatchFuncWithContext != nil {
		return lw.WatchFuncWithContext(ctx, options)
	}
	if lw.WatchFunc != nil {
		return lw.WatchFunc(options)
	}
	return nil, errNoFunc
}

// watchListSemanticsUnsupported is implemented by clients (fake
// clientsets) that cannot serve streaming lists.
type watchListSemanticsUnsupported interface {
	IsWatchListSemanticsUnSupported() bool
}

type listWatchWithWatchListSemantics struct {
	*ListWatch
	unsupported bool
}

func (lw listWatchWithWatchListSemantics) IsWatchListSemanticsUnSupported() bool {
	return lw.unsupported
}

// ToListWatcherWithWatchListSemantics returns lw, remembering whether
// client (the clientset lw calls) cannot serve streaming lists (see
// ClientCannotStreamLists); a Reflector asked to use watch lists then
// lists instead.
func ToListWatcherWithWatchListSemantics(lw *ListWatch, client any) ListerWatcher {
	return listWatchWithWatchListSemantics{ListWatch: lw, unsupported: ClientCannotStreamLists(client)}
}

// ClientCannotStreamLists reports whether client cannot serve streaming
// lists (watches with sendInitialEvents): it says so with
// IsWatchListSemanticsUnSupported, as client-go v0.35's fakes and the fake
// clientsets client-gen v0.35 generates do, or it is one of client-go's
// fakes that predate that method (client-go v0.34's, and fake clientsets
// generated by an older client-gen), whose watches ignore
// sendInitialEvents.
func ClientCannotStreamLists(client any) bool {
	if c, ok := client.(watchListSemanticsUnsupported); ok {
		return c.IsWatchListSemanticsUnSupported()
	}
	return isClientGoFake(client)
}
