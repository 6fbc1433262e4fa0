package conformance

import (
	"context"
	"sync"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/watch"
)

// serverWatch is one watch of a Client: a goroutine sends the pending
// synthetic events, then the server's log from cursor on, over an
// unbuffered channel, so an event counts as delivered (and is traced) only
// once the reflector took it. It ends, after the log entry at index end,
// with the endStatus error event or a clean close, and at once when
// stopped or when its context is done.
type serverWatch struct {
	server *Server
	client *Client
	ctx    context.Context
	ch     chan watch.Event
	stop   chan struct{}
	once   sync.Once

	// Guarded by server.mu.
	pending   []watch.Event
	cursor    int // index of the next log entry to send
	end       int // log index at which the watch ends; -1: open
	endStatus *metav1.Status
}

var _ watch.Interface = (*serverWatch)(nil)

// ResultChan returns the channel events arrive on; it is closed when the
// watch ends.
func (w *serverWatch) ResultChan() <-chan watch.Event { return w.ch }

// Stop ends the watch; it may be called any number of times, from any
// goroutine.
func (w *serverWatch) Stop() { w.once.Do(func() { close(w.stop) }) }

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
			ev     watch.Event
			have   bool
			final  bool
			traced TraceEntry
		)
		switch {
		case len(w.pending) > 0:
			ev, have = w.pending[0], true
			traced = eventEntry(ev.Type, ev.Object)
		case w.end >= 0 && w.cursor >= w.end:
			final = true
			if w.endStatus != nil {
				// Not traced: the reflector may act on it (relist) before
				// this goroutine could record it, and it carries no state.
				ev, have = watch.Event{Type: watch.Error, Object: w.endStatus.DeepCopy()}, true
			}
		case w.cursor < len(s.log):
			e := s.log[w.cursor]
			ev, have = watch.Event{Type: e.typ, Object: e.obj.DeepCopy()}, true
			traced = eventEntry(e.typ, e.obj)
		}
		changed := s.changed
		s.mu.Unlock()

		if have {
			select {
			case w.ch <- ev:
				if !final {
					// The reflector cannot act on this event before it
					// takes the next one from this goroutine.
					w.client.record(traced)
				}
			case <-w.stop:
				return
			case <-w.ctx.Done():
				return
			}
			if final {
				return
			}
			s.mu.Lock()
			if len(w.pending) > 0 {
				w.pending[0] = watch.Event{}
				w.pending = w.pending[1:]
			} else {
				w.cursor++
			}
			s.mu.Unlock()
			continue
		}
		if final {
			return
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

// eventEntry is the trace entry of a delivered watch event.
func eventEntry(typ watch.EventType, obj any) TraceEntry {
	cm := obj.(*corev1.ConfigMap)
	e := TraceEntry{Kind: TraceEvent, Type: typ, ResourceVersion: cm.ResourceVersion}
	if typ != watch.Bookmark {
		e.Key, e.State = keyOf(cm), StateOf(cm)
	}
	return e
}
