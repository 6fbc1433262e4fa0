package protocol

import (
	"time"

	"k8s.io/apimachinery/pkg/watch"
)

// The reflector's protocol is one state value and one step function, as
// kube-rs's watcher keeps it: internal/reflector's Engine.step carries out the state's phase
// (a list, a watch list, or a watch) and says how it ended; State.Next
// decides, from that ending alone, the next state and what to do before
// the next step (report the error, wait the back-off). The table below is
// State.Next, row for row; TestReflectorStateTable drives it.
//
//	phase      ending       next phase   report  back off  failures  note
//	list       stored       watch        -       -         =
//	list       reshard      relist       -       -         =         cut short: the shard changed
//	list       (any error)  relist       yes     yes       +1
//	watchList  stored       watch        -       -         =         the watch stays open
//	watchList  transient    watchList    yes     yes       +1
//	watchList  reshard      relist       -       -         =         cut short: the shard changed
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
// WatchListRetryAfter (a proxy or aggregated API that drops the bookmark
// would otherwise cost every relist the progress timeout), after which
// they are tried again. A step that ended healthy (a watch that delivered a change,
// or lived healthyWatch) first sets failures to 0: the back-off
// starts over after a healthy period, and a fault right after one is
// retried within FirstBackoff (internal/reflector/backoff.go). A list or watch list that was
// stored clears the position's expiry; it does not reset failures, so a
// server that fails every watch after a good list still sees the back-off
// grow.
//
// A watch whose shard changed (ReflectorOptions.Shard: the subscription's
// channel closed) ends with reshard, before it opens or while it runs;
// the relist under the new shard follows at once, from the position, and
// is no failure. So does a list or watch list under way when the shard
// changes: its request is cut short (the reflector's requests run in a
// context that ends with their shard), so that a server slow to answer
// never keeps a reflector from a new shard. When the new shard is within the old one (ShardNarrowing)
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

// Phase is what the reflector's next step does.
type Phase uint8

const (
	// PhaseList lists the collection page by page and replaces the
	// store's content with it.
	PhaseList Phase = iota
	// PhaseWatchList streams the collection over a watch
	// (sendInitialEvents) and replaces the store's content with it.
	PhaseWatchList
	// PhaseWatch watches from the position, applying events to the
	// store (consuming first the watch a watch list left open).
	PhaseWatch
)

var phaseNames = [...]string{PhaseList: "list", PhaseWatchList: "watchList", PhaseWatch: "watch"}

func (p Phase) String() string { return phaseNames[p] }

// Ending is how a step ended: the vocabulary of the transition table.
type Ending uint8

const (
	// EndStopped: the context ended; the reflector stops.
	EndStopped Ending = iota
	// EndStored: the list or watch list is in the store.
	EndStored
	// EndClosed: the server closed the watch cleanly after it lived
	// veryShortWatch or delivered a change.
	EndClosed
	// EndClosedEarly: the server closed the watch cleanly sooner, after
	// events but no change (bookmarks: a hot loop, if re-watched at
	// once).
	EndClosedEarly
	// EndVeryShort: the server closed the watch sooner, with nothing.
	EndVeryShort
	// EndIdle: the watch delivered nothing for IdleTimeout.
	EndIdle
	// EndTransient: a failure after which the same request can succeed
	// once the server recovers (connection refused or cut, 429, 5xx,
	// timeouts).
	EndTransient
	// EndExpired: the server no longer serves the position (410 Gone) or
	// has not reached it (too large resourceVersion).
	EndExpired
	// EndUnsupported: the server does not support watch lists.
	EndUnsupported
	// EndStalled: a watch list stalled or its stream closed before the
	// initial-events-end bookmark.
	EndStalled
	// EndFailed: any other failure.
	EndFailed
	// EndReshard: the shard changed (ReflectorOptions.Shard): the watch,
	// or the list or watch list under way (cut short), ended so that the
	// reflector relists under the new shard, at once.
	EndReshard
	// EndNarrowed: the shard changed to one within it: the store pruned
	// the objects outside the new shard, and the reflector watches again
	// under it, from the position.
	EndNarrowed
)

var endingNames = [...]string{EndStopped: "stopped", EndStored: "stored", EndClosed: "closed",
	EndClosedEarly: "closedEarly", EndVeryShort: "veryShort", EndIdle: "idle", EndTransient: "transient",
	EndExpired: "expired", EndUnsupported: "unsupported", EndStalled: "stalled", EndFailed: "failed",
	EndReshard: "reshard", EndNarrowed: "narrowed"}

func (e Ending) String() string { return endingNames[e] }

// Outcome is the result of one step: how it ended, when, whether it was
// a healthy period, the error to report, and the watch a watch list
// leaves open for the watch phase.
type Outcome struct {
	End     Ending
	At      time.Time
	Healthy bool
	Err     error
	W       watch.Interface
}

// Effect is what the reflector does between two steps.
type Effect struct {
	Report  bool // pass the step's error to the watch error handler
	Backoff bool // wait the back-off of the new state's Failures
	// WatchListsOff: watch lists were just turned off for
	// WatchListRetryAfter; the reflector logs it.
	WatchListsOff bool
}

// Watch lists that stall are given up for a while after WatchListMaxStalls
// in a row; see the table.
const (
	WatchListMaxStalls  = 3
	WatchListRetryAfter = 30 * time.Minute
)

// State is the reflector's protocol state between two steps. The
// resourceVersion of the position is not here: LastSyncResourceVersion
// reads it from other goroutines, so the Run goroutine publishes it in
// Engine.rv (internal/reflector) as a watch moves it. Everything here is owned by the Run
// goroutine.
type State struct {
	Phase Phase
	// w is the watch a watch list left open, consumed by the next watch
	// step; nil when that step opens its own.
	W watch.Interface
	// failures counts failed steps since the last healthy one; it sets
	// the back-off (backoff.delay).
	Failures int
	// expired records that the server no longer serves the position:
	// the next list or watch list is a consistent read (from ""). Cleared
	// once one is stored.
	Expired bool
	// watchList is set while relists may stream over a watch: the
	// reflector was asked to and the server has not shown it cannot.
	WatchList bool
	// stalls counts the watch lists in a row that stalled or were cut
	// before their initial-events-end bookmark; watchListOffUntil is when
	// watch lists are tried again after WatchListMaxStalls of them.
	Stalls            int
	WatchListOffUntil time.Time
	// listed is set while the position is the one of the last list or
	// watch list stored: no watch has delivered a change since.
	Listed bool
}

// Streaming reports whether a relist at now streams over a watch.
func (s State) Streaming(now time.Time) bool {
	return s.WatchList && !now.Before(s.WatchListOffUntil)
}

// Relist is the phase that refills the store at now.
func (s State) Relist(now time.Time) Phase {
	if s.Streaming(now) {
		return PhaseWatchList
	}
	return PhaseList
}

// Next is the transition table: the state after a step of s that ended
// with o, and what to do before the next step.
func (s State) Next(o Outcome) (State, Effect) {
	s.W = nil
	if o.Healthy {
		s.Failures, s.Listed = 0, false
	}
	switch s.Phase {
	case PhaseList:
		return s.afterList(o)
	case PhaseWatchList:
		return s.afterWatchList(o)
	}
	return s.afterWatch(o)
}

func (s State) afterList(o Outcome) (State, Effect) {
	switch o.End {
	case EndStored:
		s.Phase, s.Expired, s.Listed = PhaseWatch, false, true
		return s, Effect{}
	case EndReshard:
		s.Phase = s.Relist(o.At)
		return s, Effect{}
	}
	s.Phase = s.Relist(o.At)
	s.Failures++
	return s, Effect{Report: true, Backoff: true}
}

func (s State) afterWatchList(o Outcome) (State, Effect) {
	switch o.End {
	case EndStored:
		s.Phase, s.Expired, s.Listed, s.W, s.Stalls = PhaseWatch, false, true, o.W, 0
		return s, Effect{}
	case EndTransient:
		s.Failures++
		return s, Effect{Report: true, Backoff: true}
	case EndReshard:
		s.Phase = s.Relist(o.At)
		return s, Effect{}
	case EndExpired:
		// A LIST from "", not another watch list: a server answering
		// every watch list so would be hit in a hot loop.
		s.Phase, s.Expired = PhaseList, true
		return s, Effect{}
	case EndUnsupported:
		s.Phase, s.WatchList = PhaseList, false
		return s, Effect{Report: true}
	case EndStalled:
		s.Phase = PhaseList
		if s.Stalls++; s.Stalls < WatchListMaxStalls {
			return s, Effect{Report: true}
		}
		s.Stalls, s.WatchListOffUntil = 0, o.At.Add(WatchListRetryAfter)
		return s, Effect{Report: true, WatchListsOff: true}
	}
	s.Phase = PhaseList
	return s, Effect{Report: true}
}

func (s State) afterWatch(o Outcome) (State, Effect) {
	switch o.End {
	case EndClosed:
		return s, Effect{}
	case EndIdle:
		return s, Effect{Report: true}
	case EndReshard:
		s.Phase = s.Relist(o.At)
		return s, Effect{}
	case EndNarrowed:
		return s, Effect{}
	case EndClosedEarly:
		s.Failures++
		return s, Effect{Backoff: true}
	case EndVeryShort, EndTransient:
		s.Failures++
		return s, Effect{Report: true, Backoff: true}
	case EndExpired:
		s.Expired = true
		if !s.Listed {
			s.Phase = s.Relist(o.At)
			return s, Effect{Report: true}
		}
	}
	s.Phase = s.Relist(o.At)
	s.Failures++
	return s, Effect{Report: true, Backoff: true}
}

// ListFrom is the resourceVersion of a list from position rv: "0" for
// the first one (servable from the watch cache), "" once the position
// expired (a consistent read, never older than what was seen), else rv (a
// list not older than it).
func (s State) ListFrom(rv string) string {
	switch {
	case s.Expired:
		return ""
	case rv == "":
		return "0"
	}
	return rv
}

// WatchListFrom is the resourceVersion a watch list from position rv
// starts from.
func (s State) WatchListFrom(rv string) string {
	if s.Expired {
		return ""
	}
	return rv
}
