package measure

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/informer-gen/informer-gen/bench/internal/subject"
)

// pollInterval is how often conditions without a channel are checked.
const pollInterval = 100 * time.Microsecond

// running is an informer whose Run is in progress.
type running struct {
	inf    subject.Informer
	cancel context.CancelFunc
	done   chan struct{}
}

// start runs inf until stop is called or ctx is done.
func start(ctx context.Context, inf subject.Informer) *running {
	ctx, cancel := context.WithCancel(ctx)
	r := &running{inf: inf, cancel: cancel, done: make(chan struct{})}
	go func() {
		defer close(r.done)
		inf.Run(ctx)
	}()
	return r
}

// stop cancels the informer and waits for Run to return.
func (r *running) stop() {
	r.cancel()
	<-r.done
}

// waitFor polls cond until it holds or ctx is done.
func waitFor(ctx context.Context, what string, cond func() bool) error {
	if cond() {
		return nil
	}
	tick := time.NewTicker(pollInterval)
	defer tick.Stop()
	for !cond() {
		select {
		case <-ctx.Done():
			return fmt.Errorf("waiting for %s: %w", what, context.Cause(ctx))
		case <-tick.C:
		}
	}
	return nil
}

// waitClosed waits for ch to be closed or ctx to be done.
func waitClosed(ctx context.Context, what string, ch <-chan struct{}) error {
	select {
	case <-ch:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("waiting for %s: %w", what, context.Cause(ctx))
	}
}

// allSynced is true when every function is.
func allSynced(synced []func() bool) func() bool {
	return func() bool {
		for _, s := range synced {
			if !s() {
				return false
			}
		}
		return true
	}
}

// errFinalState reports a handler that did not end with the final state.
var errFinalState = errors.New("a handler did not end with the final state of every object")
