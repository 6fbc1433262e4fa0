package workqueue

import (
	"sync"
	"time"

	"k8s.io/klog/v2"
	"k8s.io/utils/clock"
)

// delayState is the AddAfter machinery of a Queue: a heap of waiting items,
// one timer armed for the earliest of them, and one goroutine that moves
// items into the queue when their time comes. Every field except wg is
// guarded by Queue.mu.
//
// The timer is (re)armed by whoever changes the head of the heap while
// holding Queue.mu — AddAfter or the goroutine itself — so once AddAfter
// returns, the clock already has a timer for the earliest item. This keeps
// fake-clock tests deterministic.
type delayState[T comparable] struct {
	waiting  waitHeap[T]
	timer    clock.Timer // armed for the head of waiting; nil if none
	armedFor time.Time   // readyAt the timer was armed for
	gen      uint64      // incremented each time timer is replaced

	started bool
	stopped bool
	stop    chan struct{} // closed by stopLocked once started
	wake    chan struct{} // capacity 1: the timer was replaced
	wg      sync.WaitGroup
}

// wait blocks until the delay goroutine, if it was started, has exited.
func (d *delayState[T]) wait() { d.wg.Wait() }

// stopLocked stops the timer, drops waiting items and tells the goroutine to
// exit. It is idempotent; Queue.mu must be held.
func (d *delayState[T]) stopLocked() {
	if d.stopped {
		return
	}
	d.stopped = true
	if d.timer != nil {
		d.timer.Stop()
		d.timer = nil
	}
	d.waiting.Reset()
	if d.started {
		close(d.stop)
	}
}

// AddAfter adds item to the queue once d has passed on the queue's clock.
// A d <= 0 adds it at once. If item is already waiting, the earlier of the
// two ready times wins. AddAfter never blocks on the delay goroutine. Items
// still waiting when the queue shuts down are dropped; AddAfter after
// ShutDown is ignored.
func (q *Queue[T]) AddAfter(item T, d time.Duration) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.shuttingDown {
		return
	}
	if q.metrics != nil {
		q.metrics.Retried()
	}
	if d <= 0 {
		q.addLocked(item)
		return
	}
	now := q.clock.Now()
	q.delay.waiting.Insert(item, now.Add(d))
	q.armLocked(now)
	if !q.delay.started {
		q.delay.started = true
		q.delay.stop = make(chan struct{})
		q.delay.wake = make(chan struct{}, 1)
		q.delay.wg.Add(1)
		go q.delayLoop(q.delay.stop, q.delay.wake)
	}
}

// armLocked makes sure the timer is armed for the head of the waiting heap,
// replacing it if the head changed; q.mu must be held.
func (q *Queue[T]) armLocked(now time.Time) {
	d := &q.delay
	if d.waiting.Len() == 0 {
		if d.timer != nil {
			d.timer.Stop()
			d.timer = nil
		}
		return
	}
	head := d.waiting.Peek().readyAt
	if d.timer != nil && d.armedFor.Equal(head) {
		return
	}
	if d.timer != nil {
		d.timer.Stop()
	}
	d.timer = q.clock.NewTimer(head.Sub(now))
	d.armedFor = head
	d.gen++
	select {
	case d.wake <- struct{}{}:
	default: // a wake-up is already pending, or the goroutine is not started yet
	}
}

// releaseLocked moves every waiting item whose time has come into the queue,
// in ready-time order, and re-arms the timer; q.mu must be held.
func (q *Queue[T]) releaseLocked(now time.Time) {
	for q.delay.waiting.Len() > 0 && !q.delay.waiting.Peek().readyAt.After(now) {
		q.addLocked(q.delay.waiting.Pop().item)
	}
	q.armLocked(now)
}

// delayLoop is the queue's delay goroutine. It sleeps on the current timer
// and moves due items into the queue until stop is closed.
func (q *Queue[T]) delayLoop(stop, wake <-chan struct{}) {
	defer q.delay.wg.Done()
	defer klog.V(5).InfoS("Workqueue delay loop stopped", "queue", q.name)
	var fired uint64 // generation of the timer that just fired; 0 for none
	for {
		q.mu.Lock()
		if q.delay.stopped {
			q.mu.Unlock()
			return
		}
		if fired != 0 && fired == q.delay.gen {
			q.delay.timer = nil // spent; releaseLocked arms a new one if needed
		}
		q.releaseLocked(q.clock.Now())
		var timerC <-chan time.Time
		gen := q.delay.gen
		if q.delay.timer != nil {
			timerC = q.delay.timer.C()
		}
		q.mu.Unlock()

		fired = 0
		select {
		case <-stop:
			return
		case <-wake:
		case <-timerC:
			fired = gen
		}
	}
}
