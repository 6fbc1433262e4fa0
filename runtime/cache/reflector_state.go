package cache

import (
	"errors"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/watch"
)

// The reflector's protocol is one state value and one step function, as
// kube-rs's watcher keeps it: Reflector.step carries out the state's phase
// (a list, a watch list, or a watch) and says how it ended; state.next
// decides, from that ending alone, the next state and what to do before
// the next step (report the error, wait the back-off). The table below is
// state.next, row for row; TestReflectorStateTable drives it.
//
//	phase      ending       next phase   report  back off  failures  note
//	list       stored       watch        -       -         =
//	list       (any error)  relist       yes     yes       +1
//	watchList  stored       watch        -       -         =         the watch stays open
//	watchList  transient    watchList    yes     yes       +1
//	watchList  expired      list         -       -         =         position expired
//	watchList  unsupported  list         yes     -         =         watch lists off
//	watchList  stalled      list         yes     -         =         1st or 2nd in a row
//	watchList  stalled      list         yes     -         =         3rd in a row: watch lists off for a while
//	watchList  (other)      list         yes     -         =
//	watch      closed       watch        -       -         =
//	watch      closedEarly  watch        -       yes       +1
//	watch      veryShort    watch        yes     yes       +1
//	watch      idle         watch        yes     -         =
//	watch      reshard      relist       -       -         =         the shard changed
//	watch      narrowed     watch        -       -         =         the shard narrowed: pruned, no list
//	watch      transient    watch        yes     yes       +1
//	watch      expired      relist       yes     -         =         position expired; resumed
//	watch      expired      relist       yes     yes       +1        position expired; listed
//	watch      (other)      relist       yes     yes       +1
//
// relist is watchList when watch lists are enabled and not turned off,
// else list. A watch list that stalls (no event for
// WatchListProgressTimeout before its initial-events-end bookmark) or
// whose stream closes before the bookmark falls back to LIST for that
// attempt; the third in a row turns watch lists off for
// watchListRetryAfter (a proxy or aggregated API that drops the bookmark
// would otherwise cost every relist the progress timeout), after which
// they are tried again. A step that ended healthy (a watch that delivered a change,
// or lived healthyWatch) first sets failures to 0: the back-off
// starts over after a healthy period, and a fault right after one is
// retried within firstBackoff (backoff.go). A list or watch list that was
// stored clears the position's expiry; it does not reset failures, so a
// server that fails every watch after a good list still sees the back-off
// grow.
//
// A watch whose shard changed (ReflectorOptions.Shard: the subscription's
// channel closed) ends with reshard, before it opens or while it runs;
// the relist under the new shard follows at once, from the position, and
// is no failure. When the new shard is within the old one (ShardNarrowing)
// and the store can prune (the DeltaFIFO), the watch ends with narrowed
// instead: the objects outside the new shard are queued as tombstones and
// the next watch, from the position, carries the new selector; nothing
// is listed. Every list and watch list takes the subscription's
// current shard; a watch keeps the shard of the list it follows.
//
// A watch that resumed from a position a watch reached (resumed) and ends
// with 410 Gone is the normal end of a long disconnection: the server
// compacted past it, and the relist follows at once. A watch from the
// position of the list just stored (listed) ending so is not: the relist
// backs off, so a server answering every watch with 410 is relisted at a
// back-off's pace, however healthy its lists.

// phase is what the reflector's next step does.
type phase uint8

const (
	// phaseList lists the collection page by page and replaces the
	// store's content with it.
	phaseList phase = iota
	// phaseWatchList streams the collection over a watch
	// (sendInitialEvents) and replaces the store's content with it.
	phaseWatchList
	// phaseWatch watches from the position, applying events to the
	// store (consuming first the watch a watch list left open).
	phaseWatch
)

var phaseNames = [...]string{phaseList: "list", phaseWatchList: "watchList", phaseWatch: "watch"}

func (p phase) String() string { return phaseNames[p] }

// ending is how a step ended: the vocabulary of the transition table.
type ending uint8

const (
	// endStopped: the context ended; the reflector stops.
	endStopped ending = iota
	// endStored: the list or watch list is in the store.
	endStored
	// endClosed: the server closed the watch cleanly after it lived
	// veryShortWatch or delivered a change.
	endClosed
	// endClosedEarly: the server closed the watch cleanly sooner, after
	// events but no change (bookmarks: a hot loop, if re-watched at
	// once).
	endClosedEarly
	// endVeryShort: the server closed the watch sooner, with nothing.
	endVeryShort
	// endIdle: the watch delivered nothing for IdleTimeout.
	endIdle
	// endTransient: a failure after which the same request can succeed
	// once the server recovers (connection refused or cut, 429, 5xx,
	// timeouts).
	endTransient
	// endExpired: the server no longer serves the position (410 Gone) or
	// has not reached it (too large resourceVersion).
	endExpired
	// endUnsupported: the server does not support watch lists.
	endUnsupported
	// endStalled: a watch list stalled or its stream closed before the
	// initial-events-end bookmark.
	endStalled
	// endFailed: any other failure.
	endFailed
	// endReshard: the shard changed (ReflectorOptions.Shard): the watch
	// ended so that the reflector relists under the new shard.
	endReshard
	// endNarrowed: the shard changed to one within it: the store pruned
	// the objects outside the new shard, and the reflector watches again
	// under it, from the position.
	endNarrowed
)

var endingNames = [...]string{endStopped: "stopped", endStored: "stored", endClosed: "closed",
	endClosedEarly: "closedEarly", endVeryShort: "veryShort", endIdle: "idle", endTransient: "transient",
	endExpired: "expired", endUnsupported: "unsupported", endStalled: "stalled", endFailed: "failed",
	endReshard: "reshard", endNarrowed: "narrowed"}

func (e ending) String() string { return endingNames[e] }

// outcome is the result of one step: how it ended, when, whether it was
// a healthy period, the error to report, and the watch a watch list
// leaves open for the watch phase.
type outcome struct {
	end     ending
	at      time.Time
	healthy bool
	err     error
	w       watch.Interface
}

// effect is what the reflector does between two steps.
type effect struct {
	report  bool // pass the step's error to the watch error handler
	backoff bool // wait the back-off of the new state's failures
	// watchListsOff: watch lists were just turned off for
	// watchListRetryAfter; the reflector logs it.
	watchListsOff bool
}

// Watch lists that stall are given up for a while after watchListMaxStalls
// in a row; see the table.
const (
	watchListMaxStalls  = 3
	watchListRetryAfter = 30 * time.Minute
)

// state is the reflector's protocol state between two steps. The
// resourceVersion of the position is not here: LastSyncResourceVersion
// reads it from other goroutines, so the Run goroutine publishes it in
// Reflector.rv as a watch moves it. Everything here is owned by the Run
// goroutine.
type state struct {
	phase phase
	// w is the watch a watch list left open, consumed by the next watch
	// step; nil when that step opens its own.
	w watch.Interface
	// failures counts failed steps since the last healthy one; it sets
	// the back-off (backoff.delay).
	failures int
	// expired records that the server no longer serves the position:
	// the next list or watch list is a consistent read (from ""). Cleared
	// once one is stored.
	expired bool
	// watchList is set while relists may stream over a watch: the
	// reflector was asked to and the server has not shown it cannot.
	watchList bool
	// stalls counts the watch lists in a row that stalled or were cut
	// before their initial-events-end bookmark; watchListOffUntil is when
	// watch lists are tried again after watchListMaxStalls of them.
	stalls            int
	watchListOffUntil time.Time
	// listed is set while the position is the one of the last list or
	// watch list stored: no watch has delivered a change since.
	listed bool
}

// streaming reports whether a relist at now streams over a watch.
func (s state) streaming(now time.Time) bool {
	return s.watchList && !now.Before(s.watchListOffUntil)
}

// relist is the phase that refills the store at now.
func (s state) relist(now time.Time) phase {
	if s.streaming(now) {
		return phaseWatchList
	}
	return phaseList
}

// next is the transition table: the state after a step of s that ended
// with o, and what to do before the next step.
func (s state) next(o outcome) (state, effect) {
	s.w = nil
	if o.healthy {
		s.failures, s.listed = 0, false
	}
	switch s.phase {
	case phaseList:
		return s.afterList(o)
	case phaseWatchList:
		return s.afterWatchList(o)
	}
	return s.afterWatch(o)
}

func (s state) afterList(o outcome) (state, effect) {
	if o.end == endStored {
		s.phase, s.expired, s.listed = phaseWatch, false, true
		return s, effect{}
	}
	s.phase = s.relist(o.at)
	s.failures++
	return s, effect{report: true, backoff: true}
}

func (s state) afterWatchList(o outcome) (state, effect) {
	switch o.end {
	case endStored:
		s.phase, s.expired, s.listed, s.w, s.stalls = phaseWatch, false, true, o.w, 0
		return s, effect{}
	case endTransient:
		s.failures++
		return s, effect{report: true, backoff: true}
	case endExpired:
		// A LIST from "", not another watch list: a server answering
		// every watch list so would be hit in a hot loop.
		s.phase, s.expired = phaseList, true
		return s, effect{}
	case endUnsupported:
		s.phase, s.watchList = phaseList, false
		return s, effect{report: true}
	case endStalled:
		s.phase = phaseList
		if s.stalls++; s.stalls < watchListMaxStalls {
			return s, effect{report: true}
		}
		s.stalls, s.watchListOffUntil = 0, o.at.Add(watchListRetryAfter)
		return s, effect{report: true, watchListsOff: true}
	}
	s.phase = phaseList
	return s, effect{report: true}
}

func (s state) afterWatch(o outcome) (state, effect) {
	switch o.end {
	case endClosed:
		return s, effect{}
	case endIdle:
		return s, effect{report: true}
	case endReshard:
		s.phase = s.relist(o.at)
		return s, effect{}
	case endNarrowed:
		return s, effect{}
	case endClosedEarly:
		s.failures++
		return s, effect{backoff: true}
	case endVeryShort, endTransient:
		s.failures++
		return s, effect{report: true, backoff: true}
	case endExpired:
		s.expired = true
		if !s.listed {
			s.phase = s.relist(o.at)
			return s, effect{report: true}
		}
	}
	s.phase = s.relist(o.at)
	s.failures++
	return s, effect{report: true, backoff: true}
}

// listFrom is the resourceVersion of a list from position rv: "0" for
// the first one (servable from the watch cache), "" once the position
// expired (a consistent read, never older than what was seen), else rv (a
// list not older than it).
func (s state) listFrom(rv string) string {
	switch {
	case s.expired:
		return ""
	case rv == "":
		return "0"
	}
	return rv
}

// watchListFrom is the resourceVersion a watch list from position rv
// starts from.
func (s state) watchListFrom(rv string) string {
	if s.expired {
		return ""
	}
	return rv
}

// healthyWatch is how long a watch must live to count as a healthy period
// even if it never moved the position (a quiet collection).
const healthyWatch = time.Minute

// watchEnding classifies how a watch ended: err is what consume returned
// (nil for a clean close), lived how long it was open, got what it
// delivered.
func watchEnding(err error, lived time.Duration, got tally) ending {
	switch {
	case errors.Is(err, errReshard):
		return endReshard
	case err == nil && (got.changes > 0 || lived >= veryShortWatch):
		return endClosed
	case err == nil && got.events > 0:
		return endClosedEarly
	case err == nil, isVeryShortWatch(err):
		return endVeryShort
	case errors.Is(err, errWatchIdle):
		return endIdle
	}
	return errorEnding(err)
}

// errorEnding classifies a failed request.
func errorEnding(err error) ending {
	switch {
	case isExpiredError(err), isTooLargeResourceVersionError(err):
		return endExpired
	case isRetriableWatchError(err):
		return endTransient
	}
	return endFailed
}

// watchListEnding classifies how a watch list ended.
func watchListEnding(err error) ending {
	switch {
	case err == nil:
		return endStored
	case errors.Is(err, errWatchListStalled), errors.Is(err, errInitialEventsCut):
		return endStalled
	case errors.Is(err, errNoInitialEventsEnd), apierrors.IsBadRequest(err),
		apierrors.IsInvalid(err), apierrors.IsMethodNotSupported(err):
		return endUnsupported
	}
	return errorEnding(err)
}
