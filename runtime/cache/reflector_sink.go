package cache

import "github.com/informer-gen/informer-gen/runtime/cache/internal/queue"

// This file holds the adapter of a client-go store to queue.Sink (the
// contract the reflector writes to, internal/queue/sink.go): storeSink.
// The other Sink is the informer's queue itself (internal/queue's FIFO,
// DeltaFIFO.sink), which the informer hands its reflector directly.
// NewReflectorWithOptions, the client-go-shaped constructor, picks one of
// them once, from the store it is given (newSink); nothing on the list or
// watch path asks the store what it is.

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
