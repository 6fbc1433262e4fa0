package controllerruntime

import (
	"context"
	"fmt"
	"time"

	toolscache "k8s.io/client-go/tools/cache"

	"github.com/informer-gen/informer-gen/runtime/cache"
)

// informer is runtime/cache's SharedIndexInformer as client-go's: each
// method calls the runtime's, converting client-go's handler, indexer,
// transform and watch-error-handler types to the runtime's (same shapes,
// other packages) and back. Its fields are set before it is returned and
// read-only after (reflectors guards its own).
type informer struct {
	inner      cache.SharedIndexInformer
	reflectors reflectors
}

var _ toolscache.SharedIndexInformer = (*informer)(nil)

// AddEventHandler registers handler with the informer's default resync
// period.
func (s *informer) AddEventHandler(h toolscache.ResourceEventHandler) (toolscache.ResourceEventHandlerRegistration, error) {
	return wrapRegistration(s.inner.AddEventHandler(handler{h}))
}

// AddEventHandlerWithResyncPeriod registers handler with its own resync
// period.
func (s *informer) AddEventHandlerWithResyncPeriod(h toolscache.ResourceEventHandler, resyncPeriod time.Duration) (toolscache.ResourceEventHandlerRegistration, error) {
	return wrapRegistration(s.inner.AddEventHandlerWithResyncPeriod(handler{h}, resyncPeriod))
}

// AddEventHandlerWithOptions registers handler with options.
func (s *informer) AddEventHandlerWithOptions(h toolscache.ResourceEventHandler, options toolscache.HandlerOptions) (toolscache.ResourceEventHandlerRegistration, error) {
	return wrapRegistration(s.inner.AddEventHandlerWithOptions(handler{h}, cache.HandlerOptions{
		Logger:       options.Logger,
		ResyncPeriod: options.ResyncPeriod,
	}))
}

// wrapRegistration returns reg as client-go's registration, nil with err.
func wrapRegistration(reg cache.ResourceEventHandlerRegistration, err error) (toolscache.ResourceEventHandlerRegistration, error) {
	if err != nil {
		return nil, err
	}
	return registration{inner: reg}, nil
}

// RemoveEventHandler stops deliveries to the handler of handle, a
// registration this informer returned. A handle of another implementation
// gets client-go's error for it.
func (s *informer) RemoveEventHandler(handle toolscache.ResourceEventHandlerRegistration) error {
	reg, ok := handle.(registration)
	if !ok {
		return fmt.Errorf("invalid key type %t", handle)
	}
	return s.inner.RemoveEventHandler(reg.inner)
}

// GetStore returns the informer's cache.
func (s *informer) GetStore() toolscache.Store { return indexer{s.inner.GetIndexer()} }

// GetIndexer returns the informer's cache with its indexes.
func (s *informer) GetIndexer() toolscache.Indexer { return indexer{s.inner.GetIndexer()} }

// AddIndexers installs more indexes, before or after Run.
func (s *informer) AddIndexers(indexers toolscache.Indexers) error {
	return s.inner.AddIndexers(ourIndexers(indexers))
}

// GetController returns the informer as a Controller.
func (s *informer) GetController() toolscache.Controller {
	return controller{s.inner.GetController()}
}

// Run runs the informer until stopCh is closed.
func (s *informer) Run(stopCh <-chan struct{}) { s.inner.Run(stopCh) }

// RunWithContext runs the informer until ctx is done.
func (s *informer) RunWithContext(ctx context.Context) { s.inner.RunWithContext(ctx) }

// HasSynced is true once the initial list is in the cache.
func (s *informer) HasSynced() bool { return s.inner.HasSynced() }

// HasSyncedChecker is done once HasSynced is true.
func (s *informer) HasSyncedChecker() toolscache.DoneChecker {
	return s.inner.HasSyncedChecker()
}

// LastSyncResourceVersion is the resourceVersion the cache reflects.
func (s *informer) LastSyncResourceVersion() string { return s.inner.LastSyncResourceVersion() }

// SetWatchErrorHandler installs handler; it fails once Run started.
func (s *informer) SetWatchErrorHandler(handler toolscache.WatchErrorHandler) error {
	return s.inner.SetWatchErrorHandler(func(r *cache.Reflector, err error) {
		handler(s.reflectors.clientGo(r), err)
	})
}

// SetWatchErrorHandlerWithContext installs handler; it fails once Run
// started.
func (s *informer) SetWatchErrorHandlerWithContext(handler toolscache.WatchErrorHandlerWithContext) error {
	return s.inner.SetWatchErrorHandlerWithContext(func(ctx context.Context, r *cache.Reflector, err error) {
		handler(ctx, s.reflectors.clientGo(r), err)
	})
}

// SetTransform installs transform (nil for none); it fails once Run
// started.
func (s *informer) SetTransform(transform toolscache.TransformFunc) error {
	return s.inner.SetTransform(cache.TransformFunc(transform))
}

// IsStopped is true once Run returned.
func (s *informer) IsStopped() bool { return s.inner.IsStopped() }
