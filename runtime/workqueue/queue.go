package workqueue

import (
	"sync"
	"time"

	"k8s.io/utils/clock"
)

// Queue is a de-duplicating, delaying, rate-limited FIFO of work items of
// type T (see the package documentation for the item lifecycle).
//
// All methods are safe for concurrent use by any number of producers and
// workers. A Queue must be created with New and must not be copied.
type Queue[T comparable] struct {
	name    string
	clock   clock.WithTicker
	limiter RateLimiter[T]
	metrics Metrics

	mu   sync.Mutex // guards every field below
	cond *sync.Cond // signalled on mu when an item is queued, processing empties, or shutdown starts

	// ready holds, in order, the items Get will hand out. Every item in
	// ready is dirty and not processing.
	ready fifo[T]
	// states records which of the dirty and processing sets each known
	// item is in; items in neither set have no entry. One map instead of
	// two sets halves the map operations per item.
	states map[T]itemState
	// inFlight is the size of the processing set.
	inFlight int

	shuttingDown bool
	drain        bool // a ShutDownWithDrain caller is waiting for processing to empty

	// Only allocated when metrics != nil.
	addedAt   map[T]time.Time
	startedAt map[T]time.Time

	delay delayState[T]
}

// itemState is a bit set telling which of the dirty and processing sets an
// item is in.
type itemState uint8

const (
	dirty      itemState = 1 << iota // needs processing
	processing                       // handed out by Get, not yet Done
)

// New returns a running, empty Queue configured by cfg. The queue starts its
// single delay goroutine only when AddAfter or AddRateLimited first needs it;
// ShutDown or ShutDownWithDrain stops it.
func New[T comparable](cfg Config[T]) *Queue[T] {
	clk := cfg.Clock
	if clk == nil {
		clk = clock.RealClock{}
	}
	limiter := cfg.RateLimiter
	if limiter == nil {
		limiter = DefaultRateLimiter[T](clk)
	}
	q := &Queue[T]{
		name:    cfg.Name,
		clock:   clk,
		limiter: limiter,
		metrics: cfg.Metrics,
		states:  map[T]itemState{},
	}
	q.cond = sync.NewCond(&q.mu)
	if q.metrics != nil {
		q.addedAt = map[T]time.Time{}
		q.startedAt = map[T]time.Time{}
	}
	return q
}

// Add marks item as needing processing. If item is already waiting, Add does
// nothing; if it is being processed, it is queued again when Done is called
// for it. Add after ShutDown or ShutDownWithDrain is silently ignored.
func (q *Queue[T]) Add(item T) {
	q.mu.Lock()
	q.addLocked(item)
	q.mu.Unlock()
}

// addLocked implements Add; q.mu must be held.
func (q *Queue[T]) addLocked(item T) {
	if q.shuttingDown {
		return
	}
	state := q.states[item]
	if state&dirty != 0 {
		return
	}
	q.states[item] = state | dirty
	if q.metrics != nil {
		q.metrics.Added()
		if _, ok := q.addedAt[item]; !ok {
			q.addedAt[item] = q.clock.Now()
		}
	}
	if state&processing != 0 {
		return // queued again by Done
	}
	q.pushLocked(item)
}

// pushLocked appends item to ready and wakes one waiting Get; q.mu must be held.
func (q *Queue[T]) pushLocked(item T) {
	q.ready.Push(item)
	if q.metrics != nil {
		q.metrics.Depth(q.ready.Len())
	}
	q.cond.Signal()
}

// Len returns the number of items waiting to be handed out by Get. It is
// informational only: by the time the caller looks at it, other goroutines
// may have changed it.
func (q *Queue[T]) Len() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.ready.Len()
}

// Get blocks until an item is available and returns it with shutdown false;
// the caller owns the item until it calls Done(item), and no other Get
// returns the same item meanwhile. Once the queue is shutting down, Get keeps
// returning the items still waiting and then returns the zero T with
// shutdown true, at which point the worker should exit.
func (q *Queue[T]) Get() (item T, shutdown bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	for q.ready.Len() == 0 && !q.shuttingDown {
		q.cond.Wait()
	}
	if q.ready.Len() == 0 {
		var zero T
		return zero, true
	}
	item = q.ready.Pop()
	q.states[item] = processing // it was dirty only
	q.inFlight++
	if q.metrics != nil {
		now := q.clock.Now()
		q.metrics.Depth(q.ready.Len())
		if at, ok := q.addedAt[item]; ok {
			q.metrics.Latency(now.Sub(at))
			delete(q.addedAt, item)
		}
		q.startedAt[item] = now
	}
	return item, false
}

// Done tells the queue that processing of item, obtained from Get, has
// finished. If item was added again meanwhile, it is queued at the tail.
// Done for an item that is not being processed does nothing.
func (q *Queue[T]) Done(item T) {
	q.mu.Lock()
	defer q.mu.Unlock()
	state := q.states[item]
	if state&processing == 0 {
		return
	}
	q.inFlight--
	if state&dirty != 0 {
		q.states[item] = dirty
		q.pushLocked(item) // re-added while processing
	} else {
		delete(q.states, item)
	}
	if q.metrics != nil {
		if at, ok := q.startedAt[item]; ok {
			q.metrics.WorkDuration(q.clock.Since(at))
			delete(q.startedAt, item)
		}
	}
	if q.shuttingDown && q.inFlight == 0 {
		q.cond.Broadcast() // release ShutDownWithDrain
	}
}

// ShutDown makes the queue ignore new items, stops the delay goroutine
// (dropping items still waiting for their AddAfter delay) and returns once
// it has exited. Workers keep getting the items already queued, then Get
// returns shutdown true. ShutDown may be called more than once, and it
// releases a ShutDownWithDrain that is still waiting.
func (q *Queue[T]) ShutDown() {
	q.mu.Lock()
	q.shutDownLocked()
	q.drain = false
	q.cond.Broadcast()
	q.mu.Unlock()
	q.delay.wait()
}

// ShutDownWithDrain is ShutDown that, in addition, blocks until every item
// handed out by Get has been passed to Done (or until ShutDown is called).
// Workers must keep running and call Done, or this blocks forever.
func (q *Queue[T]) ShutDownWithDrain() {
	q.mu.Lock()
	q.shutDownLocked()
	q.drain = true
	q.cond.Broadcast()
	for q.inFlight > 0 && q.drain {
		q.cond.Wait()
	}
	q.mu.Unlock()
	q.delay.wait()
}

// shutDownLocked marks the queue as shutting down and tells the delay
// goroutine to stop; q.mu must be held.
func (q *Queue[T]) shutDownLocked() {
	q.shuttingDown = true
	q.delay.stopLocked()
}

// ShuttingDown reports whether ShutDown or ShutDownWithDrain has been called.
func (q *Queue[T]) ShuttingDown() bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.shuttingDown
}
