package conformance

import (
	"context"
	"sync"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/watch"
)

// clientWatch is one watch of a Client: a goroutine forwards the events of
// the server's watch over an unbuffered channel and records each in the
// client's trace once the reflector took it, so an event counts as
// delivered only then. It ends when the server's watch ends, and at once
// when stopped or when its context is done.
type clientWatch struct {
	client *Client
	inner  watch.Interface
	ctx    context.Context
	ch     chan watch.Event
	stop   chan struct{}
	once   sync.Once
}

var _ watch.Interface = (*clientWatch)(nil)

// ResultChan returns the channel events arrive on; it is closed when the
// watch ends.
func (w *clientWatch) ResultChan() <-chan watch.Event { return w.ch }

// Stop ends the watch; it may be called any number of times, from any
// goroutine.
func (w *clientWatch) Stop() {
	w.once.Do(func() {
		close(w.stop)
		w.inner.Stop()
	})
}

func (w *clientWatch) run() {
	defer w.client.server.running.Done()
	defer close(w.ch)
	defer w.inner.Stop()
	for ev := range w.inner.ResultChan() {
		var traced TraceEntry
		if ev.Type != watch.Error {
			traced = eventEntry(ev.Type, ev.Object)
		}
		select {
		case w.ch <- ev:
		case <-w.stop:
			return
		case <-w.ctx.Done():
			return
		}
		if ev.Type == watch.Error {
			// Not traced: the reflector may act on it (relist) before
			// this goroutine could record it, and it carries no state.
			continue
		}
		// The reflector cannot act on this event before it takes the
		// next one, or the close, from this goroutine.
		w.client.record(traced)
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
