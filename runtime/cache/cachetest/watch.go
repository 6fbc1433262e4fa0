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
		n := w.nextLocked()
		changed := s.changed
		s.mu.Unlock()

		switch {
		case n.have:
			if !w.send(n.ev) || n.final {
				return
			}
		case n.final:
			return
		case !n.advanced && !w.wait(changed):
			return
		}
	}
}

// next is what a watch does next: send ev (have), end (final, after ev
// when have), or look again at once (advanced: past a log entry it leaves
// out); none of them: wait for a change.
type next struct {
	ev                    watch.Event
	have, final, advanced bool
}

// nextLocked takes the watch's next event, with the server's mu held.
func (w *serverWatch) nextLocked() next {
	s := w.server
	switch {
	case len(w.pending) > 0:
		ev := watch.Event{Type: w.pending[0].Type, Object: w.pending[0].Object.DeepCopyObject()}
		w.pending[0] = watch.Event{}
		w.pending = w.pending[1:]
		return next{ev: ev, have: true}
	case w.end >= 0 && w.cursor >= w.end:
		if w.endStatus != nil {
			return next{ev: watch.Event{Type: watch.Error, Object: w.endStatus.DeepCopy()}, have: true, final: true}
		}
		return next{final: true}
	case w.cursor < s.base+len(s.log):
		ev, have := w.event(s.log[w.cursor-s.base])
		w.cursor++
		return next{ev: ev, have: have, advanced: !have}
	}
	return next{}
}

// send delivers ev; false when the watch was stopped or its context ended.
func (w *serverWatch) send(ev watch.Event) bool {
	select {
	case w.ch <- ev:
		return true
	case <-w.stop:
	case <-w.ctx.Done():
	}
	return false
}

// wait waits for a change; false when the watch was stopped or its
// context ended.
func (w *serverWatch) wait(changed <-chan struct{}) bool {
	select {
	case <-changed:
		return true
	case <-w.stop:
	case <-w.ctx.Done():
	}
	return false
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
