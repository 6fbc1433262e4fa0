package measure

import (
	"context"
	"fmt"

	"github.com/informer-gen/informer-gen/bench/internal/source"
	"github.com/informer-gen/informer-gen/bench/internal/subject"
)

// StalledResult is the outcome of one Stalled run.
type StalledResult struct {
	// Growth is the live heap once a healthy handler has seen every
	// update while the other handler is still stalled, minus the live heap
	// once the stalled handler, released, has caught up: both states hold
	// the same cache, so Growth is what the stall alone keeps alive. Sent
	// objects are kept alive only by the informer, so Growth counts both
	// the informer's bookkeeping for the stalled handler and the object
	// versions it retains for it.
	Growth int64
	// FinalOK is true when, after the stalled handler was released, both
	// handlers ended with the final state of every object.
	FinalOK bool
	// StalledCalls is the number of OnUpdate calls the stalled handler
	// received in all.
	StalledCalls int64
	// NilOldCalls is how many of those came without the old object: merged
	// updates of a LatestOnly handler (subject.OursLatestOnly); zero for
	// the other subjects.
	NilOldCalls int64
}

// Stalled syncs an informer with a healthy handler and one that blocks in
// its first OnUpdate, feeds in.Config.Updates updates, takes the live heap
// once the healthy handler has seen them all, then releases the stalled
// handler, checks that both end with the final state and takes the live
// heap again.
func Stalled(ctx context.Context, in *Input, subj subject.Subject) (StalledResult, error) {
	src := source.New(in.List, nil)
	inf := subj.New(src)
	release := make(chan struct{})
	released := false
	defer func() {
		if !released {
			close(release)
		}
	}()
	healthy, stalled := newTracker(in, nil), newTracker(in, release)
	s1, err := inf.AddHandler(healthy.handler())
	if err != nil {
		return StalledResult{}, err
	}
	s2, err := inf.AddHandler(stalled.handler())
	if err != nil {
		return StalledResult{}, err
	}
	r := start(ctx, inf)
	defer r.stop()
	if err := waitFor(ctx, "handlers synced", allSynced([]func() bool{inf.HasSynced, s1, s2})); err != nil {
		return StalledResult{}, err
	}
	if err := src.WaitWatching(ctx); err != nil {
		return StalledResult{}, err
	}
	src.SetEvents(in.Config.Events())
	src.Start()
	if err := waitClosed(ctx, "the healthy handler to see every update", healthy.done); err != nil {
		return StalledResult{}, err
	}
	during := heapAlloc()
	peak(subj.Name + "-stalled")
	released = true
	close(release)
	if err := waitClosed(ctx, "the released handler to see every update", stalled.done); err != nil {
		return StalledResult{}, err
	}
	res := StalledResult{Growth: during - heapAlloc()}
	res.StalledCalls = stalled.updates.Load()
	res.NilOldCalls = stalled.nilOld.Load() + healthy.nilOld.Load()
	res.FinalOK = healthy.finalStateOK() && stalled.finalStateOK()
	if !res.FinalOK {
		return res, fmt.Errorf("stalled: %w", errFinalState)
	}
	return res, nil
}
