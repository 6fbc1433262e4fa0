package cache

import (
	"context"
	"time"

	"k8s.io/apimachinery/pkg/util/wait"
)

// The Reflector's client-go-compatible surface: the constructors and
// stop-channel forms client-go has, ListAndWatch (one list and the watches
// after it, without the retries RunWithContext makes), and the exported
// fields read at each Run (runSettings). The mechanism is package
// internal/reflector's Engine, driving internal/protocol's State.

// NewReflector returns a Reflector that fills store from lw with objects
// of expectedType's Go type, calling store.Resync every resyncPeriod.
func NewReflector(lw ListerWatcher, expectedType any, store ReflectorStore, resyncPeriod time.Duration) *Reflector {
	return NewReflectorWithOptions(lw, expectedType, store, ReflectorOptions{ResyncPeriod: resyncPeriod})
}

// NewNamedReflector is NewReflector with the name the reflector logs under.
func NewNamedReflector(name string, lw ListerWatcher, expectedType any, store ReflectorStore, resyncPeriod time.Duration) *Reflector {
	return NewReflectorWithOptions(lw, expectedType, store, ReflectorOptions{Name: name, ResyncPeriod: resyncPeriod})
}

// Run is RunWithContext with a context that ends when stopCh is closed.
func (r *Reflector) Run(stopCh <-chan struct{}) {
	r.RunWithContext(wait.ContextForChannel(stopCh))
}

// ListAndWatch is ListAndWatchWithContext with a context that ends when
// stopCh is closed.
func (r *Reflector) ListAndWatch(stopCh <-chan struct{}) error {
	return r.ListAndWatchWithContext(wait.ContextForChannel(stopCh))
}

// ListAndWatchWithContext lists (or stream-lists) into the store, then
// watches until the watch can no longer resume or ctx is done, and returns
// the error that ended it (nil when ctx ended it). It does not retry: that
// is RunWithContext's job. It must not run concurrently with
// RunWithContext.
func (r *Reflector) ListAndWatchWithContext(ctx context.Context) error {
	return r.engine.ListAndWatch(r.withLogger(ctx), r.runSettings())
}
