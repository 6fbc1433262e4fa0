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
// list or watch fails (after the failure, before the back-off). It must
// return quickly. err is never nil.
type WatchErrorHandler func(ctx context.Context, err error)

// SharedInformer keeps a local cache of one kind of object in sync with the
// server and notifies any number of handlers of its changes.
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
	// Run lists, watches and delivers notifications until ctx is done, then
	// returns once every goroutine it started has ended. Run may be called
	// once; later calls return at once.
	Run(ctx context.Context)
	// HasSynced is true once the first list has been stored (not
	// necessarily delivered to every handler: see the registration's
	// HasSynced for that).
	HasSynced() bool
	// LastSyncResourceVersion is the resourceVersion the cache reflects.
	LastSyncResourceVersion() string
	// SetWatchErrorHandler installs handler; it fails once Run started.
	SetWatchErrorHandler(handler WatchErrorHandler) error
	// SetTransform installs transform; it fails once Run started.
	SetTransform(transform TransformFunc) error
	// IsStopped is true once Run has returned.
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
