package controller

import (
	"errors"
	"sync"
	"time"

	"k8s.io/apimachinery/pkg/runtime"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"

	"github.com/informer-gen/informer-gen/runtime/cache/internal/delivery"
	"github.com/informer-gen/informer-gen/runtime/cache/internal/queue"
	"github.com/informer-gen/informer-gen/runtime/cache/internal/store"
)

// MaxBatch is the most keys Run pops from its queue at once (a relist
// unit, popped whole, may be larger).
const MaxBatch = 512

// Observer is told of every object the controller stores in or removes
// from the cache: runtime/cache's mutation detector, which keeps a deep
// copy of each cached object. Its methods are called on the processing
// goroutine, under applyMu, without the cache locked.
type Observer interface {
	// Before returns what Stored is given for obj, taken before the cache
	// publishes obj to its readers (the detector's deep copy; nil when obj
	// is not a runtime.Object).
	Before(obj any) runtime.Object
	// Stored says obj is now cached under key; before is Before's result.
	Stored(key string, obj any, before runtime.Object)
	// Removed says key is no longer cached.
	Removed(key string)
}

// Metrics receives the controller's measurement: runtime/cache's Metrics
// has this method.
type Metrics interface {
	// EventsProcessed is called after n deltas were applied to the cache
	// and handed to the listeners.
	EventsProcessed(n int)
}

// Config is everything a Controller uses, given at construction.
type Config struct {
	// Name names the informer in errors.
	Name string
	// Queue is where the changes come from.
	Queue *queue.FIFO
	// Cache is the informer's cache, written through its keyed methods
	// with the queue's keys.
	Cache *store.Indexed
	// Processor hands the notifications to the listeners.
	Processor *delivery.Processor
	// Unchanged reports whether a relisted object obj is the cached old
	// one, unchanged: the cache then keeps old and no handler hears of it.
	// nil: SameVersion.
	Unchanged func(old, obj any) bool
	// Observer, when set, is told of every stored and removed object.
	Observer Observer
	// Metrics, when set, counts the deltas applied.
	Metrics Metrics
}

// Controller applies an informer's queued changes to its cache and its
// listeners. Its configuration is immutable; Run and Join are safe for
// concurrent use.
type Controller struct {
	cfg Config
	// applyMu guards no field: it makes applying a batch to the cache and
	// the listeners atomic with respect to a handler joining (Join).
	applyMu sync.Mutex
}

// New returns the Controller of cfg.
func New(cfg Config) *Controller {
	if cfg.Unchanged == nil {
		cfg.Unchanged = SameVersion
	}
	return &Controller{cfg: cfg}
}

// Run pops and applies batches until the queue is closed. Errors other
// than the queue's closing go to utilruntime.HandleError.
func (c *Controller) Run() {
	for {
		if _, err := c.cfg.Queue.PopBatch(MaxBatch, c.apply); err != nil {
			if errors.Is(err, queue.ErrClosed) {
				return
			}
			utilruntime.HandleError(err)
		}
	}
}

// Join registers l with the processor while no batch is being applied,
// with the processor's resync check period checkPeriod, and hands it the
// cache's content as its initial adds: l then hears of each change
// exactly once, in its initial list or as a notification.
func (c *Controller) Join(l *delivery.Listener, checkPeriod time.Duration) error {
	c.applyMu.Lock()
	defer c.applyMu.Unlock()
	if err := c.cfg.Processor.Add(l, checkPeriod); err != nil {
		return err
	}
	keys, objs := c.cfg.Cache.ListKeyed()
	for i, obj := range objs {
		l.Push(delivery.Notification{Kind: delivery.Add, Initial: true, Key: keys[i], New: obj})
	}
	return nil
}
