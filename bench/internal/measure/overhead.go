package measure

import (
	"context"
	"runtime"

	"github.com/informer-gen/informer-gen/bench/internal/source"
	"github.com/informer-gen/informer-gen/bench/internal/subject"
)

// Overhead returns the heap bytes per cached object beyond the object
// itself: the live heap of a synced informer with one handler (that has
// received its initial list), minus the heap before it existed, minus
// in.ObjectBytes per object, divided by the number of objects.
func Overhead(ctx context.Context, in *Input, subj subject.Subject) (float64, error) {
	src := source.New(in.List, nil)
	before := heapAlloc()
	inf := subj.New(src)
	synced, err := inf.AddHandler(newTracker(in, nil).handler())
	if err != nil {
		return 0, err
	}
	r := start(ctx, inf)
	defer r.stop()
	if err := waitFor(ctx, "synced", allSynced([]func() bool{inf.HasSynced, synced})); err != nil {
		return 0, err
	}
	after := heapAlloc()
	peak(subj.Name + "-overhead")
	runtime.KeepAlive(inf)
	n := float64(in.Config.Objects)
	return (float64(after-before) - in.ObjectBytes*n) / n, nil
}
