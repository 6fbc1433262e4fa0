package delivery

import (
	"context"
	"errors"
	"sync"
	"time"

	"k8s.io/utils/clock"
)

// ErrStopped is why a listener is not added to a Processor whose Run
// returned; runtime/cache wraps it with the informer's and the handler's
// names.
var ErrStopped = errors.New("the informer has stopped")

// Processor fans the notifications of one informer out to its listeners
// and runs their goroutines. The listener lists are copy-on-write, so a
// Batch reads them once with a single lock acquisition.
type Processor struct {
	clock clock.Clock // immutable: schedules resyncs

	// mu guards the fields below but wg; lock order in doc.go.
	mu        sync.Mutex
	listeners []*Listener // copy-on-write
	syncing   []*Listener // copy-on-write: due for the pending resync
	started   bool
	stopped   bool
	wg        sync.WaitGroup // one per listener goroutine started
}

// NewProcessor returns a Processor that schedules resyncs with c.
func NewProcessor(c clock.Clock) *Processor {
	return &Processor{clock: c}
}

// Add registers l, with its resync period raised to checkPeriod (see
// ShouldResync) and its first resync one period from now, and, when the
// Processor runs, starts l's goroutine. It fails with ErrStopped once Run
// returned.
func (p *Processor) Add(l *Listener, checkPeriod time.Duration) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.stopped {
		return ErrStopped
	}
	l.resyncPeriod = determineResyncPeriod(l.requestedResync, checkPeriod)
	l.nextResync = p.clock.Now().Add(l.resyncPeriod)
	p.listeners = append(p.listeners[:len(p.listeners):len(p.listeners)], l)
	if p.started {
		p.startLocked(l)
	}
	return nil
}

// Remove unregisters l and stops its goroutine after the handler call in
// progress, dropping what is pending (l.Finished closes when it ended).
// It reports whether l was registered.
func (p *Processor) Remove(l *Listener) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	found := false
	kept := make([]*Listener, 0, len(p.listeners))
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
	syncing := make([]*Listener, 0, len(p.syncing))
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

func (p *Processor) startLocked(l *Listener) {
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		l.run()
	}()
}

// Listeners returns the registered listeners. The slice must not be
// modified.
func (p *Processor) Listeners() []*Listener {
	listeners, _ := p.snapshot()
	return listeners
}

// snapshot returns the current listeners and those due for resync. The
// slices must not be modified.
func (p *Processor) snapshot() (listeners, syncing []*Listener) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.listeners, p.syncing
}

// Run starts every listener's goroutine, waits for ctx, then stops them
// and returns once their goroutines ended. Listeners added meanwhile are
// started too; once Run returned, Add fails.
func (p *Processor) Run(ctx context.Context) {
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
