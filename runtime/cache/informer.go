package cache

import (
	"context"
	"time"
)

// TransformFunc rewrites an object before it enters the store and reaches
// handlers, typically to drop fields the program never reads (managed
// fields, large annotations) and so save memory. It is called once per
// object version, from the informer's goroutine. It may mutate obj in place
// and must return an object with the same key. It also receives
// DeletedFinalStateUnknown tombstones' objects.
type TransformFunc func(obj any) (any, error)

// WatchErrorHandler is called, from the reflector's goroutine, each time a
// list or watch fails (after the failure, before the back-off), with the
// reflector that failed. It must return quickly. err is never nil.
type WatchErrorHandler func(r *Reflector, err error)

// WatchErrorHandlerWithContext is WatchErrorHandler that also receives the
// context of the reflector's Run (with its logger).
type WatchErrorHandlerWithContext func(ctx context.Context, r *Reflector, err error)

// DefaultWatchErrorHandler is what a reflector without a watch error
// handler does: it logs err (expired resourceVersions and closed
// connections at a low verbosity).
func DefaultWatchErrorHandler(ctx context.Context, r *Reflector, err error) {
	r.logError(ctx, err)
}

// SharedInformer keeps a local cache of one kind of object in sync with the
// server and notifies any number of handlers of its changes. It has
// client-go's method set; unlike client-go's, it does not notify unchanged
// objects of a relist as updates, notifies an object re-created under the
// same name as a delete and an add, and bounds what a lagging handler holds
// (see the package documentation).
//
// All methods are safe for concurrent use, before, during and after Run.
type SharedInformer interface {
	// AddEventHandler registers handler with the informer's default resync
	// period. A handler added after Run started first receives the current
	// content as adds (isInInitialList true). It fails only after the
	// informer stopped.
	AddEventHandler(handler ResourceEventHandler) (ResourceEventHandlerRegistration, error)
	// AddEventHandlerWithResyncPeriod is AddEventHandler with a resync
	// period for this handler.
	AddEventHandlerWithResyncPeriod(handler ResourceEventHandler, resyncPeriod time.Duration) (ResourceEventHandlerRegistration, error)
	// AddEventHandlerWithOptions is AddEventHandler with options.
	AddEventHandlerWithOptions(handler ResourceEventHandler, options HandlerOptions) (ResourceEventHandlerRegistration, error)
	// RemoveEventHandler stops deliveries to a registered handler. Removing
	// a handler twice is not an error.
	RemoveEventHandler(handle ResourceEventHandlerRegistration) error
	// GetStore returns the informer's cache. It is read-only for callers.
	GetStore() Store
	// GetController returns a view of the informer as a Controller. Its
	// Run methods do nothing (the informer is run through its own), the
	// others report the informer's state.
	GetController() Controller
	// Run is RunWithContext with a context that ends when stopCh is
	// closed.
	Run(stopCh <-chan struct{})
	// RunWithContext lists, watches and delivers notifications until ctx
	// is done, then returns once every goroutine it started has ended. It
	// may be called once; later calls return at once.
	RunWithContext(ctx context.Context)
	// HasSynced is true once the first list has been stored (not
	// necessarily delivered to every handler: see the registration's
	// HasSynced for that).
	HasSynced() bool
	// HasSyncedChecker returns a DoneChecker whose channel is closed once
	// HasSynced is true (see DoneChecker for its cost).
	HasSyncedChecker() DoneChecker
	// LastSyncResourceVersion is the resourceVersion the cache reflects.
	LastSyncResourceVersion() string
	// SetWatchErrorHandler installs handler; it fails once Run started.
	SetWatchErrorHandler(handler WatchErrorHandler) error
	// SetWatchErrorHandlerWithContext installs handler; it fails once Run
	// started.
	SetWatchErrorHandlerWithContext(handler WatchErrorHandlerWithContext) error
	// SetTransform installs transform; it fails once Run started.
	SetTransform(transform TransformFunc) error
	// IsStopped is true once RunWithContext has returned.
	IsStopped() bool
}

// SharedIndexInformer is a SharedInformer whose cache is an Indexer.
type SharedIndexInformer interface {
	SharedInformer
	// AddIndexers installs more indexes; it works before and after Run.
	AddIndexers(indexers Indexers) error
	// GetIndexer returns the informer's cache with its indexes.
	GetIndexer() Indexer
}

// InformerSynced reports whether an informer or handler has synced.
type InformerSynced func() bool
