package cache

import (
	"context"
	"slices"
	"sync"
	"time"

	"k8s.io/klog/v2"
)

// DoneChecker is something to wait for, with a name to report while
// waiting. Implementations are safe for concurrent use.
type DoneChecker interface {
	// Name describes what is waited for; it may be computed, so call it
	// outside hot paths.
	Name() string
	// Done returns a channel closed once the activity completed. It is
	// the same channel on every call.
	Done() <-chan struct{}
}

// IsDone reports, without blocking, whether checker is done.
func IsDone(checker DoneChecker) bool {
	select {
	case <-checker.Done():
		return true
	default:
		return false
	}
}

// WaitFor waits until every checker is done or ctx ends, and reports
// whether all are done. When what is not empty it logs (with
// klog.FromContext(ctx)) what it waits for, each checker as it is done and
// the ones it gave up on.
func WaitFor(ctx context.Context, what string, checkers ...DoneChecker) bool {
	logger := klog.FromContext(ctx)
	if what != "" {
		logger.Info("Waiting", "for", what)
	}
	var pending []string
	for _, c := range checkers {
		select {
		case <-c.Done():
		case <-ctx.Done():
			if !IsDone(c) {
				pending = append(pending, c.Name())
				continue
			}
		}
		if what != "" {
			logger.Info("Done waiting", "for", what, "instance", c.Name())
		}
	}
	if len(pending) > 0 {
		if what != "" {
			slices.Sort(pending)
			logger.Info("Timed out waiting", "for", what, "cause", context.Cause(ctx), "instances", pending)
		}
		return false
	}
	return true
}

// pollingDoneChecker turns a condition that only becomes true once (an
// informer's or a handler's HasSynced) into a DoneChecker. The first Done
// call starts one goroutine that checks the condition every
// syncPollPeriod and closes the channel when it holds; the goroutine also
// ends when abandon is closed (the informer stopped). A checker whose
// condition never holds and whose informer never runs keeps its goroutine:
// ask for checkers of informers that run.
type pollingDoneChecker struct {
	name    string
	cond    func() bool
	abandon <-chan struct{}

	once sync.Once
	done chan struct{}
}

func newPollingDoneChecker(name string, cond func() bool, abandon <-chan struct{}) *pollingDoneChecker {
	return &pollingDoneChecker{name: name, cond: cond, abandon: abandon, done: make(chan struct{})}
}

func (c *pollingDoneChecker) Name() string { return c.name }

func (c *pollingDoneChecker) Done() <-chan struct{} {
	c.once.Do(func() {
		if c.cond() {
			close(c.done)
			return
		}
		go c.poll()
	})
	return c.done
}

func (c *pollingDoneChecker) poll() {
	t := time.NewTicker(syncPollPeriod)
	defer t.Stop()
	for {
		select {
		case <-c.abandon:
			if c.cond() {
				close(c.done)
			}
			return
		case <-t.C:
			if c.cond() {
				close(c.done)
				return
			}
		}
	}
}

// Controller is the interface of client-go's low-level informer
// controller. Here it only appears as the view SharedInformer.GetController
// returns. Implementations are safe for concurrent use.
type Controller interface {
	// RunWithContext runs the controller until ctx is done.
	RunWithContext(ctx context.Context)
	// Run runs the controller until stopCh is closed.
	Run(stopCh <-chan struct{})
	// HasSynced reports whether the initial list was processed.
	HasSynced() bool
	// HasSyncedChecker returns a DoneChecker for HasSynced.
	HasSyncedChecker() DoneChecker
	// LastSyncResourceVersion is the resourceVersion last observed.
	LastSyncResourceVersion() string
}

// informerController is the Controller view of a shared informer: running
// is the informer's business, so its Run methods do nothing.
type informerController struct {
	informer *sharedIndexInformer
}

func (c informerController) RunWithContext(context.Context) {}
func (c informerController) Run(<-chan struct{})            {}
func (c informerController) HasSynced() bool                { return c.informer.HasSynced() }
func (c informerController) HasSyncedChecker() DoneChecker  { return c.informer.HasSyncedChecker() }
func (c informerController) LastSyncResourceVersion() string {
	return c.informer.LastSyncResourceVersion()
}
