package delivery

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

// DefaultFastCapacity is the most notifications a listener's in-order
// buffer holds unless ListenerConfig.FastCapacity says otherwise; beyond
// it (twice that when counting the batch being delivered) a lagging
// listener coalesces per key.
const DefaultFastCapacity = 1024

// initialFastCapacity is the capacity a listener's in-order buffer starts
// with (896 bytes); it grows on demand up to the listener's fast capacity,
// and a grown buffer is released when the listener goes idle or delivers
// a batch that uses under a quarter of it. An idle handler thus costs
// about a kilobyte, not two full buffers (115 KB).
const initialFastCapacity = 16

// coalescedBatch is how many coalesced keys a listener takes per lock.
const coalescedBatch = 256

// idleSpins is how many times an idle listener yields before sleeping on
// its condition variable, as the informer's queue consumer does.
const idleSpins = 2

// ListenerConfig configures NewListener.
type ListenerConfig struct {
	// Handler receives the notifications. When it also has OnResync, a
	// resync calls that, otherwise OnUpdate(obj, obj); when it has OnStop,
	// that is called once deliveries end.
	Handler Handler
	// Name names the handler in logs and Metrics; empty logs the
	// handler's Go type.
	Name string
	// FastCapacity is the most notifications the in-order buffer holds;
	// 0 means DefaultFastCapacity.
	FastCapacity int
	// Metrics receives the handler's lag and panics; nil disables them.
	Metrics Metrics
	// HasKey reports whether obj (an object, or a tombstone of a delete)
	// is filed under key: coalescing confirms with it that a pending
	// change is of the key looked up. Required.
	HasKey func(obj any, key string) bool
	// LatestOnly makes coalesced updates carry a nil old object instead
	// of the state the handler was last given, so a lagging handler keeps
	// no object version alive that the cache has dropped.
	LatestOnly bool
	// AfterCall, when set, runs after each handler call that returned,
	// with the object the handler was given (the mutation detector's
	// check). A panic in it is not recovered.
	AfterCall func(obj any)
	// Resync is the resync period the handler asked for, 0 for none; the
	// Processor raises it to its check period (see Processor.Add).
	Resync time.Duration
}

// Listener delivers notifications to one handler from its own goroutine.
//
// Producers (the informer, under its apply lock) call Push, which never
// blocks on the handler: notifications go to a bounded in-order buffer
// and, once it is full, into a per-key coalescing backlog whose size is
// bounded by the number of distinct keys. The listener drains the
// in-order buffer before coalesced keys, so notifications of one key are
// never reordered.
//
// Concurrency: one goroutine, run, started by the Processor and ended by
// stop; it is the only caller of the handler. Lock order: the informer's
// apply lock, then Processor.mu, then mu (Push is called under the first;
// the Processor reads the resync fields under its own).
type Listener struct {
	// Immutable after NewListener.
	handler         Handler
	resync          resyncHandler // nil: resyncs go to OnUpdate(obj, obj)
	name            string
	metrics         Metrics
	latestOnly      bool          // ListenerConfig.LatestOnly
	afterCall       func(obj any) // ListenerConfig.AfterCall
	requestedResync time.Duration // ListenerConfig.Resync

	// mu guards the fields up to stopped. cond waits on mu; only run
	// waits on it, with idle set.
	mu      sync.Mutex
	cond    sync.Cond
	fast    []Notification  // being filled, in order; grows up to fastCap
	fastCap int             // most notifications fast holds
	spare   []Notification  // empty buffer swapped in by the consumer
	backlog backlog         // coalesced per key; non-empty only once fast filled up
	taken   []pendingChange // coalesced changes being delivered; touched by run only
	idle    bool            // run waits on cond: Push signals it
	peak    int             // the most notifications pending at once (fast and backlog), read by tests of the bound
	stopped bool            // stop was called: Push drops notifications

	stopFlag       atomic.Bool  // stop was called: run returns at its next check
	initialPending atomic.Int64 // initial adds pushed, not yet delivered
	// initialZero receives a signal (buffered, never blocking) each time
	// initialPending drops to 0, for the registration's DoneChecker.
	initialZero chan struct{}
	// runFinished is closed when run returns, or by Processor.Remove
	// when the listener is removed before it ever ran (ShutdownChan).
	runFinished chan struct{}

	// The resync schedule, guarded by Processor.mu (Processor.Add and
	// resync.go).
	resyncPeriod time.Duration
	nextResync   time.Time
}

// NewListener returns a listener for cfg.Handler; it delivers once a
// Processor it was added to runs.
func NewListener(cfg ListenerConfig) *Listener {
	fastCapacity := cfg.FastCapacity
	if fastCapacity <= 0 {
		fastCapacity = DefaultFastCapacity
	}
	l := &Listener{
		handler:         cfg.Handler,
		name:            cfg.Name,
		metrics:         cfg.Metrics,
		latestOnly:      cfg.LatestOnly,
		afterCall:       cfg.AfterCall,
		requestedResync: cfg.Resync,
		fastCap:         fastCapacity,
		backlog:         newBacklog(cfg.HasKey),

		initialZero: make(chan struct{}, 1),
		runFinished: make(chan struct{}),
	}
	l.resync, _ = cfg.Handler.(resyncHandler)
	l.cond.L = &l.mu
	return l
}

// Name is the handler's name, ListenerConfig.Name.
func (l *Listener) Name() string { return l.name }

// InitialPending is the number of initial adds pushed and not yet
// delivered (or dropped).
func (l *Listener) InitialPending() int64 { return l.initialPending.Load() }

// InitialZero receives a signal each time InitialPending drops to 0. The
// channel is buffered (one signal) and never blocks the listener: one
// goroutine should receive from it.
func (l *Listener) InitialZero() <-chan struct{} { return l.initialZero }

// Finished is closed when the listener's goroutine returned, or when the
// listener was removed before its Processor ran.
func (l *Listener) Finished() <-chan struct{} { return l.runFinished }

// initialDone counts one initial add delivered (or dropped) and signals
// initialZero when none is left.
func (l *Listener) initialDone() {
	if l.initialPending.Add(-1) == 0 {
		select {
		case l.initialZero <- struct{}{}:
		default: // a signal is already pending
		}
	}
}

// Push queues n without ever waiting for the handler. Notifications
// pushed after the listener stopped are dropped. It is safe for
// concurrent use, but notifications of one key are delivered in the
// order Push was called: the informer calls it from one goroutine at a
// time, under its apply lock.
func (l *Listener) Push(n Notification) {
	if n.Initial {
		l.initialPending.Add(1)
	}
	l.mu.Lock()
	if l.stopped {
		l.mu.Unlock()
		if n.Initial {
			l.initialDone()
		}
		return
	}
	if l.backlog.live() == 0 && len(l.fast) < l.fastCap {
		n.Key = "" // only coalescing needs it
		if l.fast == nil {
			l.fast = make([]Notification, 0, min(initialFastCapacity, l.fastCap))
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

// lagReportStep is the backlog growth between HandlerLag reports from Push.
const lagReportStep = 256

// coalesceLocked merges n into the pending change of its key.
func (l *Listener) coalesceLocked(n Notification) {
	c, seq, tag := l.backlog.lookup(n.Key)
	if c == nil {
		c, seq = l.backlog.push(tag)
	}
	switch n.Kind {
	case Resync:
		// A resync adds nothing to a pending change of the key.
		if c.kind == None && !c.deleted || c.kind == Resync {
			c.kind, c.new = Resync, n.New
		}
	case Add:
		l.coalesceAddLocked(c, n)
	case Update:
		l.coalesceUpdateLocked(c, n)
	case Delete:
		l.coalesceDeleteLocked(c, seq, n)
	}
}

// coalesceAddLocked merges the add n into the key's pending change c.
func (l *Listener) coalesceAddLocked(c *pendingChange, n Notification) {
	switch c.kind {
	case Update:
		// The handler knows the object: the add is a change of it.
		c.new = n.New
		if n.Initial {
			l.initialDone()
		}
		return
	case Add:
		if c.initial {
			l.initialDone()
		}
	}
	c.kind, c.initial, c.new = Add, n.Initial, n.New
}

// coalesceUpdateLocked merges the update n into the key's pending change
// c.
func (l *Listener) coalesceUpdateLocked(c *pendingChange, n Notification) {
	switch {
	case c.kind == Add || c.kind == Update:
		c.new = n.New
	case c.deleted:
		// Not produced by the informer (a deleted key is added again
		// first); the handler is told of a delete, so this is an add.
		c.kind, c.initial, c.new = Add, false, n.New
	default:
		c.kind, c.new = Update, n.New
		if !l.latestOnly {
			c.old = n.Old
		}
	}
}

// coalesceDeleteLocked merges the delete n into the key's pending change
// c, the backlog's entry seq.
func (l *Listener) coalesceDeleteLocked(c *pendingChange, seq uint32, n Notification) {
	if c.kind == Add {
		// The handler never saw this object: add and delete cancel,
		// leaving the delete (if any) of the object it knows.
		if c.initial {
			l.initialDone()
		}
		c.kind, c.initial, c.new = None, false, nil
		if !c.deleted {
			l.backlog.kill(c, seq)
		}
		return
	}
	c.kind, c.new = None, nil
	if !c.deleted {
		// Keep the first delete: it is of the object the handler knows.
		c.deleted, c.old = true, n.Old
	}
}

// Pending is the number of notifications held for the handler: the
// in-order buffer plus the coalesced keys.
func (l *Listener) Pending() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.fast) + l.backlog.live()
}

// PeakPending returns the most notifications that were pending at once,
// as Pending counts them, since the listener was created.
func (l *Listener) PeakPending() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.peak
}

// Drained reports whether the listener waits for work with nothing
// pending: every notification pushed so far has been delivered.
func (l *Listener) Drained() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.idle && len(l.fast) == 0 && l.backlog.empty()
}

// stop makes run return after the handler call in progress, dropping the
// pending notifications.
func (l *Listener) stop() {
	l.stopFlag.Store(true)
	l.mu.Lock()
	l.stopped = true
	l.cond.Signal()
	l.mu.Unlock()
}

// run delivers notifications until stop is called.
func (l *Listener) run() {
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
func (l *Listener) waitLocked() {
	for spin := 0; !l.stopped && len(l.fast) == 0 && l.backlog.empty(); spin++ {
		if spin < idleSpins {
			// Yield to the producer before sleeping (see idleSpins).
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
// one for Push meanwhile; it is called with mu held and returns with it
// released.
func (l *Listener) deliverFastLocked() {
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
func (l *Listener) deliverTaken() {
	for i := range l.taken {
		if l.stopFlag.Load() {
			break
		}
		c := &l.taken[i]
		if c.deleted {
			l.call(&Notification{Kind: Delete, Old: c.old})
		}
		switch c.kind {
		case Update:
			l.call(&Notification{Kind: Update, Old: c.old, New: c.new})
		case Add, Resync:
			l.call(&Notification{Kind: c.kind, Initial: c.initial, New: c.new})
		}
	}
	clear(l.taken)
}

// releaseLocked, called when the listener goes idle with nothing pending,
// frees the memory a past burst grew: in-order buffers beyond their
// initial capacity and the backlog's spare chunk.
func (l *Listener) releaseLocked() {
	if cap(l.fast) > initialFastCapacity {
		l.fast = nil
	}
	if cap(l.spare) > initialFastCapacity {
		l.spare = nil
	}
	l.backlog.spare = nil
}

// dropLocked forgets every pending notification.
func (l *Listener) dropLocked() {
	clear(l.fast)
	l.fast = l.fast[:0]
	l.backlog.reset()
}

func (l *Listener) deliverAll(batch []Notification) {
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
func (l *Listener) call(n *Notification) {
	l.callHandler(n)
	if l.afterCall != nil && n.New != nil {
		l.afterCall(n.New)
	}
}

// callHandler is call without afterCall: a handler panic is recovered
// here, a failing afterCall (the mutation detector) is not.
func (l *Listener) callHandler(n *Notification) {
	if n.Kind == Add && n.Initial {
		defer l.initialDone()
	}
	defer l.recoverHandlerPanic(n)
	switch n.Kind {
	case Add:
		l.handler.OnAdd(n.New, n.Initial)
	case Update:
		l.handler.OnUpdate(n.Old, n.New)
	case Delete:
		l.handler.OnDelete(n.Old)
	case Resync:
		if l.resync != nil {
			l.resync.OnResync(n.New)
		} else {
			l.handler.OnUpdate(n.New, n.New)
		}
	}
}

// callStop tells the handler that deliveries ended, when it implements
// StopHandler. A panic is handled as one of a notification.
func (l *Listener) callStop() {
	s, ok := l.handler.(stopHandler)
	if !ok {
		return
	}
	defer l.recoverHandlerPanic(&Notification{Kind: kindStop})
	s.OnStop()
}

// recoverHandlerPanic, deferred by call, handles a panic of the handler
// while it processed n.
func (l *Listener) recoverHandlerPanic(n *Notification) {
	r := recover()
	if r == nil {
		return
	}
	name := l.name
	if name == "" {
		// An unnamed handler (HandlerOptions.Name unset): its Go type.
		name = fmt.Sprintf("%T", l.handler)
	}
	ctx := klog.NewContext(context.Background(), klog.Background().WithValues("handler", name, "notification", n.Kind.String()))
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
