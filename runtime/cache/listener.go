package cache

import (
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
)

// notificationKind says which handler method a notification calls.
type notificationKind uint8

const (
	notifyNone notificationKind = iota
	notifyAdd
	notifyUpdate
	notifyDelete
	notifyResync
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

// pendingEntry is the coalesced net change for one key of a lagging
// listener: an optional delete of the object the handler knows, followed by
// an optional add, update or resync.
type pendingEntry struct {
	key    string
	hasDel bool
	del    any
	n      notification
}

// defaultFastCapacity is the size of a listener's in-order buffer; beyond
// it (twice that when counting the batch being delivered) a lagging
// listener coalesces per key.
const defaultFastCapacity = 1024

// coalescedBatch is how many coalesced keys a listener takes per lock.
const coalescedBatch = 256

// listener delivers notifications to one handler from its own goroutine.
//
// Producers (the informer, under its apply lock) call push, which never
// blocks on the handler: notifications go to a fixed-capacity in-order
// buffer and, once it is full, into a per-key coalescing map whose size is
// bounded by the number of distinct keys. The listener drains the in-order
// buffer before coalesced keys, so notifications of one key are never
// reordered.
type listener struct {
	handler ResourceEventHandler
	resync  ResyncHandler // nil: resyncs go to OnUpdate(obj, obj)
	name    string
	metrics Metrics

	mu      sync.Mutex
	cond    sync.Cond
	fast    []notification // being filled, in order
	spare   []notification // empty buffer swapped in by the consumer
	pending map[string]*pendingEntry
	order   []*pendingEntry // coalesced keys, oldest first, from orderHead
	head    int
	free    []*pendingEntry
	idle    bool // consumer waits on cond
	stopped bool

	stopFlag       atomic.Bool
	initialPending atomic.Int64 // initial adds not yet delivered

	// Resync schedule, guarded by the processor's lock.
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
		fast:    make([]notification, 0, fastCapacity),
		spare:   make([]notification, 0, fastCapacity),
		pending: make(map[string]*pendingEntry),
	}
	l.resync, _ = handler.(ResyncHandler)
	l.cond.L = &l.mu
	return l
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
			l.initialPending.Add(-1)
		}
		return
	}
	if len(l.pending) == 0 && len(l.fast) < cap(l.fast) {
		l.fast = append(l.fast, n)
	} else {
		l.coalesceLocked(n)
	}
	if l.metrics != nil {
		// Report a growing backlog every lagReportStep notifications; the
		// goroutine reports the rest as it drains.
		if n := len(l.fast) + len(l.pending); n%lagReportStep == 0 {
			l.metrics.HandlerLag(l.name, n)
		}
	}
	if l.idle {
		l.idle = false
		l.cond.Signal()
	}
	l.mu.Unlock()
}

// lagReportStep is the backlog growth between HandlerLag reports from push.
const lagReportStep = 256

// coalesceLocked merges n into the pending entry of its key.
func (l *listener) coalesceLocked(n notification) {
	e, ok := l.pending[n.key]
	if !ok {
		if k := len(l.free); k > 0 {
			e = l.free[k-1]
			l.free[k-1] = nil
			l.free = l.free[:k-1]
		} else {
			e = &pendingEntry{}
		}
		e.key = n.key
		l.pending[n.key] = e
		l.order = append(l.order, e)
	}
	switch n.kind {
	case notifyResync:
		// A resync adds nothing to a pending change of the key.
		if e.n.kind == notifyNone && !e.hasDel || e.n.kind == notifyResync {
			e.n = n
		}
	case notifyAdd:
		if e.n.kind == notifyAdd && e.n.initial {
			l.initialPending.Add(-1)
		}
		if e.n.kind == notifyUpdate {
			// The handler knows the object: the add is a change of it.
			e.n.newObj = n.newObj
			if n.initial {
				l.initialPending.Add(-1)
			}
			return
		}
		e.n = n
	case notifyUpdate:
		switch e.n.kind {
		case notifyAdd, notifyUpdate:
			e.n.newObj = n.newObj
		default:
			e.n = n
		}
	case notifyDelete:
		if e.n.kind == notifyAdd {
			// The handler never saw this object: add and delete cancel,
			// leaving the delete (if any) of the object it knows.
			if e.n.initial {
				l.initialPending.Add(-1)
			}
			e.n = notification{}
			return
		}
		e.n = notification{}
		if !e.hasDel {
			// Keep the first delete: it is of the object the handler knows.
			e.hasDel = true
			e.del = n.oldObj
		}
	}
}

// pendingCount is the number of notifications held for the handler: the
// in-order buffer plus the coalesced keys.
func (l *listener) pendingCount() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.fast) + len(l.pending)
}

// drained reports whether the listener waits for work with nothing
// pending: every notification pushed so far has been delivered.
func (l *listener) drained() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.idle && len(l.fast) == 0 && len(l.order) == l.head
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
	defer utilruntime.HandleCrash()
	var coalesced []*pendingEntry
	for {
		l.mu.Lock()
		for spin := 0; !l.stopped && len(l.fast) == 0 && len(l.order) == l.head; spin++ {
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
			l.idle = true
			l.cond.Wait()
		}
		if l.stopped {
			l.dropLocked()
			l.mu.Unlock()
			return
		}
		if l.metrics != nil {
			l.metrics.HandlerLag(l.name, len(l.fast)+len(l.pending))
		}
		if len(l.fast) > 0 {
			batch := l.fast
			l.fast, l.spare = l.spare, nil
			l.mu.Unlock()
			l.deliverAll(batch)
			clear(batch)
			l.mu.Lock()
			l.spare = batch[:0]
			l.mu.Unlock()
			continue
		}
		end := min(l.head+coalescedBatch, len(l.order))
		coalesced = append(coalesced[:0], l.order[l.head:end]...)
		clear(l.order[l.head:end])
		l.head = end
		for _, e := range coalesced {
			delete(l.pending, e.key)
		}
		if l.head == len(l.order) {
			l.order = l.order[:0]
			l.head = 0
		} else if l.head > 4096 && l.head > len(l.order)/2 {
			n := copy(l.order, l.order[l.head:])
			clear(l.order[n:])
			l.order = l.order[:n]
			l.head = 0
		}
		l.mu.Unlock()
		for _, e := range coalesced {
			if l.stopFlag.Load() {
				break
			}
			if e.hasDel {
				l.call(&notification{kind: notifyDelete, key: e.key, oldObj: e.del})
			}
			if e.n.kind != notifyNone {
				l.call(&e.n)
			}
		}
		l.mu.Lock()
		for i, e := range coalesced {
			*e = pendingEntry{}
			if len(l.free) < coalescedBatch*4 {
				l.free = append(l.free, e)
			}
			coalesced[i] = nil
		}
		l.mu.Unlock()
	}
}

// dropLocked forgets every pending notification.
func (l *listener) dropLocked() {
	clear(l.fast)
	l.fast = l.fast[:0]
	clear(l.pending)
	clear(l.order)
	l.order, l.head = l.order[:0], 0
}

func (l *listener) deliverAll(batch []notification) {
	for i := range batch {
		if l.stopFlag.Load() {
			return
		}
		l.call(&batch[i])
	}
}

// call invokes the handler method for n.
func (l *listener) call(n *notification) {
	switch n.kind {
	case notifyAdd:
		l.handler.OnAdd(n.newObj, n.initial)
		if n.initial {
			l.initialPending.Add(-1)
		}
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
