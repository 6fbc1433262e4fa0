package cache

import (
	"context"
	"slices"

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

// closedChecker is a DoneChecker whose channel its owner closes when the
// activity completes (a DeltaFIFO's or an informer's sync): nothing polls.
type closedChecker struct {
	name string
	ch   <-chan struct{}
}

func (c closedChecker) Name() string { return c.name }

func (c closedChecker) Done() <-chan struct{} { return c.ch }

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
