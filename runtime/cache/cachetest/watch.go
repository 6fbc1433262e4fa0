package cachetest

import (
	"context"
	"sync"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
)

// serverWatch is one watch: a goroutine sends the pending initial events,
// then the server's history from cursor on, over an unbuffered channel. It
// ends, once it reached the history index end, with the endStatus error
// event or a clean close, and at once when stopped or when its context is
// done.
type serverWatch struct {
	server    *Server
	ctx       context.Context
	sel       selectors
	bookmarks bool
	ch        chan watch.Event
	stop      chan struct{}
	once      sync.Once

	// Guarded by server.mu.
	pending   []watch.Event // not yet copied
	cursor    int           // absolute history index of the next entry to send
	end       int           // absolute history index at which the watch ends; -1: open
	endStatus *metav1.Status
}

var _ watch.Interface = (*serverWatch)(nil)

// ResultChan returns the channel events arrive on; it is closed when the
// watch ends.
func (w *serverWatch) ResultChan() <-chan watch.Event { return w.ch }

// Stop ends the watch; it may be called any number of times, from any
// goroutine.
func (w *serverWatch) Stop() { w.once.Do(func() { close(w.stop) }) }

func (w *serverWatch) stopped() bool {
	select {
	case <-w.stop:
		return true
	default:
		return false
	}
}

func (w *serverWatch) run() {
	s := w.server
	defer s.running.Done()
	defer close(w.ch)
	defer func() {
		s.mu.Lock()
		delete(s.watches, w)
		s.mu.Unlock()
	}()
	for {
		s.mu.Lock()
		var (
			ev       watch.Event
			have     bool
			final    bool
			advanced bool // past an entry this watch leaves out
		)
		switch {
		case len(w.pending) > 0:
			ev, have = watch.Event{Type: w.pending[0].Type, Object: w.pending[0].Object.DeepCopyObject()}, true
			w.pending[0] = watch.Event{}
			w.pending = w.pending[1:]
		case w.end >= 0 && w.cursor >= w.end:
			final = true
			if w.endStatus != nil {
				ev, have = watch.Event{Type: watch.Error, Object: w.endStatus.DeepCopy()}, true
			}
		case w.cursor < s.base+len(s.log):
			ev, have = w.event(s.log[w.cursor-s.base])
			advanced = !have
			w.cursor++
		}
		changed := s.changed
		s.mu.Unlock()

		if have {
			select {
			case w.ch <- ev:
			case <-w.stop:
				return
			case <-w.ctx.Done():
				return
			}
			if final {
				return
			}
			continue
		}
		if final {
			return
		}
		if advanced {
			continue
		}
		select {
		case <-changed:
		case <-w.stop:
			return
		case <-w.ctx.Done():
			return
		}
	}
}

// event returns the event e is for this watch, if any: bookmarks only for
// a watch that asked for them, changes filtered through its selectors.
func (w *serverWatch) event(e entry) (watch.Event, bool) {
	typ := e.typ
	var obj runtime.Object
	switch e.typ {
	case watch.Bookmark:
		if !w.bookmarks {
			return watch.Event{}, false
		}
		obj = e.obj
	case watch.Added:
		if !w.sel.matches(e.obj) {
			return watch.Event{}, false
		}
		obj = e.obj
	case watch.Modified:
		was, is := w.sel.matches(e.prev), w.sel.matches(e.obj)
		switch {
		case was && is:
		case is:
			typ = watch.Added
		case was:
			typ = watch.Deleted
		default:
			return watch.Event{}, false
		}
		obj = e.obj
	case watch.Deleted:
		if !w.sel.matches(e.prev) {
			return watch.Event{}, false
		}
		obj = e.obj
	}
	return watch.Event{Type: typ, Object: obj.DeepCopyObject()}, true
}
