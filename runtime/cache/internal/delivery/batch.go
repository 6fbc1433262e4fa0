package delivery

// Batch distributes the notifications of one batch the informer applies
// to its cache. It is a value of one call: the informer begins it, under
// its apply lock, distributes each change as it stores it and ends it
// before releasing the lock. It is not safe for concurrent use and holds
// no lock.
//
// A relist batch is held: its notifications wait in the Batch until End,
// so that no handler hears of a relist before the cache holds all of it.
type Batch struct {
	listeners []*Listener    // the listeners when the batch began
	syncing   []*Listener    // those of them due for the pending resync
	hold      bool           // a relist: Distribute appends to held
	held      []Notification // a relist's notifications, in order, until End
}

// Begin starts the Batch of one applied batch with the listeners
// registered now; relist holds its notifications until End. A listener
// added later is not notified by this Batch: the informer hands it the
// cache content instead, under the same apply lock.
func (p *Processor) Begin(relist bool) Batch {
	listeners, syncing := p.snapshot()
	return Batch{listeners: listeners, syncing: syncing, hold: relist}
}

// Distribute pushes n to every listener of the batch, a Resync only to
// those due for a resync; in a relist it holds n until End.
func (b *Batch) Distribute(n Notification) {
	if b.hold {
		b.held = append(b.held, n)
		return
	}
	b.push(n)
}

// End ends the batch: a relist's held notifications go out, in order.
func (b *Batch) End() {
	b.hold = false
	for i := range b.held {
		b.push(b.held[i])
		b.held[i] = Notification{}
	}
	b.held = b.held[:0]
}

func (b *Batch) push(n Notification) {
	to := b.listeners
	if n.Kind == Resync {
		to = b.syncing
	}
	for _, l := range to {
		l.Push(n)
	}
}
