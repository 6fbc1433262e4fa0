package cache

import (
	"context"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/klog/v2"
)

// notificationKind says which handler method a notification calls.
type notificationKind uint8

const (
	notifyNone notificationKind = iota
	notifyAdd
	notifyUpdate
	notifyDelete
	notifyResync
	notifyStop // never queued: names OnStop in logs
)

// notification is one pending handler call. add and resync use newObj,
// update both objects, delete oldObj (the last state, maybe a tombstone).
type notification struct {
	kind    notificationKind
	initial bool // add that is part of the handler's initial list
	key     string
	oldObj  any
	newObj  any
}

// defaultFastCapacity is the most notifications a listener's in-order
// buffer holds; beyond it (twice that when counting the batch being
// delivered) a lagging listener coalesces per key.
const defaultFastCapacity = 1024

// initialFastCapacity is the capacity a listener's in-order buffer starts
// with (896 bytes); it grows on demand up to the listener's fast capacity,
// and a grown buffer is released when the listener goes idle or delivers
// a batch that uses under a quarter of it. An idle handler thus costs
// about a kilobyte, not two full buffers (115 KB).
const initialFastCapacity = 16

// coalescedBatch is how many coalesced keys a listener takes per lock.
const coalescedBatch = 256

// listener delivers notifications to one handler from its own goroutine.
//
// Producers (the informer, under its apply lock) call push, which never
// blocks on the handler: notifications go to a fixed-capacity in-order
// buffer and, once it is full, into a per-key coalescing backlog whose
// size is bounded by the number of distinct keys. The listener drains the in-order
// buffer before coalesced keys, so notifications of one key are never
// reordered.
//
// Concurrency: one goroutine, run, started by the processor and ended by
// stop; it is the only caller of the handler. Lock order: the informer's
// apply lock, then the processor's mu, then mu (push is called under the
// first; the processor reads the resync fields under its own).
type listener struct {
	// Immutable after newListener.
	handler ResourceEventHandler
	resync  ResyncHandler // nil: resyncs go to OnUpdate(obj, obj)
	name    string
	metrics Metrics

	// mu guards the fields up to stopped. cond waits on mu; only run
	// waits on it, with idle set.
	mu      sync.Mutex
	cond    sync.Cond
	fast    []notification  // being filled, in order; grows up to fastCap
	fastCap int             // most notifications fast holds
	spare   []notification  // empty buffer swapped in by the consumer
	backlog backlog         // coalesced per key; non-empty only once fast filled up
	taken   []pendingChange // coalesced changes being delivered; touched by run only
	idle    bool            // run waits on cond: push signals it
	peak    int             // the most notifications pending at once (fast and backlog), read by tests of the bound
	stopped bool            // stop was called: push drops notifications

	// latestOnly makes coalesced updates carry a nil old object instead
	// of the state the handler was last given, so a lagging handler keeps
	// no object version alive that the cache has dropped. Written by the
	// informer before it adds the listener to the processor (which starts
	// run); read-only afterwards.
	latestOnly bool
	// afterCall, when set, runs after each handler call that returned, with
	// the object the handler was given (the mutation detector's check).
	// Written like latestOnly.
	afterCall func(obj any)

	stopFlag       atomic.Bool  // stop was called: run returns at its next check
	initialPending atomic.Int64 // initial adds pushed, not yet delivered
	// initialZero receives a signal (buffered, never blocking) each time
	// initialPending drops to 0, for the registration's DoneChecker.
	initialZero chan struct{}
	// runFinished is closed when run returns, or by processor.remove
	// when the listener is removed before it ever ran (ShutdownChan).
	runFinished chan struct{}

	// The resync schedule. requestedResync is written before the listener
	// is added to the processor; resyncPeriod and nextResync are guarded
	// by the processor's mu (processor.add and resync.go).
	requestedResync time.Duration
	resyncPeriod    time.Duration
	nextResync      time.Time
}

func newListener(handler ResourceEventHandler, name string, fastCapacity int, metrics Metrics) *listener {
	if fastCapacity <= 0 {
		fastCapacity = defaultFastCapacity
	}
	l := &listener{
		handler: handler,
		name:    name,
		metrics: metrics,
		fastCap: fastCapacity,
		backlog: newBacklog(),

		initialZero: make(chan struct{}, 1),
		runFinished: make(chan struct{}),
	}
	l.resync, _ = handler.(ResyncHandler)
	l.cond.L = &l.mu
	return l
}

// initialDone counts one initial add delivered (or dropped) and signals
// initialZero when none is left.
func (l *listener) initialDone() {
	if l.initialPending.Add(-1) == 0 {
		select {
		case l.initialZero <- struct{}{}:
		default: // a signal is already pending
		}
	}
}

// push queues n without ever waiting for the handler.
func (l *listener) push(n notification) {
	if n.initial {
		l.initialPending.Add(1)
	}
	l.mu.Lock()
	if l.stopped {
		l.mu.Unlock()
		if n.initial {
			l.initialDone()
		}
		return
	}
	if l.backlog.live() == 0 && len(l.fast) < l.fastCap {
		n.key = "" // only coalescing needs it
		if l.fast == nil {
			l.fast = make([]notification, 0, min(initialFastCapacity, l.fastCap))
		}
		l.fast = append(l.fast, n)
	} else {
		l.coalesceLocked(n)
	}
	pending := len(l.fast) + l.backlog.live()
	l.peak = max(l.peak, pending)
	// Report a growing backlog every lagReportStep notifications; the
	// goroutine reports the rest as it drains.
	if l.metrics != nil && pending%lagReportStep == 0 {
		l.metrics.HandlerLag(l.name, pending)
	}
	if l.idle {
		l.idle = false
		l.cond.Signal()
	}
	l.mu.Unlock()
}

// lagReportStep is the backlog growth between HandlerLag reports from push.
const lagReportStep = 256

// coalesceLocked merges n into the pending change of its key.
func (l *listener) coalesceLocked(n notification) {
	c, seq, tag := l.backlog.lookup(n.key)
	if c == nil {
		c, seq = l.backlog.push(tag)
	}
	switch n.kind {
	case notifyResync:
		// A resync adds nothing to a pending change of the key.
		if c.kind == notifyNone && !c.deleted || c.kind == notifyResync {
			c.kind, c.new = notifyResync, n.newObj
		}
	case notifyAdd:
		l.coalesceAddLocked(c, n)
	case notifyUpdate:
		l.coalesceUpdateLocked(c, n)
	case notifyDelete:
		l.coalesceDeleteLocked(c, seq, n)
	}
}

// coalesceAddLocked merges the add n into the key's pending change c.
func (l *listener) coalesceAddLocked(c *pendingChange, n notification) {
	switch c.kind {
	case notifyUpdate:
		// The handler knows the object: the add is a change of it.
		c.new = n.newObj
		if n.initial {
			l.initialDone()
		}
		return
	case notifyAdd:
		if c.initial {
			l.initialDone()
		}
	}
	c.kind, c.initial, c.new = notifyAdd, n.initial, n.newObj
}

// coalesceUpdateLocked merges the update n into the key's pending change
// c.
func (l *listener) coalesceUpdateLocked(c *pendingChange, n notification) {
	switch {
	case c.kind == notifyAdd || c.kind == notifyUpdate:
		c.new = n.newObj
	case c.deleted:
		// Not produced by the informer (a deleted key is added again
		// first); the handler is told of a delete, so this is an add.
		c.kind, c.initial, c.new = notifyAdd, false, n.newObj
	default:
		c.kind, c.new = notifyUpdate, n.newObj
		if !l.latestOnly {
			c.old = n.oldObj
		}
	}
}

// coalesceDeleteLocked merges the delete n into the key's pending change
// c, the backlog's entry seq.
func (l *listener) coalesceDeleteLocked(c *pendingChange, seq uint32, n notification) {
	if c.kind == notifyAdd {
		// The handler never saw this object: add and delete cancel,
		// leaving the delete (if any) of the object it knows.
		if c.initial {
			l.initialDone()
		}
		c.kind, c.initial, c.new = notifyNone, false, nil
		if !c.deleted {
			l.backlog.kill(c, seq)
		}
		return
	}
	c.kind, c.new = notifyNone, nil
	if !c.deleted {
		// Keep the first delete: it is of the object the handler knows.
		c.deleted, c.old = true, n.oldObj
	}
}

// pendingCount is the number of notifications held for the handler: the
// in-order buffer plus the coalesced keys.
func (l *listener) pendingCount() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.fast) + l.backlog.live()
}

// peakPending returns the most notifications that were pending at once,
// as pendingCount counts them, since the listener was created.
func (l *listener) peakPending() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.peak
}

// drained reports whether the listener waits for work with nothing
// pending: every notification pushed so far has been delivered.
func (l *listener) drained() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.idle && len(l.fast) == 0 && l.backlog.empty()
}

// stop makes run return after the handler call in progress, dropping the
// pending notifications.
func (l *listener) stop() {
	l.stopFlag.Store(true)
	l.mu.Lock()
	l.stopped = true
	l.cond.Signal()
	l.mu.Unlock()
}

// run delivers notifications until stop is called.
func (l *listener) run() {
	defer close(l.runFinished)
	defer utilruntime.HandleCrash()
	for {
		l.mu.Lock()
		l.waitLocked()
		if l.stopped {
			l.dropLocked()
			l.mu.Unlock()
			l.callStop()
			return
		}
		if l.metrics != nil {
			l.metrics.HandlerLag(l.name, len(l.fast)+l.backlog.live())
		}
		if len(l.fast) > 0 {
			l.deliverFastLocked()
			continue
		}
		l.taken = l.backlog.take(l.taken[:0], coalescedBatch)
		l.mu.Unlock()
		l.deliverTaken()
	}
}

// waitLocked waits, with mu held, until there is something to deliver or
// the listener is stopped.
func (l *listener) waitLocked() {
	for spin := 0; !l.stopped && len(l.fast) == 0 && l.backlog.empty(); spin++ {
		if spin < idleSpins {
			// Yield to the producer before sleeping; see DeltaFIFO.
			l.mu.Unlock()
			runtime.Gosched()
			l.mu.Lock()
			continue
		}
		if l.metrics != nil {
			l.metrics.HandlerLag(l.name, 0)
		}
		l.releaseLocked()
		l.idle = true
		l.cond.Wait()
	}
}

// deliverFastLocked delivers the in-order buffer, swapping in the spare
// one for push meanwhile; it is called with mu held and returns with it
// released.
func (l *listener) deliverFastLocked() {
	batch := l.fast
	l.fast, l.spare = l.spare, nil
	l.mu.Unlock()
	l.deliverAll(batch)
	clear(batch)
	if cap(batch) > initialFastCapacity && len(batch) < cap(batch)/4 {
		batch = nil // the burst that grew it is over
	}
	l.mu.Lock()
	l.spare = batch[:0]
	l.mu.Unlock()
}

// deliverTaken delivers the coalesced changes taken from the backlog.
func (l *listener) deliverTaken() {
	for i := range l.taken {
		if l.stopFlag.Load() {
			break
		}
		c := &l.taken[i]
		if c.deleted {
			l.call(&notification{kind: notifyDelete, oldObj: c.old})
		}
		switch c.kind {
		case notifyUpdate:
			l.call(&notification{kind: notifyUpdate, oldObj: c.old, newObj: c.new})
		case notifyAdd, notifyResync:
			l.call(&notification{kind: c.kind, initial: c.initial, newObj: c.new})
		}
	}
	clear(l.taken)
}

// releaseLocked, called when the listener goes idle with nothing pending,
// frees the memory a past burst grew: in-order buffers beyond their
// initial capacity and the backlog's spare chunk.
func (l *listener) releaseLocked() {
	if cap(l.fast) > initialFastCapacity {
		l.fast = nil
	}
	if cap(l.spare) > initialFastCapacity {
		l.spare = nil
	}
	l.backlog.spare = nil
}

// dropLocked forgets every pending notification.
func (l *listener) dropLocked() {
	clear(l.fast)
	l.fast = l.fast[:0]
	l.backlog.reset()
}

func (l *listener) deliverAll(batch []notification) {
	for i := range batch {
		if l.stopFlag.Load() {
			return
		}
		l.call(&batch[i])
	}
}

// call invokes the handler method for n. A panic of the handler is
// recovered, logged with the handler's name and counted; then, as
// utilruntime.HandleCrash does, it goes on when utilruntime.ReallyCrash is
// set, and otherwise n is dropped and delivery continues with the next
// notification. Either way an initial add counts as delivered, so the
// registration still syncs.
func (l *listener) call(n *notification) {
	l.callHandler(n)
	if l.afterCall != nil && n.newObj != nil {
		l.afterCall(n.newObj)
	}
}

// callHandler is call without afterCall: a handler panic is recovered
// here, a failing afterCall (the mutation detector) is not.
func (l *listener) callHandler(n *notification) {
	if n.kind == notifyAdd && n.initial {
		defer l.initialDone()
	}
	defer l.recoverHandlerPanic(n)
	switch n.kind {
	case notifyAdd:
		l.handler.OnAdd(n.newObj, n.initial)
	case notifyUpdate:
		l.handler.OnUpdate(n.oldObj, n.newObj)
	case notifyDelete:
		l.handler.OnDelete(n.oldObj)
	case notifyResync:
		if l.resync != nil {
			l.resync.OnResync(n.newObj)
		} else {
			l.handler.OnUpdate(n.newObj, n.newObj)
		}
	}
}

// callStop tells the handler that deliveries ended, when it implements
// StopHandler. A panic is handled as one of a notification.
func (l *listener) callStop() {
	s, ok := l.handler.(StopHandler)
	if !ok {
		return
	}
	defer l.recoverHandlerPanic(&notification{kind: notifyStop})
	s.OnStop()
}

// recoverHandlerPanic, deferred by call, handles a panic of the handler
// while it processed n.
func (l *listener) recoverHandlerPanic(n *notification) {
	r := recover()
	if r == nil {
		return
	}
	name := l.name
	if name == "" {
		// An unnamed handler (HandlerOptions.Name unset): its Go type.
		name = fmt.Sprintf("%T", l.handler)
	}
	ctx := klog.NewContext(context.Background(), klog.Background().WithValues("handler", name, "notification", n.kind.String()))
	for _, fn := range utilruntime.PanicHandlers {
		fn(ctx, r)
	}
	if l.metrics != nil {
		l.metrics.HandlerPanicked(l.name)
	}
	if utilruntime.ReallyCrash {
		panic(r)
	}
}

// String names the handler method k calls, for logs.
func (k notificationKind) String() string {
	switch k {
	case notifyAdd:
		return "add"
	case notifyUpdate:
		return "update"
	case notifyDelete:
		return "delete"
	case notifyResync:
		return "resync"
	case notifyStop:
		return "stop"
	}
	return "none"
}
