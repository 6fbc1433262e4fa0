package delivery

import (
	"time"
)

// MinResyncPeriod is the shortest resync period a handler gets; the
// informer raises shorter requests to it.
const MinResyncPeriod = time.Second

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

// ShouldResync marks the listeners whose resync is due, schedules their
// next one, and reports whether there are any. The Reflector calls it on
// every resync check; the informer then distributes the resulting Sync
// deltas as Resync notifications, which a Batch hands to the marked
// listeners only.
func (p *Processor) ShouldResync() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	now := p.clock.Now()
	var syncing []*Listener
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

// CheckPeriodChanged recomputes every listener's resync period for a new
// informer check period (a handler added before Run asked for a shorter
// one).
func (p *Processor) CheckPeriodChanged(check time.Duration) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, l := range p.listeners {
		l.resyncPeriod = determineResyncPeriod(l.requestedResync, check)
	}
}

// ResyncPeriod is the resync period l got when it was added (0: never),
// or since the last CheckPeriodChanged.
func (p *Processor) ResyncPeriod(l *Listener) time.Duration {
	p.mu.Lock()
	defer p.mu.Unlock()
	return l.resyncPeriod
}
