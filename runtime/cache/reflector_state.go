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
//	watchList  (other)      list         yes     -         =
//	watch      closed       watch        -       -         =
//	watch      closedEarly  watch        -       yes       +1
//	watch      veryShort    watch        yes     yes       +1
//	watch      idle         watch        yes     -         =
//	watch      transient    watch        yes     yes       +1
//	watch      expired      relist       yes     -         =         position expired; resumed
//	watch      expired      relist       yes     yes       +1        position expired; listed
//	watch      (other)      relist       yes     yes       +1
//
// relist is watchList when watch lists are enabled and not turned off,
// else list. A step that ended healthy (a watch that delivered a change,
// or lived healthyWatch) first sets failures to 0: the back-off
// starts over after a healthy period, and a fault right after one is
// retried within firstBackoff (backoff.go). A list or watch list that was
// stored clears the position's expiry; it does not reset failures, so a
// server that fails every watch after a good list still sees the back-off
// grow.
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
	// endFailed: any other failure.
	endFailed
)

var endingNames = [...]string{endStopped: "stopped", endStored: "stored", endClosed: "closed",
	endClosedEarly: "closedEarly", endVeryShort: "veryShort", endIdle: "idle", endTransient: "transient",
	endExpired: "expired", endUnsupported: "unsupported", endFailed: "failed"}

func (e ending) String() string { return endingNames[e] }

// outcome is the result of one step: how it ended, whether it was a
// healthy period, the error to report, and the watch a watch list leaves
// open for the watch phase.
type outcome struct {
	end     ending
	healthy bool
	err     error
	w       watch.Interface
}

// effect is what the reflector does between two steps.
type effect struct {
	report  bool // pass the step's error to the watch error handler
	backoff bool // wait the back-off of the new state's failures
}

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
	// watchList is set while relists stream over a watch: the reflector
	// was asked to and the server has not shown it cannot.
	watchList bool
	// listed is set while the position is the one of the last list or
	// watch list stored: no watch has delivered a change since.
	listed bool
}

// relist is the phase that refills the store.
func (s state) relist() phase {
	if s.watchList {
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
	s.phase = s.relist()
	s.failures++
	return s, effect{report: true, backoff: true}
}

func (s state) afterWatchList(o outcome) (state, effect) {
	switch o.end {
	case endStored:
		s.phase, s.expired, s.listed, s.w = phaseWatch, false, true, o.w
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
	case endClosedEarly:
		s.failures++
		return s, effect{backoff: true}
	case endVeryShort, endTransient:
		s.failures++
		return s, effect{report: true, backoff: true}
	case endExpired:
		s.expired = true
		if !s.listed {
			s.phase = s.relist()
			return s, effect{report: true}
		}
	}
	s.phase = s.relist()
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
	case err == nil && (got.changes > 0 || lived >= veryShortWatch):
		return endClosed
	case err == nil && got.events > 0:
		return endClosedEarly
	case err == nil, errors.Is(err, errVeryShortWatch):
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
	case errors.Is(err, errNoInitialEventsEnd), apierrors.IsBadRequest(err),
		apierrors.IsInvalid(err), apierrors.IsMethodNotSupported(err):
		return endUnsupported
	}
	return errorEnding(err)
}
