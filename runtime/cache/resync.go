package cache

import (
	"time"
)

// minimumResyncPeriod is the shortest resync period a handler gets; shorter
// requests are raised to it.
const minimumResyncPeriod = time.Second

// determineResyncPeriod is the resync period a handler that asked for
// desired gets from an informer that checks for due resyncs every check:
// never (0) when either is 0, otherwise desired raised to check.
func determineResyncPeriod(desired, check time.Duration) time.Duration {
	if desired == 0 || check == 0 {
		return 0
	}
	if desired < check {
		return check
	}
	return desired
}

// shouldResync marks the listeners whose resync is due, schedules their
// next one, and reports whether there are any. The Reflector calls it on
// every resync check; the informer then delivers the resulting Sync deltas
// to the marked listeners only.
func (p *processor) shouldResync() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	now := p.clock.Now()
	var syncing []*listener
	for _, l := range p.listeners {
		if l.resyncPeriod == 0 || now.Before(l.nextResync) {
			continue
		}
		syncing = append(syncing, l)
		l.nextResync = now.Add(l.resyncPeriod)
	}
	p.syncing = syncing
	return len(syncing) > 0
}

// resyncCheckPeriodChanged recomputes every listener's period for a new
// informer check period.
func (p *processor) resyncCheckPeriodChanged(check time.Duration) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, l := range p.listeners {
		l.resyncPeriod = determineResyncPeriod(l.requestedResync, check)
	}
}
