package cache

import (
	"context"
	"errors"
	"sync/atomic"
	"time"

	"k8s.io/apimachinery/pkg/runtime"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/klog/v2"
)

// Config contains all the settings of a low-level controller (New): a
// Reflector filling Queue from ListerWatcher, and a loop popping Queue
// into Process.
//
// The shared informer does not use it; it is here for code written
// against client-go's tools/cache.
//
// Compatibility code, kept for code written against client-go: the informer
// does not use it.
type Config struct {
	// The queue for your objects - has to be a DeltaFIFO due to
	// assumptions in the implementation. Your Process() function
	// should accept the output of this Queue's Pop() method.
	Queue

	// Something that can list and watch your objects.
	ListerWatcher

	// Process can process a popped Deltas.
	Process ProcessFunc

	// ProcessBatch can process a batch of popped Deltas, which should
	// return `TransactionError` if not all items in the batch were
	// successfully processed.
	//
	// It is used when it is non-nil and Queue implements QueueWithBatch
	// (client-go's InOrderInformersBatchProcess feature gate, on by
	// default since v0.35, is taken as on); otherwise Process is used.
	ProcessBatch ProcessBatchFunc

	// ObjectType is an example object of the type this controller is
	// expected to handle.
	ObjectType runtime.Object

	// ObjectDescription is the description to use when logging
	// type-specific information about this controller.
	ObjectDescription string

	// FullResyncPeriod is the period at which ShouldResync is considered.
	FullResyncPeriod time.Duration

	// MinWatchTimeout, if set, will define the minimum timeout for watch
	// requests sent to kube-apiserver (ReflectorOptions.MinWatchTimeout).
	// Optional - if unset a default value of 5m will be used. A value
	// under 5m is used as given, as ReflectorOptions' is (client-go raises
	// it to 5m; docs/differences.md).
	MinWatchTimeout time.Duration

	// ShouldResync is periodically used by the reflector to determine
	// whether to Resync the Queue. If ShouldResync is `nil` or returns
	// true, it means the reflector should proceed with the resync.
	ShouldResync ShouldResyncFunc

	// Called whenever the ListAndWatch drops the connection with an error.
	WatchErrorHandler WatchErrorHandler

	// Called whenever the ListAndWatch drops the connection with an error
	// and WatchErrorHandler is not set.
	WatchErrorHandlerWithContext WatchErrorHandlerWithContext

	// WatchListPageSize is the requested chunk size of initial and relist
	// watch lists.
	WatchListPageSize int64
}

// ShouldResyncFunc is a type of function that indicates if a reflector
// should perform a resync or not.
//
// Compatibility code, kept for code written against client-go: the informer
// does not use it.
type ShouldResyncFunc func() bool

// ProcessFunc processes a single object.
//
// Compatibility code, kept for code written against client-go: the informer
// does not use it.
type ProcessFunc func(obj any, isInInitialList bool) error

// New makes a new Controller from the given Config (copied). Run it once.
//
// Compatibility code, kept for code written against client-go: the informer
// does not use it.
func New(c *Config) Controller {
	return &configController{config: *c}
}

// configController is New's Controller. config is immutable; reflector
// is set once by RunWithContext.
type configController struct {
	config    Config
	reflector atomic.Pointer[Reflector]
}

// Run is RunWithContext with a context stopCh cancels.
func (c *configController) Run(stopCh <-chan struct{}) {
	c.RunWithContext(wait.ContextForChannel(stopCh))
}

// RunWithContext runs a Reflector filling the Config's Queue from its
// ListerWatcher, and pops the Queue into Process (or ProcessBatch) until
// ctx is done; then it closes the Queue and returns once the Reflector
// returned.
func (c *configController) RunWithContext(ctx context.Context) {
	defer utilruntime.HandleCrashWithContext(ctx)
	stop := context.AfterFunc(ctx, c.config.Queue.Close)
	defer stop()
	r := c.newReflector(ctx)
	c.reflector.Store(r)
	var wg wait.Group
	wg.StartWithContext(ctx, r.RunWithContext)
	wait.UntilWithContext(ctx, c.processLoop, time.Second)
	wg.Wait()
}

// newReflector is client-go's reflector of a Config.
func (c *configController) newReflector(ctx context.Context) *Reflector {
	logger := klog.FromContext(ctx)
	opts := ReflectorOptions{
		Logger:          &logger,
		ResyncPeriod:    c.config.FullResyncPeriod,
		MinWatchTimeout: c.config.MinWatchTimeout,
		TypeDescription: c.config.ObjectDescription,
	}
	if h := c.config.WatchErrorHandler; h != nil {
		opts.WatchErrorHandler = func(_ context.Context, r *Reflector, err error) { h(r, err) }
	} else if h := c.config.WatchErrorHandlerWithContext; h != nil {
		opts.WatchErrorHandler = h
	}
	r := NewReflectorWithOptions(c.config.ListerWatcher, c.config.ObjectType, c.config.Queue, opts)
	r.ShouldResync = c.config.ShouldResync
	r.WatchListPageSize = c.config.WatchListPageSize
	return r
}

// processLoop pops the Queue until it is closed or ctx is done. Errors of
// Process are dropped, as in client-go.
func (c *configController) processLoop(ctx context.Context) {
	batch, ok := c.config.Queue.(QueueWithBatch)
	useBatch := ok && c.config.ProcessBatch != nil
	for ctx.Err() == nil {
		var err error
		if useBatch {
			err = batch.PopBatch(c.config.ProcessBatch, PopProcessFunc(c.config.Process))
		} else {
			_, err = c.config.Pop(PopProcessFunc(c.config.Process))
		}
		if errors.Is(err, ErrFIFOClosed) {
			return
		}
	}
}

// HasSynced delegates to the Config's Queue.
func (c *configController) HasSynced() bool { return c.config.Queue.HasSynced() }

// HasSyncedChecker delegates to the Config's Queue.
func (c *configController) HasSyncedChecker() DoneChecker { return c.config.Queue.HasSyncedChecker() }

// LastSyncResourceVersion delegates to the Reflector once it runs, and is
// "" before.
func (c *configController) LastSyncResourceVersion() string {
	if r := c.reflector.Load(); r != nil {
		return r.LastSyncResourceVersion()
	}
	return ""
}
