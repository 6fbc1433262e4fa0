package controller

import (
	"fmt"

	"k8s.io/apimachinery/pkg/runtime"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"

	"github.com/informer-gen/informer-gen/runtime/cache/internal/delivery"
	"github.com/informer-gen/informer-gen/runtime/cache/internal/queue"
)

// apply applies a popped batch to the cache and notifies the listeners.
// It runs on the processing goroutine, without the queue locked, so the
// reflector keeps queueing meanwhile. A relist unit (b.ReplacedAll: the
// queue hands out a relist after the first as one batch) reaches the
// cache whole before any handler hears of it: its notifications wait in
// the delivery batch until the last key is stored.
func (c *Controller) apply(b queue.Batch) {
	batch := b.Items
	c.applyMu.Lock()
	out := c.cfg.Processor.Begin(b.ReplacedAll)
	n := 0
	for i := range batch {
		item := &batch[i]
		for j, d := range item.Deltas {
			c.applyDelta(item.Key, d, j < item.InitialDeltas, &out)
		}
		n += len(item.Deltas)
	}
	out.End()
	if last := len(batch) - 1; last >= 0 {
		if newest := batch[last].Deltas.Newest(); newest != nil {
			_, rv := identity(newest.Object)
			c.cfg.Cache.Bookmark(rv)
		}
	}
	c.applyMu.Unlock()
	if c.cfg.Metrics != nil {
		c.cfg.Metrics.EventsProcessed(n)
	}
}

// applyDelta applies one delta of key; initial says it belongs to the
// initial population.
func (c *Controller) applyDelta(key string, d queue.Delta, initial bool, out *delivery.Batch) {
	switch d.Type {
	case queue.Sync:
		out.Distribute(delivery.Notification{Kind: delivery.Resync, Key: key, New: d.Object})
	case queue.Added, queue.Updated, queue.Replaced:
		c.put(key, d, initial, out)
	case queue.Deleted:
		if _, exists := c.cfg.Cache.DeleteKeyed(key); !exists {
			return
		}
		if c.cfg.Observer != nil {
			c.cfg.Observer.Removed(key)
		}
		out.Distribute(delivery.Notification{Kind: delivery.Delete, Key: key, Old: d.Object})
	}
}

// put stores the object of an Added, Updated or Replaced delta under
// key and distributes what it changed. A relisted object that Unchanged
// says is the cached one is not notified; an object whose UID changed
// under the same key is notified as a delete of the cached one (a
// tombstone across a relist) followed by an add.
func (c *Controller) put(key string, d queue.Delta, initial bool, out *delivery.Batch) {
	obj := d.Object
	var keep func(old, obj any) bool
	if d.Type == queue.Replaced {
		keep = c.cfg.Unchanged
	}
	var before runtime.Object
	if c.cfg.Observer != nil {
		before = c.cfg.Observer.Before(obj)
	}
	old, exists, stored, err := c.cfg.Cache.SwapKeyed(key, obj, keep)
	if err != nil {
		// The store refused obj and kept what it had (an index function
		// failed); handlers stay consistent with the store.
		utilruntime.HandleError(fmt.Errorf("cache %s: storing key %q: %w", c.cfg.Name, key, err))
		return
	}
	if stored && c.cfg.Observer != nil {
		c.cfg.Observer.Stored(key, obj, before)
	}
	switch {
	case !exists:
		out.Distribute(delivery.Notification{Kind: delivery.Add, Initial: initial, Key: key, New: obj})
	case !stored:
		// Relist of an unchanged object: the cached one is kept, no noise.
	case uidChanged(old, obj):
		var gone any = old
		if d.Type == queue.Replaced {
			gone = queue.DeletedFinalStateUnknown{Key: key, Obj: old}
		}
		out.Distribute(delivery.Notification{Kind: delivery.Delete, Key: key, Old: gone})
		out.Distribute(delivery.Notification{Kind: delivery.Add, Initial: initial, Key: key, New: obj})
	default:
		out.Distribute(delivery.Notification{Kind: delivery.Update, Key: key, Old: old, New: obj})
	}
}
