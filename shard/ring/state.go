package ring

import "time"

// A replica's protocol is one state value and one step function, as the
// reflector's is (runtime/cache/internal/protocol/state.go): state.next takes
// what just happened (a look at the ring, or how the last action ended)
// and returns the next state and the one action to carry out. The table
// below is state.next, row for row; TestStateTable parses it and drives
// next with each row.
//
//	phase      event         condition              next       action
//	joining    tick          stopping               left       -
//	joining    tick          -                      joining    record
//	joining    recorded      -                      steady     -
//	joining    recordFailed  -                      joining    -
//	steady     tick          stopping               leaving    apply
//	steady     tick          renewOverdue           lost       apply
//	steady     tick          holdsUndesired         narrowing  apply
//	steady     tick          canClaim               claiming   record
//	steady     tick          renewDue               renewing   record
//	steady     tick          -                      steady     -
//	renewing   recorded      -                      steady     -
//	renewing   recordFailed  -                      steady     -
//	narrowing  applied       -                      releasing  record
//	narrowing  applyFailed   -                      steady     -
//	releasing  recorded      -                      steady     -
//	releasing  recordFailed  -                      steady     -
//	claiming   recorded      -                      confirming -
//	claiming   recordFailed  -                      steady     -
//	confirming tick          stopping               leaving    apply
//	confirming tick          claimStale             steady     -
//	confirming tick          claimUnseen            confirming -
//	confirming tick          claimContested         renewing   record
//	confirming tick          -                      widening   apply
//	widening   applied       -                      steady     -
//	widening   applyFailed   -                      steady     -
//	lost       applied       -                      joining    -
//	lost       applyFailed   -                      lost       -
//	lost       tick          -                      lost       apply
//	leaving    applied       -                      leaving    delete
//	leaving    applyFailed   -                      leaving    -
//	leaving    tick          -                      leaving    apply
//	leaving    deleted       -                      left       -
//	leaving    deleteFailed  -                      left       -
//
// The conditions of a steady tick are tried in the order of the table:
//   - stopping: the replica is asked to leave the ring.
//   - renewOverdue: no Lease write succeeded for RenewDeadline (measured
//     from the start of the last one that did) and the informers hold
//     something. The others may take the ranges once the Lease expires,
//     LeaseDuration after they saw its last renewal, which is later than
//     that write's start; the replica narrows to nothing in the
//     difference, LeaseDuration - RenewDeadline.
//   - holdsUndesired: the informers hold points the assignment gives to
//     another member. Narrowing comes first, releasing (recording the
//     narrower set in the Lease) after the informers applied it.
//   - canClaim: points the assignment gives to this replica that no
//     other live member's Lease records. Claiming (recording the wider
//     set) comes first, widening after.
//   - renewDue: RenewPeriod passed since the last successful write, or
//     the Lease does not record what the informers hold (a release
//     whose record failed).
//
// A claim is confirmed before the replica widens onto it: it waits until
// its own informer shows the claim recorded in its Lease (claimUnseen
// until then; claimStale when RenewPeriod passed since the claim was
// recorded and it is still unseen: the replica goes back to steady,
// where the next tick claims again or renews, so a stalled watch does
// not stop its renewals). The watch delivers the ring's Lease writes in one order,
// so by then it sees every claim recorded before its own; if one of them
// takes a point of its claim (claimContested: the claim is no longer
// within view.free), it withdraws the claim (records what it holds) and
// tries again at a later tick. Of two replicas that claim a point at
// once, not seeing each other (two starting on an empty ring), the
// later claim is always withdrawn; both may be, and then both try again
// with views that now see each other.
//
// A replica whose Lease write succeeds as it joins (joined) forgets the
// renewals it saw and counts every Lease live for a full LeaseDuration
// from when it next sees it, as a newcomer does: after an outage it could
// not see the others renew, and must not take that for their death.
//
// So the Lease always records a superset of what the informers hold, and
// a replica widens only onto points no live Lease it sees records. A
// failed apply leaves the informers holding, for all the replica knows,
// the old set or the new one: their union is what it holds after it.
// A failed record leaves the Lease as it was.

// joined reports whether a step from one phase to the next is a replica
// whose Lease write succeeded as it joined (first, or again after it lost
// its Lease): its liveness forgets what it saw (liveness.forget).
func joined(from, to phase) bool { return from == phaseJoining && to == phaseSteady }

// phase is what a replica is doing.
type phase uint8

const (
	// phaseJoining: the replica has no Lease yet, or lost its ranges;
	// it records an empty set.
	phaseJoining phase = iota
	// phaseSteady: no action under way.
	phaseSteady
	// phaseRenewing: recording the held set again.
	phaseRenewing
	// phaseNarrowing: applying held minus what it no longer owns.
	phaseNarrowing
	// phaseReleasing: recording the narrowed set.
	phaseReleasing
	// phaseClaiming: recording held plus what it may take.
	phaseClaiming
	// phaseConfirming: waiting to see the claim in its own Lease.
	phaseConfirming
	// phaseWidening: applying the claimed set.
	phaseWidening
	// phaseLost: the Lease may have expired; applying the empty set.
	phaseLost
	// phaseLeaving: applying the empty set, then deleting the Lease.
	phaseLeaving
	// phaseLeft: the replica is out of the ring.
	phaseLeft
)

var phaseNames = [...]string{phaseJoining: "joining", phaseSteady: "steady", phaseRenewing: "renewing",
	phaseNarrowing: "narrowing", phaseReleasing: "releasing", phaseClaiming: "claiming", phaseConfirming: "confirming", phaseWidening: "widening",
	phaseLost: "lost", phaseLeaving: "leaving", phaseLeft: "left"}

func (p phase) String() string { return phaseNames[p] }

// eventKind is what happened: the vocabulary of the table's event column.
type eventKind uint8

const (
	// evTick: a look at the ring (a timer, or a Lease changed).
	evTick eventKind = iota
	evRecorded
	evRecordFailed
	evApplied
	evApplyFailed
	evDeleted
	evDeleteFailed
)

var eventNames = [...]string{evTick: "tick", evRecorded: "recorded", evRecordFailed: "recordFailed",
	evApplied: "applied", evApplyFailed: "applyFailed", evDeleted: "deleted", evDeleteFailed: "deleteFailed"}

func (e eventKind) String() string { return eventNames[e] }

// actionKind is what the driver does next.
type actionKind uint8

const (
	actNone actionKind = iota
	// actRecord writes the Lease: renewed now, recording action.ranges.
	actRecord
	// actApply sets the informers' shard to action.ranges and waits
	// until they all applied it.
	actApply
	// actDelete deletes the Lease.
	actDelete
)

var actionNames = [...]string{actNone: "-", actRecord: "record", actApply: "apply", actDelete: "delete"}

func (a actionKind) String() string { return actionNames[a] }

// action is one thing for the driver to do.
type action struct {
	kind   actionKind
	ranges Ranges
}

// view is what a replica sees of the ring at a tick.
type view struct {
	// desired is this replica's part of the assignment over the live
	// members, itself included.
	desired Ranges
	// free is the part of desired that no other live member's Lease
	// records.
	free Ranges
	// stopping is set once the replica is asked to leave.
	stopping bool
	// own is what this replica's Lease records, as its informer shows
	// it; nil when it shows no Lease of its own.
	own Ranges
}

// event is the input of one step: its kind, when it happened (for
// evRecorded: when the write started) and, for evTick, the view.
type event struct {
	kind eventKind
	at   time.Time
	view view
}

// timing is the Lease timing the step function needs.
type timing struct {
	renewPeriod, renewDeadline time.Duration
}

// state is a replica's protocol state between two steps.
type state struct {
	phase phase
	// held is what the informers may hold: the last set applied, or the
	// union of the sets around a failed apply.
	held Ranges
	// recorded is what the Lease records, as last written.
	recorded Ranges
	// pending is the set of the action under way.
	pending Ranges
	// renewedAt is when the last successful Lease write started; zero
	// before the first.
	renewedAt time.Time
}

// next is the transition table: the state after e, and the action to
// carry out.
func (s state) next(e event, t timing) (state, action) {
	switch s.phase {
	case phaseJoining:
		return s.afterJoining(e)
	case phaseSteady:
		return s.tick(e, t)
	case phaseRenewing, phaseReleasing, phaseClaiming:
		return s.afterRecord(e)
	case phaseConfirming:
		return s.confirm(e, t)
	case phaseNarrowing, phaseWidening:
		return s.afterApply(e)
	case phaseLost:
		if e.kind == evTick {
			return s, action{kind: actApply}
		}
		return s.afterApply(e)
	case phaseLeaving:
		return s.afterLeaving(e)
	}
	return s, action{}
}

func (s state) afterJoining(e event) (state, action) {
	switch e.kind {
	case evTick:
		if e.view.stopping {
			s.phase = phaseLeft
			return s, action{}
		}
		s.pending = nil
		return s, action{kind: actRecord}
	case evRecorded:
		s.phase, s.recorded, s.renewedAt = phaseSteady, nil, e.at
	}
	return s, action{}
}

// tick is a steady replica's look at the ring; the conditions are tried
// in the table's order.
func (s state) tick(e event, t timing) (state, action) {
	if e.kind != evTick {
		return s, action{}
	}
	v := e.view
	switch {
	case v.stopping:
		s.phase, s.pending = phaseLeaving, nil
		return s, action{kind: actApply}
	case !s.held.Empty() && e.at.Sub(s.renewedAt) > t.renewDeadline:
		s.phase, s.pending = phaseLost, nil
		return s, action{kind: actApply}
	case !s.held.Subtract(v.desired).Empty():
		s.phase, s.pending = phaseNarrowing, s.held.Intersect(v.desired)
		return s, action{kind: actApply, ranges: s.pending}
	}
	if claim := v.free.Subtract(s.held); !claim.Empty() {
		s.phase, s.pending = phaseClaiming, s.held.Union(claim)
		return s, action{kind: actRecord, ranges: s.pending}
	}
	if e.at.Sub(s.renewedAt) >= t.renewPeriod || !s.recorded.Equal(s.held) {
		s.phase, s.pending = phaseRenewing, s.held
		return s, action{kind: actRecord, ranges: s.pending}
	}
	return s, action{}
}

// afterRecord ends a Lease write: renewing, releasing or claiming.
func (s state) afterRecord(e event) (state, action) {
	switch e.kind {
	case evRecorded:
		s.recorded, s.renewedAt = s.pending, e.at
		if s.phase == phaseClaiming {
			s.phase = phaseConfirming
			return s, action{}
		}
	case evRecordFailed:
	default:
		return s, action{}
	}
	s.phase, s.pending = phaseSteady, nil
	return s, action{}
}

// confirm widens onto a claim once the replica sees it recorded and no
// claim recorded before it contests it.
func (s state) confirm(e event, t timing) (state, action) {
	if e.kind != evTick {
		return s, action{}
	}
	switch v := e.view; {
	case v.stopping:
		s.phase, s.pending = phaseLeaving, nil
		return s, action{kind: actApply}
	case !v.own.Equal(s.pending) && e.at.Sub(s.renewedAt) >= t.renewPeriod:
		s.phase, s.pending = phaseSteady, nil
		return s, action{}
	case !v.own.Equal(s.pending):
		return s, action{}
	case !s.pending.Subtract(s.held).Subtract(v.free).Empty():
		s.phase, s.pending = phaseRenewing, s.held
		return s, action{kind: actRecord, ranges: s.pending}
	}
	s.phase = phaseWidening
	return s, action{kind: actApply, ranges: s.pending}
}

// afterApply ends an informer change: narrowing, widening, or dropping
// everything after the Lease may have expired.
func (s state) afterApply(e event) (state, action) {
	switch e.kind {
	case evApplied:
		s.held = s.pending
	case evApplyFailed:
		s.held = s.held.Union(s.pending)
		if s.phase != phaseLost {
			s.phase, s.pending = phaseSteady, nil
		}
		return s, action{}
	default:
		return s, action{}
	}
	switch s.phase {
	case phaseNarrowing:
		s.phase = phaseReleasing
		return s, action{kind: actRecord, ranges: s.pending}
	case phaseLost:
		s.phase = phaseJoining
	default:
		s.phase = phaseSteady
	}
	s.pending = nil
	return s, action{}
}

func (s state) afterLeaving(e event) (state, action) {
	switch e.kind {
	case evApplied:
		s.held = nil
		return s, action{kind: actDelete}
	case evTick:
		return s, action{kind: actApply}
	case evDeleted, evDeleteFailed:
		s.phase, s.recorded = phaseLeft, nil
	}
	return s, action{}
}
