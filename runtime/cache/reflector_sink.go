package cache

// sink is where a Reflector writes what it lists and watches: watch
// events, the objects of a list (paged or a watch list's initial events),
// resourceVersions, resyncs and a shard's pruning. NewReflectorWithOptions
// chooses it once, from the store it is given: the informer's queue
// (queueSink, for a *DeltaFIFO) or an adapter of any other client-go
// store (storeSink, which reads the store's optional interfaces
// ReflectorBookmarkStore, ResourceVersionUpdater and TransformingStore
// there and then). Nothing on the list or watch path asks the store what
// it is.
//
// Every method is called from the reflector's Run goroutine, except Resync
// (its resync goroutine).
type sink interface {
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
	// listed, queued or cached (firstList).
	OpenFirstList() (firstList, bool)
	// PrepareListed prepares, in place, one page of a list that is
	// buffered whole (PrepareListed of a queue; nothing otherwise).
	PrepareListed(page []any) error
	// ListTransformer is the transform a watch list's buffer applies to
	// the objects it collects: the store's own (TransformingStore) when
	// PrepareListed does not transform them, else nil.
	ListTransformer() TransformFunc
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

// firstList is a first list streaming into a queue (delta_fifo_first_list.go).
type firstList interface {
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

// newSink returns the sink of store; see sink.
func newSink(store ReflectorStore) sink {
	if f, ok := store.(*DeltaFIFO); ok {
		return queueSink{f}
	}
	s := storeSink{store: store}
	s.bookmarks, _ = store.(ReflectorBookmarkStore)
	s.updater, _ = store.(ResourceVersionUpdater)
	if tr, ok := store.(TransformingStore); ok {
		s.transform = tr.Transformer()
	}
	return s
}

// queueSink is the sink of a DeltaFIFO: first lists stream into it, other
// lists are prepared page by page (delta_fifo_list.go), and it knows when its
// consumer applied what was queued (delta_fifo_barrier.go) and prunes a narrowed
// shard (delta_fifo_prune.go).
type queueSink struct{ f *DeltaFIFO }

func (q queueSink) Add(obj any) error                           { return q.f.Add(obj) }
func (q queueSink) Update(obj any) error                        { return q.f.Update(obj) }
func (q queueSink) Delete(obj any) error                        { return q.f.Delete(obj) }
func (q queueSink) Bookmark(string) error                       { return nil }
func (q queueSink) TracksResourceVersion() bool                 { return false }
func (q queueSink) UpdateResourceVersion(string)                {}
func (q queueSink) Resync() error                               { return q.f.Resync() }
func (q queueSink) PrepareListed(page []any) error              { return q.f.prepareListed(page) }
func (q queueSink) ListTransformer() TransformFunc              { return nil }
func (q queueSink) ReplaceListed(list []any, rv string) error   { return q.f.replacePrepared(list, rv) }
func (q queueSink) AfterApplied(fn func())                      { q.f.afterProcessed(fn) }
func (q queueSink) Prune(keep func(obj any) bool) (bool, error) { return true, q.f.pruneOutside(keep) }
func (q queueSink) OpenFirstList() (firstList, bool)            { return queueFirstList(q), q.f.openFirstList() }
func (q queueFirstList) QueueListed(batch []any) error          { return q.f.queueFirstListed(batch) }
func (q queueFirstList) Delete(obj any) error                   { return q.f.Delete(obj) }
func (q queueFirstList) Close(resourceVersion string)           { q.f.closeFirstList(resourceVersion) }
func (q queueFirstList) Abandon()                               { q.f.abandonFirstList() }
func (s storeSink) Add(obj any) error                           { return s.store.Add(obj) }
func (s storeSink) Update(obj any) error                        { return s.store.Update(obj) }
func (s storeSink) Delete(obj any) error                        { return s.store.Delete(obj) }
func (s storeSink) TracksResourceVersion() bool                 { return s.updater != nil }
func (s storeSink) Resync() error                               { return s.store.Resync() }
func (s storeSink) OpenFirstList() (firstList, bool)            { return nil, false }
func (s storeSink) PrepareListed([]any) error                   { return nil }
func (s storeSink) ListTransformer() TransformFunc              { return s.transform }
func (s storeSink) ReplaceListed(list []any, rv string) error   { return s.store.Replace(list, rv) }
func (s storeSink) AfterApplied(fn func())                      { fn() }
func (s storeSink) Prune(func(obj any) bool) (bool, error)      { return false, nil }

// queueFirstList is a DeltaFIFO's open first list.
type queueFirstList queueSink

// storeSink is the sink of any other ReflectorStore (a client-go Store,
// RealFIFO, a user's queue): lists are collected whole and stored with
// Replace; the optional interfaces are read once, by newSink.
type storeSink struct {
	store     ReflectorStore
	bookmarks ReflectorBookmarkStore // nil unless store is one
	updater   ResourceVersionUpdater // nil unless store is one
	transform TransformFunc          // TransformingStore's, or nil
}

func (s storeSink) Bookmark(resourceVersion string) error {
	if s.bookmarks == nil {
		return nil
	}
	return s.bookmarks.Bookmark(resourceVersion)
}

func (s storeSink) UpdateResourceVersion(resourceVersion string) {
	if s.updater != nil {
		s.updater.UpdateResourceVersion(resourceVersion)
	}
}
