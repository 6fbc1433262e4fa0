package cache

import (
	"errors"
	"sync/atomic"
	"time"
)

// The reflector's state is explicit, as kube-rs's watcher keeps it in one
// State value that a step function advances: a position (what the store
// reflects and whether the server can still resume from it) and a phase
// (what the next step does). The transition table (after) decides, from
// how a watch ended, what comes next; RunWithContext, watchLoop and list
// only carry out what it says.
//
//	phase   outcome of the step                         next phase   report  back off
//	list    stored (list or watch list)                  watch        -       -
//	list    failed                                       list         yes     yes
//	watch   closed by the server after >= veryShortWatch watch        -       -
//	watch   closed by the server sooner (nothing seen    watch        yes     yes
//	        counts as very short) or a transient error
//	watch   closed by the server sooner, events seen     watch        -       yes
//	watch   idle for IdleTimeout                         watch        yes     -
//	watch   410 Gone / too large resourceVersion         list (from "", position expired)
//	watch   any other error                              list         yes     yes
//
// A list after an expired position asks for a consistent read (RV "");
// the position is valid again once a list or watch list is stored.

// phase is what the reflector's next step does.
type phase uint8

const (
	// phaseList lists the whole collection (a watch list when enabled)
	// and replaces the store's content with it.
	phaseList phase = iota
	// phaseWatch watches from the position, applying events to the store.
	phaseWatch
)

func (p phase) String() string {
	if p == phaseWatch {
		return "watch"
	}
	return "list"
}

// transition is what follows a watch: the next phase, whether the error is
// reported to the watch error handler, whether the back-off is waited first.
type transition struct {
	next    phase
	report  bool
	backoff bool
}

// after is the transition table for a watch that ended with err (nil: the
// server closed it) after lived, or failed to open with err. An error that
// leads back to phaseList is reported by RunWithContext, after which it
// backs off.
func after(err error, lived time.Duration) transition {
	switch {
	case err == nil && lived >= veryShortWatch:
		return transition{next: phaseWatch}
	case err == nil:
		// Closed right after it started, with events: a server closing every
		// watch after an event or two must not be re-watched in a hot loop.
		return transition{next: phaseWatch, backoff: true}
	case errors.Is(err, errWatchIdle):
		return transition{next: phaseWatch, report: true}
	case errors.Is(err, errVeryShortWatch), isRetriableWatchError(err):
		return transition{next: phaseWatch, report: true, backoff: true}
	}
	return transition{next: phaseList}
}

// position is where the reflector's store stands: the resourceVersion it
// reflects ("" before the first list) and whether the server has
// forgotten it (expired), in which case the next list is a consistent read
// and no watch resumes from it. Safe for concurrent use.
type position struct {
	rv      atomic.Pointer[string]
	expired atomic.Bool
}

func newPosition() *position {
	p := &position{}
	empty := ""
	p.rv.Store(&empty)
	return p
}

// resourceVersion returns the resourceVersion the store reflects.
func (p *position) resourceVersion() string { return *p.rv.Load() }

// listFrom is the resourceVersion of the next list: "0" for the first one
// (servable from the watch cache), "" once the position expired (a
// consistent read, never older than what was seen), else the position (a
// list not older than it).
func (p *position) listFrom() string {
	if p.expired.Load() {
		return ""
	}
	if rv := p.resourceVersion(); rv != "" {
		return rv
	}
	return "0"
}

// watchListFrom is the resourceVersion a watch list starts from.
func (p *position) watchListFrom() string {
	if p.expired.Load() {
		return ""
	}
	return p.resourceVersion()
}

// expire records that the server no longer serves the position.
func (p *position) expire() { p.expired.Store(true) }

// reset records that a list at a resourceVersion the server serves was
// stored: the position is valid again.
func (p *position) reset() { p.expired.Store(false) }

// advance moves the position to rv and reports whether it changed.
func (p *position) advance(rv string) bool {
	if p.resourceVersion() == rv {
		return false
	}
	p.rv.Store(&rv)
	return true
}
