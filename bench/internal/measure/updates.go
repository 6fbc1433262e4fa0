package measure

import (
	"context"
	"fmt"
	"runtime"
	"time"

	"github.com/informer-gen/informer-gen/bench/internal/source"
	"github.com/informer-gen/informer-gen/bench/internal/subject"
)

// UpdatesResult is the outcome of one Updates run.
type UpdatesResult struct {
	// Elapsed is the time from the first update sent until every handler
	// saw the last version of every object.
	Elapsed time.Duration
	// EventsPerSec is the number of updates sent divided by Elapsed.
	EventsPerSec float64
	// Calls is the number of OnUpdate calls each handler received (fewer
	// than the updates sent when an implementation coalesces for a handler
	// that lags).
	Calls []int64
}

// Updates syncs an informer with handlers handlers, then feeds
// in.Config.Updates update events and times their delivery. It fails
// unless every handler ends with the final state of every object.
func Updates(ctx context.Context, in *Input, subj subject.Subject, handlers int) (UpdatesResult, error) {
	src := source.New(in.List, in.Config.Events())
	inf := subj.New(src)
	trackers := make([]*tracker, handlers)
	synced := make([]func() bool, handlers)
	for i := range trackers {
		trackers[i] = newTracker(in, nil)
		s, err := inf.AddHandler(trackers[i].handler())
		if err != nil {
			return UpdatesResult{}, err
		}
		synced[i] = s
	}
	r := start(ctx, inf)
	defer r.stop()
	if err := waitFor(ctx, "handlers synced", allSynced(append(synced, inf.HasSynced))); err != nil {
		return UpdatesResult{}, err
	}
	if err := src.WaitWatching(ctx); err != nil {
		return UpdatesResult{}, err
	}
	runtime.GC()
	end := timed(fmt.Sprintf("%s-updates%d", subj.Name, handlers))
	t0 := src.Start()
	for i, t := range trackers {
		if err := waitClosed(ctx, fmt.Sprintf("handler %d to see every update", i), t.done); err != nil {
			end()
			return UpdatesResult{}, err
		}
	}
	elapsed := time.Since(t0)
	end()
	res := UpdatesResult{
		Elapsed:      elapsed,
		EventsPerSec: float64(in.Config.Updates) / elapsed.Seconds(),
		Calls:        make([]int64, handlers),
	}
	for i, t := range trackers {
		res.Calls[i] = t.updates.Load()
		if !t.finalStateOK() {
			return res, fmt.Errorf("handler %d: %w", i, errFinalState)
		}
	}
	return res, nil
}
