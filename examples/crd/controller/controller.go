package controller

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"

	"k8s.io/klog/v2"
	"k8s.io/utils/clock"

	stablev1 "github.com/informer-gen/informer-gen/examples/crd/apis/stable/v1"
	"github.com/informer-gen/informer-gen/examples/crd/pkg/generated/clientset/versioned"
	"github.com/informer-gen/informer-gen/examples/crd/pkg/generated/informers/externalversions"
	listersv1 "github.com/informer-gen/informer-gen/examples/crd/pkg/generated/listers/stable/v1"
	"github.com/informer-gen/informer-gen/runtime/cache"
	"github.com/informer-gen/informer-gen/runtime/workqueue"
)

// defaultName names the controller's queue, handler and log lines when
// Options.Name is empty.
const defaultName = "widget-status"

// Options tunes a Controller. The zero value is valid.
type Options struct {
	// Name identifies the controller's work queue, event handler
	// registration and log lines. Empty means "widget-status".
	Name string
	// RateLimiter decides how long a key whose reconcile failed waits
	// before it is retried. Nil means workqueue.DefaultRateLimiter (per-key
	// exponential backoff from 5ms, capped by an overall token bucket).
	RateLimiter workqueue.RateLimiter[string]
	// Clock drives the work queue's retry delays. Nil means the real clock.
	Clock clock.WithTicker
}

// Controller keeps the status of every Widget its informer sees in line
// with the Widget's spec (see DesiredStatus).
//
// A Controller is created with New and run once with Run; Run may be called
// from any goroutine, the other methods are safe for concurrent use at any
// time.
type Controller struct {
	name     string
	client   versioned.Interface
	factory  externalversions.SharedInformerFactory
	informer cache.TypedSharedIndexInformer[*stablev1.Widget]
	lister   listersv1.WidgetLister
	queue    *workqueue.Queue[string]

	ran   atomic.Bool
	stats stats
}

// New returns a Controller that writes Widget statuses through client and
// reads Widgets from informers' shared Widget informer. New requests that
// informer from the factory, so the factory must be started (again) after
// New for the informer to run; Run waits for it to sync. New does not start
// any goroutine.
func New(client versioned.Interface, informers externalversions.SharedInformerFactory, opts Options) *Controller {
	name := opts.Name
	if name == "" {
		name = defaultName
	}
	widgets := informers.Stable().V1().Widgets()
	return &Controller{
		name:     name,
		client:   client,
		factory:  informers,
		informer: widgets.TypedInformer(),
		lister:   widgets.Lister(),
		queue: workqueue.New(workqueue.Config[string]{
			Name:        name,
			Clock:       opts.Clock,
			RateLimiter: opts.RateLimiter,
		}),
	}
}

// errRunTwice is returned by every Run call after the first.
var errRunTwice = errors.New("controller: Run may be called only once")

// Run registers the controller's event handlers on the Widget informer,
// waits for the informer factory's caches and for the handlers to receive
// the informer's initial content, then reconciles keys on workers
// goroutines (at least one) until ctx is done. It then shuts the work queue
// down, waits for every worker to finish the key it holds (keys still
// queued are dropped: they are re-listed by the next run), removes the
// handlers and returns.
//
// Run returns nil after a normal shutdown, an error when the handlers
// cannot be registered (the informer was stopped), when ctx ends before the
// caches synced, or when Run was called before. It starts no goroutine that
// outlives it. Logs go to klog.FromContext(ctx).
func (c *Controller) Run(ctx context.Context, workers int) error {
	if !c.ran.CompareAndSwap(false, true) {
		return errRunTwice
	}
	workers = max(workers, 1)
	logger := klog.FromContext(ctx).WithValues("controller", c.name)
	ctx = klog.NewContext(ctx, logger)

	registration, err := c.informer.AddTypedEventHandler(c.eventHandler(logger), cache.HandlerOptions{Name: c.name})
	if err != nil {
		c.queue.ShutDown()
		return fmt.Errorf("controller %s: add event handler: %w", c.name, err)
	}
	defer func() {
		if err := c.informer.RemoveEventHandler(registration); err != nil {
			logger.V(2).Info("Removing event handler failed", "err", err)
		}
	}()

	logger.Info("Starting controller", "workers", workers)
	logger.V(2).Info("Waiting for informer caches to sync")
	if !cache.WaitForCacheSyncWithContext(ctx, c.informer.HasSynced, registration.HasSynced) {
		c.queue.ShutDown()
		return fmt.Errorf("controller %s: Widget cache did not sync: %w", c.name, context.Cause(ctx))
	}
	if err := c.factory.WaitForCacheSyncWithContext(ctx).AsError(); err != nil {
		c.queue.ShutDown()
		return fmt.Errorf("controller %s: %w", c.name, err)
	}

	logger.Info("Caches synced; starting workers")
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for c.processNextItem(ctx) {
			}
		})
	}
	<-ctx.Done()
	logger.Info("Shutting down workers")
	c.queue.ShutDownWithDrain()
	wg.Wait()
	logger.Info("Controller stopped", "reconciles", c.stats.reconciles.Load())
	return nil
}

// Stats returns how much work the controller has done so far. It is safe
// for concurrent use; the counters are read one by one, so a snapshot taken
// while workers run may be slightly inconsistent across fields.
func (c *Controller) Stats() Stats {
	return c.stats.snapshot()
}

// QueueLen returns the number of keys waiting in the work queue (not
// counting keys being reconciled or waiting for a retry delay). It is safe
// for concurrent use.
func (c *Controller) QueueLen() int {
	return c.queue.Len()
}
