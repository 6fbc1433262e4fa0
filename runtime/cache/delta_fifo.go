package cache

import (
	"k8s.io/klog/v2"

	"github.com/informer-gen/informer-gen/runtime/cache/internal/queue"
)

// This file is the client-go-shaped front of the informer's queue: the
// delta semantics (which deltas a key gets, deduplicated deletes,
// tombstones, relist units, the initial population, the compaction hint)
// are internal/queue's FIFO; DeltaFIFO wraps one with client-go's
// declarations.

// DeltaType is the kind of change a Delta records.
type DeltaType = queue.DeltaType

// The kinds of change a DeltaFIFO records.
const (
	// Added is an object seen for the first time on a watch.
	Added DeltaType = queue.Added
	// Updated is a new version of an object, seen on a watch.
	Updated DeltaType = queue.Updated
	// Deleted is the removal of an object. Its Object is the last state:
	// the object itself when the watch reported the deletion, a
	// DeletedFinalStateUnknown tombstone when a relist revealed it.
	Deleted DeltaType = queue.Deleted
	// Replaced is an object of a (re)list.
	Replaced DeltaType = queue.Replaced
	// Sync is a periodic resync of an object already in the cache.
	Sync DeltaType = queue.Sync
)

// Delta is one recorded change of one object.
type Delta = queue.Delta

// Deltas is the list of changes queued for one key, oldest first (its
// methods Oldest and Newest are client-go's).
type Deltas = queue.Deltas

// DeletedFinalStateUnknown is delivered in place of an object whose deletion
// was not observed directly: the object vanished between two lists (for
// example while the watch was down), so Obj is the last state this client
// saw, which may be stale. Handlers that receive deletes through the untyped
// API must expect it; the typed API unwraps it for them.
type DeletedFinalStateUnknown = queue.DeletedFinalStateUnknown

// KeyListerGetter is the read side of the cache a DeltaFIFO feeds, which it
// consults to find deletions on Replace and objects to resync. An Indexer
// is one.
type KeyListerGetter interface {
	KeyLister
	KeyGetter
}

// A KeyLister is anything that knows how to list its keys.
type KeyLister interface {
	ListKeys() []string
}

// A KeyGetter is anything that knows how to get the value stored under a
// given key.
type KeyGetter interface {
	// GetByKey returns the value associated with the key, or sets
	// exists=false.
	GetByKey(key string) (value any, exists bool, err error)
}

// ErrFIFOClosed is returned by Pop once the queue is closed; its message
// is client-go's.
var ErrFIFOClosed = queue.ErrClosed

// DeltaFIFOOptions configures a DeltaFIFO.
type DeltaFIFOOptions struct {
	// KeyFunction files objects; DeletionHandlingMetaNamespaceKeyFunc
	// semantics are applied on top (tombstones use their Key). Defaults to
	// MetaNamespaceKeyFunc.
	KeyFunction KeyFunc
	// KnownObjects is the cache the queue feeds. Without it, Replace finds
	// deletions only among queued keys and Resync does nothing. With it, a
	// Reflector's list that finds an object unchanged (same UID and
	// resourceVersion as cached, nothing queued for its key) queues the
	// cached object itself, not the listed copy.
	KnownObjects KeyListerGetter
	// Transformer, when set, rewrites every object entering the queue
	// except Sync deltas, tombstones made from KnownObjects and listed
	// objects replaced by the cached ones, which already went through it.
	// A Reflector's listed objects are transformed page by page as the
	// list arrives, before Replace. Objects inside tombstones handed to Delete
	// are transformed.
	Transformer TransformFunc
	// Metrics, when set, receives QueueDepth.
	Metrics Metrics
	// Name identifies the queue in DoneChecker names; "DeltaFIFO" by
	// default.
	Name string
	// Logger is accepted for client-go compatibility; the queue does not
	// log. Setting it is logged once at V(2), to it.
	Logger *klog.Logger
	// EmitDeltaTypeReplaced is accepted for client-go compatibility and
	// ignored: Replace always queues Replaced deltas (client-go queues Sync
	// deltas unless it is set).
	EmitDeltaTypeReplaced bool
}

// DeltaFIFO is the queue between a Reflector and the cache: it records, per
// object key, the list of changes (Deltas) not yet applied, and hands keys
// out in the order they were first queued. Consecutive deletes of one key
// are merged. On Replace, keys the cache or the queue knows that are
// missing from the new list are queued as Deleted with a
// DeletedFinalStateUnknown tombstone holding their last known state.
//
// All methods are safe for concurrent use. It is a client-go-shaped
// wrapper of internal/queue's FIFO, whose documentation has the delta
// semantics, goroutines and locks; Pop's process function runs without
// the queue locked.
type DeltaFIFO struct {
	// Immutable after construction.
	q         *queue.FIFO
	name      string
	keyFunc   KeyFunc
	transform TransformFunc
}

// queueWiring is what the informer gives the DeltaFIFO it builds, at
// construction: nothing of it is set later.
type queueWiring struct {
	// Cache is the informer's cache (also DeltaFIFOOptions.KnownObjects).
	Cache queue.CacheReader
	// Compaction, when set, compacts each object after the transform,
	// with the compact object the queue or Cache holds for its key as the
	// hint (internal/queue's FIFO.Hint).
	Compaction queue.Compactor
	// Synced, when set, is the channel the queue closes once its initial
	// population is processed (HasSynced's); a fresh one otherwise.
	Synced chan struct{}
}

// NewDeltaFIFO returns an empty, open DeltaFIFO filing objects under
// keyFunc and feeding knownObjects (which may be nil).
func NewDeltaFIFO(keyFunc KeyFunc, knownObjects KeyListerGetter) *DeltaFIFO {
	return NewDeltaFIFOWithOptions(DeltaFIFOOptions{KeyFunction: keyFunc, KnownObjects: knownObjects})
}

// NewDeltaFIFOWithOptions returns an empty, open DeltaFIFO.
func NewDeltaFIFOWithOptions(opts DeltaFIFOOptions) *DeltaFIFO {
	if opts.Logger != nil {
		ignoredDeltaFIFOLogger.report(*opts.Logger)
	}
	return newDeltaFIFO(opts, queueWiring{})
}

// newDeltaFIFO returns an empty, open DeltaFIFO wired to an informer's
// cache, compaction and synced channel (w). When w.Cache is set it is the
// queue's known objects, whatever opts.KnownObjects says.
func newDeltaFIFO(opts DeltaFIFOOptions, w queueWiring) *DeltaFIFO {
	f := &DeltaFIFO{name: opts.Name, keyFunc: opts.KeyFunction, transform: opts.Transformer}
	if f.keyFunc == nil {
		f.keyFunc = MetaNamespaceKeyFunc
	}
	cfg := queue.Config{
		Name:      opts.Name,
		KeyOf:     f.KeyOf,
		Unchanged: unchangedRelist,
		Synced:    w.Synced,
	}
	if opts.KnownObjects != nil {
		cfg.Known = opts.KnownObjects
	}
	if opts.Transformer != nil {
		// Kept nil when unset: the queue tests Transform against nil.
		cfg.Transform = opts.Transformer
	}
	if opts.Metrics != nil {
		cfg.Depth = opts.Metrics.QueueDepth
	}
	f.q = queue.New(w.Cache, w.Compaction, cfg)
	return f
}

// KeyOf returns the key of obj: a tombstone's Key, else the key function's.
func (f *DeltaFIFO) KeyOf(obj any) (string, error) {
	if d, ok := obj.(Deltas); ok {
		if len(d) == 0 {
			return "", KeyError{obj, ErrZeroLengthDeltasObject}
		}
		obj = d.Newest().Object
	}
	if d, ok := obj.(DeletedFinalStateUnknown); ok {
		return d.Key, nil
	}
	return f.keyFunc(obj)
}

// Add queues an Added delta for obj.
func (f *DeltaFIFO) Add(obj any) error { return f.q.Add(obj) }

// Update queues an Updated delta for obj.
func (f *DeltaFIFO) Update(obj any) error { return f.q.Update(obj) }

// Delete queues a Deleted delta for obj, unless its key is neither queued
// nor known to the cache (there is nothing to delete). While a batch is
// being processed the cache may be about to learn the key, so the delete is
// queued anyway (the informer ignores deletes of keys it does not hold).
func (f *DeltaFIFO) Delete(obj any) error { return f.q.Delete(obj) }

// Replace queues a Replaced delta for every object of list, then a Deleted
// tombstone for every queued or known key absent from list. The first call
// fixes the initial population that HasSynced waits for.
//
// Replace is all or nothing: every object is transformed (an unchanged
// cached one is taken as is, see DeltaFIFOOptions.KnownObjects) before
// anything is queued, and a failed transform queues nothing.
func (f *DeltaFIFO) Replace(list []any, resourceVersion string) error {
	return f.q.Replace(list, resourceVersion)
}

// Resync queues a Sync delta for every known object whose key is not
// already queued.
func (f *DeltaFIFO) Resync() error { return f.q.Resync() }

// HasSynced is true once a first Replace happened and every key it queued
// has been popped and processed.
func (f *DeltaFIFO) HasSynced() bool { return f.q.HasSynced() }

// Len returns the number of queued keys.
func (f *DeltaFIFO) Len() int { return f.q.Len() }

// Close makes Pop return ErrFIFOClosed, now and in the future.
func (f *DeltaFIFO) Close() { f.q.Close() }

// sink returns the queue.Sink the DeltaFIFO's reflector writes to: its
// FIFO.
func (f *DeltaFIFO) sink() queue.Sink { return f.q }

// popBatch is the informer's pop: the FIFO's PopBatch.
func (f *DeltaFIFO) popBatch(max int, process func(b queue.Batch)) (int, error) {
	return f.q.PopBatch(max, process)
}
