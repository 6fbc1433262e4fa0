package cache

import (
	"context"
	"time"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/klog/v2"
)

// This file holds client-go's single-handler informer constructors
// (NewInformer and its family), built on this package's shared informer:
// each returns the informer's cache and a Controller that runs the
// informer with the one handler added.
//
// What the handler observes is what a SharedIndexInformer's handlers
// observe (see the package documentation): it runs on its own goroutine,
// after the cache was updated, and a relist notifies only the objects that
// changed. client-go's NewInformer calls the handler on the informer's
// goroutine and gives an OnUpdate for every object of every relist.

// InformerOptions configures NewInformerWithOptions.
//
// Compatibility code, kept for code written against client-go: the informer
// does not use it.
type InformerOptions struct {
	// Logger, when not nil, is the logger the informer runs with instead of
	// the one of RunWithContext's context (klog.Background for Run).
	Logger *klog.Logger
	// ListerWatcher lists and watches the objects.
	ListerWatcher ListerWatcher
	// ObjectType is an example object of the type listed and watched.
	ObjectType runtime.Object
	// Handler is told of the changes; nil tells no one.
	Handler ResourceEventHandler
	// ResyncPeriod, when not 0, is how often the handler is told again of
	// every cached object (OnResync when Handler implements ResyncHandler,
	// OnUpdate(obj, obj) otherwise).
	ResyncPeriod time.Duration
	// MinWatchTimeout is accepted for client-go's sake and not used: this
	// package's reflector asks for watch timeouts of 5 to 10 minutes.
	// Setting it is logged once at V(2).
	MinWatchTimeout time.Duration
	// Indexers, when not nil, are installed on the cache, which is then an
	// Indexer.
	Indexers Indexers
	// Transform, when not nil, transforms every object before it is cached
	// and handed to Handler.
	Transform TransformFunc
	// Identifier names the informer for InformerMetricsProvider.
	Identifier InformerNameAndResource
	// InformerMetricsProvider publishes client-go's informer metrics for a
	// reserved Identifier.
	InformerMetricsProvider InformerMetricsProvider
}

// NewInformerWithOptions returns the cache of an informer configured by
// options and the Controller running it. Use the cache for Get and List
// only: writing it would make the notifications wrong.
func NewInformerWithOptions(options InformerOptions) (Store, Controller) {
	return newHandlerInformer(options)
}

// NewInformer returns a cache of the objects lw serves, of objType's
// type, and the Controller that fills it and tells h of the changes; a
// non-zero resyncPeriod tells h again of every object that often.
//
// Deprecated: use NewInformerWithOptions (as client-go says).
func NewInformer(lw ListerWatcher, objType runtime.Object, resyncPeriod time.Duration, h ResourceEventHandler) (Store, Controller) {
	return newHandlerInformer(InformerOptions{ListerWatcher: lw, ObjectType: objType, Handler: h, ResyncPeriod: resyncPeriod})
}

// NewIndexerInformer is NewInformer with indexers installed on the cache.
//
// Deprecated: use NewInformerWithOptions (as client-go says).
func NewIndexerInformer(lw ListerWatcher, objType runtime.Object, resyncPeriod time.Duration, h ResourceEventHandler, indexers Indexers) (Indexer, Controller) {
	return newHandlerInformer(InformerOptions{ListerWatcher: lw, ObjectType: objType, Handler: h, ResyncPeriod: resyncPeriod, Indexers: indexers})
}

// NewTransformingInformer is NewInformer transforming every object with
// transformer before it is cached and handed to h.
//
// Deprecated: use NewInformerWithOptions (as client-go says).
func NewTransformingInformer(lw ListerWatcher, objType runtime.Object, resyncPeriod time.Duration, h ResourceEventHandler, transformer TransformFunc) (Store, Controller) {
	return newHandlerInformer(InformerOptions{ListerWatcher: lw, ObjectType: objType, Handler: h, ResyncPeriod: resyncPeriod, Transform: transformer})
}

// NewTransformingIndexerInformer is NewIndexerInformer transforming every
// object with transformer before it is cached and handed to h.
//
// Deprecated: use NewInformerWithOptions (as client-go says).
func NewTransformingIndexerInformer(lw ListerWatcher, objType runtime.Object, resyncPeriod time.Duration, h ResourceEventHandler, indexers Indexers, transformer TransformFunc) (Indexer, Controller) {
	return newHandlerInformer(InformerOptions{ListerWatcher: lw, ObjectType: objType, Handler: h, ResyncPeriod: resyncPeriod, Indexers: indexers, Transform: transformer})
}

// newHandlerInformer builds the informer options describes, with its one
// handler added.
func newHandlerInformer(options InformerOptions) (Indexer, Controller) {
	if options.MinWatchTimeout != 0 {
		logger := klog.Background()
		if options.Logger != nil {
			logger = *options.Logger
		}
		ignoredInformerMinWatchTimeout.report(logger)
	}
	informer := NewSharedIndexInformerWithOptions(options.ListerWatcher, options.ObjectType, SharedIndexInformerOptions{
		ResyncPeriod:            options.ResyncPeriod,
		Indexers:                options.Indexers,
		Identifier:              options.Identifier,
		InformerMetricsProvider: options.InformerMetricsProvider,
	})
	if options.Transform != nil {
		// A new informer has not started: SetTransform cannot fail.
		_ = informer.SetTransform(options.Transform)
	}
	c := &handlerController{informer: informer, logger: options.Logger}
	if options.Handler != nil {
		// A new informer is not stopped: adding a handler cannot fail.
		c.registration, _ = informer.AddEventHandlerWithResyncPeriod(options.Handler, options.ResyncPeriod)
	}
	return informer.GetIndexer(), c
}

// handlerController is the Controller of an informer with one handler:
// it runs the informer, and has synced once the handler was handed the
// initial list. Its fields are set before it is returned and read-only
// after.
type handlerController struct {
	informer     SharedIndexInformer
	registration ResourceEventHandlerRegistration // nil without a handler
	logger       *klog.Logger
}

// RunWithContext runs the informer until ctx is done.
func (c *handlerController) RunWithContext(ctx context.Context) {
	if c.logger != nil {
		ctx = klog.NewContext(ctx, *c.logger)
	}
	c.informer.RunWithContext(ctx)
}

// Run runs the informer until stopCh is closed.
func (c *handlerController) Run(stopCh <-chan struct{}) {
	c.RunWithContext(wait.ContextForChannel(stopCh))
}

// HasSynced reports whether the handler (the cache, without a handler)
// has been handed the whole initial list.
func (c *handlerController) HasSynced() bool {
	if c.registration == nil {
		return c.informer.HasSynced()
	}
	return c.registration.HasSynced()
}

// HasSyncedChecker is a DoneChecker done when HasSynced becomes true.
func (c *handlerController) HasSyncedChecker() DoneChecker {
	if c.registration == nil {
		return c.informer.HasSyncedChecker()
	}
	return c.registration.HasSyncedChecker()
}

// LastSyncResourceVersion is the resourceVersion the cache last observed.
func (c *handlerController) LastSyncResourceVersion() string {
	return c.informer.LastSyncResourceVersion()
}
