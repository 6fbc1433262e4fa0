package reflector

import (
	"context"
	"fmt"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/watch"
)

// MaxBurst is the most watch events consume handles in one burst: events
// already waiting in the result channel are handled back to back, and
// the per-burst work (reading the clock, publishing the resourceVersion,
// checking ctx) is done once per burst.
const MaxBurst = 256

// tally is what one watch delivered.
type tally struct {
	// events counts the events handled, bookmarks included.
	events int
	// changes counts the Added, Modified and Deleted events that moved
	// the position (not those of a replay from "" or "0"). Each is a
	// write on the server: a watch that delivered one made progress
	// that a server cannot fake by closing watches in a loop.
	changes int
}

// consume applies the events of w to the store until w closes, fails, stays
// idle for IdleTimeout, or ctx is done; it always stops w. replaying is
// set for a watch started at "" or "0", which first replays the current
// state as synthetic Added events in no resourceVersion order: their
// resourceVersions are no position, so tracking starts at the first event
// of another type.
// It returns what the watch delivered and why it stopped (nil for a clean
// close after start + VeryShortWatch or after an event).
//
// Events are handled in bursts: after waiting for one event, consume also
// handles, without waiting, those already queued behind it (up to
// MaxBurst). The time of the burst's first event stands for the whole
// burst in the idle check, and LastSyncResourceVersion moves once per
// burst, to the burst's last resourceVersion (at once for bookmarks, and
// before consume returns).
func (r *Engine) consume(ctx context.Context, w watch.Interface, start time.Time, replaying bool) (tally, error) {
	defer w.Stop()
	idle := r.cfg.Clock.NewTimer(r.cfg.IdleTimeout)
	defer idle.Stop()
	b := &burst{r: r, ctx: ctx, results: w.ResultChan(), replaying: replaying}
	lastEvent := r.cfg.Clock.Now()
	for {
		select {
		case <-ctx.Done():
			return b.tally, ctx.Err()
		case <-r.shardChanged:
			return b.tally, fmt.Errorf("%s: %w", r.cfg.Name, errReshard)
		case <-r.run.Relist:
			return b.tally, fmt.Errorf("%s: %w", r.cfg.Name, errRelistRequested)
		case <-idle.C():
			// The timer is armed for the idle timeout after the event seen
			// when it was last armed; re-arm it for the time left since.
			if left := r.cfg.IdleTimeout - r.cfg.Clock.Since(lastEvent); left > 0 {
				idle.Reset(left)
				continue
			}
			return b.tally, fmt.Errorf("%s: %w", r.cfg.Name, ErrWatchIdle)
		case ev, ok := <-b.results:
			lastEvent = r.cfg.Clock.Now()
			if done, err := b.handle(ev, ok); done {
				if err == nil && b.tally.events == 0 && r.cfg.Clock.Since(start) < VeryShortWatch {
					err = &VeryShortWatchError{Name: r.cfg.Name}
				}
				return b.tally, err
			}
		}
	}
}

// burst handles the events of one watch, a burst at a time. It is used by
// the Run goroutine only, within one consume.
type burst struct {
	r         *Engine
	ctx       context.Context
	results   <-chan watch.Event
	replaying bool // still in the replay of a watch from "" or "0"
	tally     tally

	rv      string // the burst's last resourceVersion
	pending bool   // rv is not yet published
}

// handle handles ev (ok false: the watch closed) and the events queued
// behind it, up to MaxBurst, then publishes the burst's resourceVersion.
// It returns true when the watch ended, with the error it ended with.
func (b *burst) handle(ev watch.Event, ok bool) (bool, error) {
	defer b.publish()
	for n := 1; ; n++ {
		if !ok {
			return true, nil
		}
		if ev.Type == watch.Error {
			return true, fmt.Errorf("%s: watch event: %w", b.r.cfg.Name, apierrors.FromObject(ev.Object))
		}
		b.apply(ev)
		if n == MaxBurst {
			return false, nil
		}
		select {
		case ev, ok = <-b.results:
		default:
			return false, nil
		}
	}
}

// apply writes one event to the store and tracks its resourceVersion.
func (b *burst) apply(ev watch.Event) {
	b.tally.events++
	evRV, applied := b.r.storeEvent(b.ctx, ev, b.r.sink)
	if !applied {
		return
	}
	if ev.Type != watch.Added {
		b.replaying = false
	}
	// An event without a resourceVersion (a bookmark of a server that
	// sends none) says nothing of the position.
	if b.replaying || evRV == "" {
		return
	}
	b.rv, b.pending = evRV, true
	if ev.Type != watch.Bookmark {
		b.tally.changes++
	}
	if b.r.sink.TracksResourceVersion() {
		// As client-go: the store hears of every resourceVersion the
		// position moves to, after LastSyncResourceVersion moved.
		b.publish()
		b.r.sink.UpdateResourceVersion(evRV)
	}
}

// publish makes the burst's resourceVersion the LastSyncResourceVersion
// when it is pending.
func (b *burst) publish() {
	if b.pending {
		b.r.setLastSyncResourceVersion(b.rv)
		b.pending = false
	}
}
