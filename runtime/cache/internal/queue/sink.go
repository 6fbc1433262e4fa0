package queue

// Sink is where a reflector writes what it lists and watches: watch
// events, the objects of a list (paged, or a watch list's initial
// events), resourceVersions, resyncs and a shard's pruning. It is the one
// contract between the reflector's I/O and what it fills: the reflector
// is given its Sink at construction (the informer's queue's, or, for a
// reflector over any other client-go store, an adapter chosen once) and
// never asks what is behind it. Both list kinds ask the same Sink where
// listed objects go: into the queue as they arrive (OpenFirstList), or
// prepared page by page (PrepareListed) and stored whole (ReplaceListed).
//
// Every method is called from the reflector's Run goroutine, except Resync
// (its resync goroutine). Implementations take their own locks.
type Sink interface {
	// Add, Update and Delete take one watch event's object.
	Add(obj any) error
	Update(obj any) error
	Delete(obj any) error
	// Bookmark takes a watch bookmark's resourceVersion.
	Bookmark(resourceVersion string) error
	// TracksResourceVersion reports whether UpdateResourceVersion does
	// anything: the reflector then publishes each event's
	// resourceVersion before calling it, instead of once per burst.
	TracksResourceVersion() bool
	// UpdateResourceVersion takes each resourceVersion the reflector's
	// position moves to on a watch, and a watch list's at its end.
	UpdateResourceVersion(resourceVersion string)
	// Resync queues the cached objects again (a queue) or does nothing.
	Resync() error

	// OpenFirstList opens a first list that streams into the sink as it
	// arrives, and reports whether it did: only when nothing was ever
	// listed, queued or cached, and no first list is open.
	OpenFirstList() (FirstList, bool)
	// PrepareListed prepares, in place, one page of a list that is
	// buffered whole (transform and compaction of a queue; nothing
	// otherwise).
	PrepareListed(page []any) error
	// ListTransformer is the transform a watch list's buffer applies to
	// the objects it collects: the store's own when PrepareListed does
	// not transform them, else nil.
	ListTransformer() func(any) (any, error)
	// ReplaceListed replaces the content with a buffered list whose
	// every page went through PrepareListed.
	ReplaceListed(list []any, resourceVersion string) error

	// AfterApplied calls fn once what was written before the call is in
	// the cache and handed out (a queue's consumer processed it); at
	// once for a plain store.
	AfterApplied(fn func())
	// Prune drops, without a list, every object for which keep is
	// false, as a relist that no longer holds it would; ok is false when
	// the sink cannot (the reflector then relists).
	Prune(keep func(obj any) bool) (ok bool, err error)
}

// FirstList is a first list streaming into a Sink (Sink.OpenFirstList),
// written by the reflector's Run goroutine until Close or Abandon.
type FirstList interface {
	// QueueListed queues a batch of the list's objects, in order.
	QueueListed(batch []any) error
	// Delete queues the deletion of an object of the list deleted before
	// the list's end.
	Delete(obj any) error
	// Close completes the initial population.
	Close(resourceVersion string)
	// Abandon ends a first list that failed; what it queued stays.
	Abandon()
}
