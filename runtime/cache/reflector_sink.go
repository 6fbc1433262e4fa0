package cache

import "github.com/informer-gen/informer-gen/runtime/cache/internal/queue"

// This file holds the two implementations of queue.Sink (the contract
// the reflector writes to, internal/queue/sink.go): the DeltaFIFO's
// (queueSink, which the informer hands its reflector directly:
// DeltaFIFO.sink) and the adapter of any other client-go store
// (storeSink). NewReflectorWithOptions, the client-go-shaped constructor,
// picks one of them once, from the store it is given (newSink); nothing on
// the list or watch path asks the store what it is.

// newSink returns the sink a reflector built by NewReflectorWithOptions
// writes to: a DeltaFIFO's own, else the adapter of store, which reads
// store's optional interfaces (ReflectorBookmarkStore,
// ResourceVersionUpdater, TransformingStore) here, once. The informer
// does not come here: it gives its reflector its queue's sink.
func newSink(store ReflectorStore) queue.Sink {
	if f, ok := store.(*DeltaFIFO); ok {
		return f.sink()
	}
	s := storeSink{store: store}
	s.bookmarks, _ = store.(ReflectorBookmarkStore)
	s.updater, _ = store.(ResourceVersionUpdater)
	if tr, ok := store.(TransformingStore); ok {
		s.transform = tr.Transformer()
	}
	return s
}

// sink returns the queue.Sink of f, which its reflector writes to.
func (f *DeltaFIFO) sink() queue.Sink { return queueSink{f} }

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
func (q queueSink) ListTransformer() func(any) (any, error)     { return nil }
func (q queueSink) ReplaceListed(list []any, rv string) error   { return q.f.replacePrepared(list, rv) }
func (q queueSink) AfterApplied(fn func())                      { q.f.afterProcessed(fn) }
func (q queueSink) Prune(keep func(obj any) bool) (bool, error) { return true, q.f.pruneOutside(keep) }
func (q queueSink) OpenFirstList() (queue.FirstList, bool) {
	return queueFirstList(q), q.f.openFirstList()
}
func (q queueFirstList) QueueListed(batch []any) error        { return q.f.queueFirstListed(batch) }
func (q queueFirstList) Delete(obj any) error                 { return q.f.Delete(obj) }
func (q queueFirstList) Close(resourceVersion string)         { q.f.closeFirstList(resourceVersion) }
func (q queueFirstList) Abandon()                             { q.f.abandonFirstList() }
func (s storeSink) Add(obj any) error                         { return s.store.Add(obj) }
func (s storeSink) Update(obj any) error                      { return s.store.Update(obj) }
func (s storeSink) Delete(obj any) error                      { return s.store.Delete(obj) }
func (s storeSink) TracksResourceVersion() bool               { return s.updater != nil }
func (s storeSink) Resync() error                             { return s.store.Resync() }
func (s storeSink) OpenFirstList() (queue.FirstList, bool)    { return nil, false }
func (s storeSink) PrepareListed([]any) error                 { return nil }
func (s storeSink) ListTransformer() func(any) (any, error)   { return s.transform }
func (s storeSink) ReplaceListed(list []any, rv string) error { return s.store.Replace(list, rv) }
func (s storeSink) AfterApplied(fn func())                    { fn() }
func (s storeSink) Prune(func(obj any) bool) (bool, error)    { return false, nil }

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
