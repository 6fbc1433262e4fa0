// Package source is an in-memory API server for one informer: it serves a
// pre-built list in one piece and one watch whose events come from a
// pre-built slice, sent only when Start is called, so that object
// generation is never inside a timing.
//
// It implements the ListerWatcher of informer-gen's runtime/cache; package
// subject adapts it to client-go's.
package source

import (
	"context"
	"errors"
	"sync"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
)

// Source serves one list and one watch. It is safe for concurrent use.
type Source struct {
	list runtime.Object
	// release makes List hand the list out once and forget it.
	release bool

	mu      sync.Mutex // guards list (when release is set) and the fields below
	events  []watch.Event
	fed     bool          // the feed watch was handed out
	opened  chan struct{} // closed once the feed watch exists
	start   chan struct{} // closed by Start
	started bool
}

// New returns a Source serving list (never modified: informers copy its
// items) and, after Start, events on the first watch opened.
func New(list runtime.Object, events []watch.Event) *Source {
	return &Source{
		list:   list,
		events: events,
		opened: make(chan struct{}),
		start:  make(chan struct{}),
	}
}

// NewReleasing returns a Source whose List hands list out once and then
// forgets it, so that only the informer keeps what it took from the list
// alive (what a decoded list response is to a real informer); a second
// List fails. It serves no events.
func NewReleasing(list runtime.Object) *Source {
	s := New(list, nil)
	s.release = true
	return s
}

// SetEvents replaces the events to feed; it must be called before Start.
func (s *Source) SetEvents(events []watch.Event) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.started {
		panic("source: SetEvents after Start")
	}
	s.events = events
}

// List returns the whole list whatever the options: like a watch-cache list
// at resourceVersion 0, in one piece and without a continue token.
func (s *Source) List(ctx context.Context, _ metav1.ListOptions) (runtime.Object, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if !s.release {
		return s.list, nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	list := s.list
	s.list = nil
	if list == nil {
		return nil, errors.New("source: the list was handed out already (NewReleasing serves one list)")
	}
	return list, nil
}

// Watch returns, the first time, the watch that feeds the events once
// Start is called; later watches (after a watch error) stay silent until
// stopped. Every watch ends when ctx is done or Stop is called.
func (s *Source) Watch(ctx context.Context, _ metav1.ListOptions) (watch.Interface, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	w := &feedWatch{ch: make(chan watch.Event, feedBuffer), done: make(chan struct{})}
	s.mu.Lock()
	first := !s.fed
	s.fed = true
	s.mu.Unlock()
	if first {
		go w.feed(ctx, s.start, s)
		close(s.opened)
	} else {
		go w.feed(ctx, nil, nil)
	}
	return w, nil
}

// WaitWatching blocks until the informer has opened its watch or ctx is
// done.
func (s *Source) WaitWatching(ctx context.Context) error {
	select {
	case <-s.opened:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Start lets the feed watch send its events and returns the time it did.
// Only the first call has an effect.
func (s *Source) Start() time.Time {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.started {
		s.started = true
		close(s.start)
	}
	return time.Now()
}

// take hands the events to the feed and forgets them, so that each sent
// object is kept alive only by the informer, as a decoded object would be.
func (s *Source) take() []watch.Event {
	s.mu.Lock()
	defer s.mu.Unlock()
	evs := s.events
	s.events = nil
	return evs
}

// feedBuffer is the capacity of a watch's channel: enough that the feed
// rarely blocks, so that its own cost stays small next to the informer's.
const feedBuffer = 1024

// feedWatch is a watch.Interface over a buffered channel.
type feedWatch struct {
	ch   chan watch.Event
	done chan struct{}
	once sync.Once
}

// Stop ends the watch; ResultChan is closed soon after. Safe to call more
// than once and concurrently.
func (w *feedWatch) Stop() { w.once.Do(func() { close(w.done) }) }

// ResultChan returns the channel of events.
func (w *feedWatch) ResultChan() <-chan watch.Event { return w.ch }

// feed waits for start (nil: forever), sends the source's events in order,
// dropping each one once sent, then idles until the watch ends.
func (w *feedWatch) feed(ctx context.Context, start <-chan struct{}, s *Source) {
	defer close(w.ch)
	select {
	case <-start:
	case <-w.done:
		return
	case <-ctx.Done():
		return
	}
	evs := s.take()
	for i := range evs {
		select {
		case w.ch <- evs[i]:
		default:
			select {
			case w.ch <- evs[i]:
			case <-w.done:
				return
			case <-ctx.Done():
				return
			}
		}
		evs[i] = watch.Event{}
	}
	select {
	case <-w.done:
	case <-ctx.Done():
	}
}
