package cache

import (
	"sync"
	"sync/atomic"

	"github.com/informer-gen/informer-gen/runtime/cache/internal/delivery"
)

// registration is the handle of one handler of one informer.
type registration struct {
	informer *sharedIndexInformer
	listener *delivery.Listener
	synced   atomic.Bool

	checkerOnce sync.Once
	checker     *registrationChecker
}

// HasSyncedChecker returns a DoneChecker for HasSynced.
func (r *registration) HasSyncedChecker() DoneChecker {
	r.checkerOnce.Do(func() {
		name := r.informer.name
		if r.listener.Name() != "" {
			name += "/" + r.listener.Name()
		}
		r.checker = &registrationChecker{r: r, name: name, done: make(chan struct{})}
	})
	return r.checker
}

// registrationChecker is a handler's DoneChecker. Its first Done call,
// once the informer runs (or when Run starts, if it is asked for
// earlier), starts one goroutine that waits for the informer to sync,
// then for the listener to have delivered its initial adds
// (Listener.InitialZero), and closes done; it ends then or when the
// informer stops. Before Run, nothing waits. One per registration, so
// that one goroutine receives the listener's signals.
type registrationChecker struct {
	r    *registration
	name string
	once sync.Once
	done chan struct{}
}

func (c *registrationChecker) Name() string { return c.name }

func (c *registrationChecker) Done() <-chan struct{} {
	c.once.Do(func() {
		if c.r.HasSynced() {
			close(c.done)
			return
		}
		inf := c.r.informer
		inf.mu.Lock()
		defer inf.mu.Unlock()
		if !inf.started {
			inf.waitingCheckers = append(inf.waitingCheckers, c)
			return
		}
		go c.wait()
	})
	return c.done
}

func (c *registrationChecker) wait() {
	inf := c.r.informer
	select {
	case <-inf.syncedCh:
	case <-inf.stoppedCh:
		return
	}
	for !c.r.HasSynced() {
		select {
		case <-c.r.listener.InitialZero():
		case <-inf.stoppedCh:
			if !c.r.HasSynced() {
				return
			}
		}
	}
	close(c.done)
}

// HasSynced is true once the handler has been handed its initial list.
func (r *registration) HasSynced() bool {
	if r.synced.Load() {
		return true
	}
	if r.listener.InitialPending() != 0 || !r.informer.HasSynced() {
		return false
	}
	// Re-read: the informer may have synced while initial adds were still
	// being queued to this listener.
	if r.listener.InitialPending() != 0 {
		return false
	}
	r.synced.Store(true)
	return true
}
