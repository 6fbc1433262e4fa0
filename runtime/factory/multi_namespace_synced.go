package factory

import (
	"context"
	"strings"
	"sync"

	"github.com/informer-gen/informer-gen/runtime/cache"
)

// How a several-namespace informer signals its sync and its handlers'
// syncs without polling, and without a goroutine that waits for ever: the
// informer's own sync is awaited on the goroutine that runs it, and a
// handler's on a goroutine that exists only while the informer runs.

// runState is where a multiNamespaceInformer is in its one run.
type runState int

const (
	notStarted runState = iota
	running
	stopped
)

// multiSync is the sync signalling of a multiNamespaceInformer.
type multiSync struct {
	// synced is closed by RunWithContext once every part synced.
	synced chan struct{}
	// stopped ends when RunWithContext returns; each handler's
	// registration context derives from it.
	stopped context.Context
	stop    context.CancelFunc

	// mu guards state and pending.
	mu    sync.Mutex
	state runState
	// pending are the handler checkers whose Done was called before the
	// informer ran; RunWithContext starts their waits.
	pending []*handlerSynced
}

func newMultiSync() *multiSync {
	s := &multiSync{synced: make(chan struct{})}
	s.stopped, s.stop = context.WithCancel(context.Background())
	return s
}

// RunWithContext runs every namespace's informer and returns when all
// have returned. Meanwhile it closes the informer's HasSyncedChecker once
// every namespace's informer synced. An informer runs once: later calls
// return at once.
func (m *multiNamespaceInformer) RunWithContext(ctx context.Context) {
	m.sync.mu.Lock()
	if m.sync.state != notStarted {
		m.sync.mu.Unlock()
		return
	}
	m.sync.state = running
	pending := m.sync.pending
	m.sync.pending = nil
	m.sync.mu.Unlock()
	defer m.ended()

	var wg sync.WaitGroup
	for _, p := range m.parts {
		wg.Go(func() { p.RunWithContext(ctx) })
	}
	for _, h := range pending {
		go h.wait()
	}
	if awaitAll(ctx.Done(), m.partCheckers()) {
		close(m.sync.synced)
	}
	wg.Wait()
}

// ended records that the run ended and ends the waits of handler
// checkers.
func (m *multiNamespaceInformer) ended() {
	m.sync.mu.Lock()
	defer m.sync.mu.Unlock()
	m.sync.state = stopped
	m.sync.stop()
}

func (m *multiNamespaceInformer) partCheckers() []cache.DoneChecker {
	checkers := make([]cache.DoneChecker, len(m.parts))
	for i, p := range m.parts {
		checkers[i] = p.HasSyncedChecker()
	}
	return checkers
}

// awaitAll waits until every checker is done, or until stop is closed
// with one not done, and reports whether all are done.
func awaitAll(stop <-chan struct{}, checkers []cache.DoneChecker) bool {
	for _, c := range checkers {
		select {
		case <-c.Done():
		case <-stop:
			if !cache.IsDone(c) {
				return false
			}
		}
	}
	return true
}

// HasSyncedChecker returns a DoneChecker done once every namespace's
// informer synced. It is the same channel on every call; the running
// informer closes it.
func (m *multiNamespaceInformer) HasSyncedChecker() cache.DoneChecker {
	return closedChecker{name: "namespaces " + strings.Join(m.namespaces, ","), ch: m.sync.synced}
}

// closedChecker is a DoneChecker over a channel its owner closes.
type closedChecker struct {
	name string
	ch   <-chan struct{}
}

func (c closedChecker) Name() string          { return c.name }
func (c closedChecker) Done() <-chan struct{} { return c.ch }

// HasSyncedChecker returns a DoneChecker done once the handler synced on
// every namespace's informer. The same checker on every call.
func (r *multiRegistration) HasSyncedChecker() cache.DoneChecker {
	r.checkerOnce.Do(func() {
		r.checker = &handlerSynced{r: r, done: make(chan struct{})}
	})
	return r.checker
}

// handlerSynced is a multiRegistration's DoneChecker. Its first Done
// call, once the informer runs (or when the informer starts running),
// starts one goroutine that waits for the handler's registration in each
// namespace and closes done; the goroutine ends then, or when the
// informer stops or the handler is removed. Before the informer runs,
// nothing waits.
type handlerSynced struct {
	r    *multiRegistration
	once sync.Once
	done chan struct{}
}

func (h *handlerSynced) Name() string {
	return "handler on namespaces " + strings.Join(h.r.owner.namespaces, ",")
}

func (h *handlerSynced) Done() <-chan struct{} {
	h.once.Do(h.start)
	return h.done
}

// start closes done if the handler synced, else starts the wait if the
// informer runs, or leaves it to RunWithContext if it has not started.
func (h *handlerSynced) start() {
	if h.r.HasSynced() {
		close(h.done)
		return
	}
	s := h.r.owner.sync
	s.mu.Lock()
	defer s.mu.Unlock()
	switch s.state {
	case notStarted:
		s.pending = append(s.pending, h)
	case running:
		go h.wait()
	case stopped:
		// Stopped before the handler synced: it never will.
	}
}

// wait closes done once the handler's registration in every namespace
// synced; it gives up when the informer stops or the handler is removed.
func (h *handlerSynced) wait() {
	checkers := make([]cache.DoneChecker, len(h.r.regs))
	for i, reg := range h.r.regs {
		checkers[i] = reg.HasSyncedChecker()
	}
	if awaitAll(h.r.ctx.Done(), checkers) {
		close(h.done)
	}
}
