package measure

import (
	"context"
	"runtime"
	"time"

	"github.com/informer-gen/informer-gen/bench/internal/source"
	"github.com/informer-gen/informer-gen/bench/internal/subject"
)

// Sync returns the time from Run until HasSynced for an informer with one
// handler listing in.List. Building the list is not timed.
func Sync(ctx context.Context, in *Input, subj subject.Subject) (time.Duration, error) {
	inf := subj.New(source.New(in.List, nil))
	if _, err := inf.AddHandler(newTracker(in, nil).handler()); err != nil {
		return 0, err
	}
	runtime.GC()
	end := timed(subj.Name + "-sync")
	t0 := time.Now()
	r := start(ctx, inf)
	defer r.stop()
	err := waitFor(ctx, "HasSynced", inf.HasSynced)
	elapsed := time.Since(t0)
	end()
	if err != nil {
		return 0, err
	}
	return elapsed, nil
}
