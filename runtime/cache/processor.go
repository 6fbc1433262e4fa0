package cache

import (
	"context"
	"errors"
	"sync"
	"time"

	"k8s.io/utils/clock"
)

// errProcessorStopped is why a handler is not added to an informer that
// has stopped; AddEventHandlerWithOptions wraps it with the informer's and
// the handler's names.
var errProcessorStopped = errors.New("the informer has stopped")

// processor fans notifications out to the listeners of one informer. The
// listener lists are copy-on-write, so the informer reads them once per
// batch with a single lock acquisition.
type processor struct {
	clock clock.Clock

	// mu guards the fields below but wg; lock order in doc.go.
	mu        sync.Mutex
	listeners []*listener // copy-on-write
	syncing   []*listener // copy-on-write: due for the pending resync
	started   bool
	stopped   bool
	wg        sync.WaitGroup
}

func newProcessor(c clock.Clock) *processor {
	return &processor{clock: c}
}

// add registers l and, when the processor runs, starts its goroutine.
func (p *processor) add(l *listener, checkPeriod time.Duration) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.stopped {
		return errProcessorStopped
	}
	l.resyncPeriod = determineResyncPeriod(l.requestedResync, checkPeriod)
	l.nextResync = p.clock.Now().Add(l.resyncPeriod)
	p.listeners = append(p.listeners[:len(p.listeners):len(p.listeners)], l)
	if p.started {
		p.startLocked(l)
	}
	return nil
}

// remove unregisters l and stops its goroutine (l.runFinished closes
// when it ended). It reports whether l was registered.
func (p *processor) remove(l *listener) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	found := false
	kept := make([]*listener, 0, len(p.listeners))
	for _, other := range p.listeners {
		if other == l {
			found = true
			continue
		}
		kept = append(kept, other)
	}
	if !found {
		return false
	}
	p.listeners = kept
	syncing := make([]*listener, 0, len(p.syncing))
	for _, other := range p.syncing {
		if other != l {
			syncing = append(syncing, other)
		}
	}
	p.syncing = syncing
	l.stop()
	if !p.started {
		close(l.runFinished) // its run never starts
	}
	return true
}

func (p *processor) startLocked(l *listener) {
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		l.run()
	}()
}

// snapshot returns the current listeners and those due for resync. The
// slices must not be modified.
func (p *processor) snapshot() (listeners, syncing []*listener) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.listeners, p.syncing
}

// run starts every listener, waits for ctx, then stops them and returns
// once their goroutines ended. Listeners added meanwhile are started too.
func (p *processor) run(ctx context.Context) {
	p.mu.Lock()
	p.started = true
	for _, l := range p.listeners {
		p.startLocked(l)
	}
	p.mu.Unlock()
	<-ctx.Done()
	p.mu.Lock()
	p.stopped = true
	for _, l := range p.listeners {
		l.stop()
	}
	p.mu.Unlock()
	p.wg.Wait()
}
