package cache

import (
	"context"
	"github.com/informer-gen/informer-gen/runtime/cache/internal/protocol"
	"time"

	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/klog/v2"
)

// The Reflector's client-go-compatible surface: the constructors and
// stop-channel forms client-go has, ListAndWatch (one list and the watches
// after it, without the retries RunWithContext makes), and the exported
// fields read at Run (applyFields). The mechanism is in reflector.go and
// internal/protocol/state.go.

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
	r.applyFields()
	if r.opts.Logger != nil {
		ctx = klog.NewContext(ctx, *r.opts.Logger)
	}
	s := r.initialState()
	for {
		o := r.step(ctx, s)
		if o.End == protocol.EndStopped {
			return nil
		}
		from := s.Phase
		var e protocol.Effect
		s, e = s.Next(o)
		if s.Phase != protocol.PhaseWatch && from != protocol.PhaseWatchList {
			// A list failed, or the watch can no longer resume.
			return o.Err
		}
		if !r.between(ctx, s, e, o.Err) {
			return nil
		}
	}
}

// applyFields copies the exported fields set since construction into the
// options.
func (r *Reflector) applyFields() {
	if r.ShouldResync != nil {
		r.opts.ShouldResync = r.ShouldResync
	}
	if r.WatchListPageSize > 0 {
		r.opts.PageSize = r.WatchListPageSize
	}
}
