package ring

import (
	"cmp"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// The simulation runs replicas of a ring on simulated time: the real
// step function (state.next), assignment (Assign), view (viewOf) and
// liveness, over a simulated Lease store whose writes reach every other
// replica watchDelay later. A record takes writeTime, an informer change
// (Target.Set until every informer applied) applyTime. Each replica
// looks at the ring every renewPeriod/2 and when a delivered Lease
// changes what a Lease records or who is in the ring.

// simParams are the simulation's timings.
type simParams struct {
	leaseDuration, renewDeadline, renewPeriod time.Duration
	watchDelay, writeTime, applyTime, dt      time.Duration
	// watchJitter spreads the replicas' watch delays: each replica's is
	// watchDelay plus a seeded random part of watchJitter.
	watchJitter time.Duration
	vnodes      int
}

// simDelivery is a Lease write (or deletion, gone) reaching a replica.
type simDelivery struct {
	at   time.Time
	m    member
	gone bool
}

// simReplica is one replica: its protocol state and its informer's
// copy of the ring's Leases.
type simReplica struct {
	id       string
	st       state
	lv       liveness
	cache    map[string]member
	inbox    []simDelivery
	nextTick time.Time
	// dirty is set when a delivery changed a recorded set or the members;
	// view is the last view, for liveKey's live members.
	dirty   bool
	view    view
	liveKey string
	// busy is set while act runs; it ends at doneAt; started when.
	busy    bool
	act     action
	started time.Time
	doneAt  time.Time
	// crashed: the process is gone. stopping: asked to leave. cutOff: its
	// Lease writes fail; it runs on.
	crashed, stopping, cutOff bool
	// delay is how long the ring's Lease writes take to reach it.
	delay time.Duration
}

// sim is the ring, its store and its clock.
type sim struct {
	p        simParams
	now      time.Time
	replicas map[string]*simReplica
	store    map[string]member
	memo     map[string]map[string]Ranges
	rng      *rand.Rand
	// overlap and gap integrate, over time, the fraction of the space held
	// by two live replicas at once and held by none; doubly and unheld
	// are those fractions now, measured again when held sets changed.
	overlap, gap   float64
	doubly, unheld float64
	heldChanged    bool
}

func newSim(p simParams) *sim {
	return &sim{p: p, now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), replicas: map[string]*simReplica{},
		store: map[string]member{}, memo: map[string]map[string]Ranges{}, rng: rand.New(rand.NewPCG(22, 22))}
}

// assign is Assign, memoized by member set.
func (s *sim) assign(ids []string) map[string]Ranges {
	sorted := slices.Sorted(slices.Values(ids))
	key := strings.Join(sorted, ",")
	if a, ok := s.memo[key]; ok {
		return a
	}
	if len(s.memo) > 64 {
		clear(s.memo)
	}
	a := Assign(sorted, s.p.vnodes)
	s.memo[key] = a
	return a
}

func (s *sim) join(id string) {
	delay := s.p.watchDelay
	if s.p.watchJitter > 0 {
		delay += time.Duration(s.rng.Int64N(int64(s.p.watchJitter)))
	}
	s.replicas[id] = &simReplica{id: id, cache: maps.Clone(s.store), nextTick: s.now, dirty: true, delay: delay}
}

func (s *sim) ids() []string { return slices.Sorted(maps.Keys(s.replicas)) }

// publish stores a write (or deletion) and sends it to the others.
func (s *sim) publish(from string, m member, gone bool) {
	if gone {
		delete(s.store, from)
	} else {
		s.store[from] = m
	}
	for _, r := range s.replicas {
		r.inbox = append(r.inbox, simDelivery{at: s.now.Add(r.delay), m: m, gone: gone})
	}
}

// deliver applies the deliveries due to r's informer cache.
func (s *sim) deliver(r *simReplica) {
	n := 0
	for _, d := range r.inbox {
		if d.at.After(s.now) {
			r.inbox[n] = d
			n++
			continue
		}
		old, had := r.cache[d.m.identity]
		switch {
		case d.gone:
			delete(r.cache, d.m.identity)
			r.dirty = true
		default:
			r.cache[d.m.identity] = d.m
			r.dirty = r.dirty || !had || !old.recorded.Equal(d.m.recorded)
		}
	}
	r.inbox = r.inbox[:n]
}

// finish ends r's action at now and returns how it ended.
func (s *sim) finish(r *simReplica) event {
	r.busy = false
	switch {
	case r.cutOff && r.act.kind == actRecord:
		return event{kind: evRecordFailed, at: r.started}
	case r.cutOff && r.act.kind == actDelete:
		return event{kind: evDeleteFailed, at: r.started}
	}
	switch r.act.kind {
	case actRecord:
		s.publish(r.id, member{identity: r.id, recorded: r.act.ranges, duration: s.p.leaseDuration,
			renewed: metav1.NewMicroTime(r.started)}, false)
		return event{kind: evRecorded, at: r.started}
	case actApply:
		s.heldChanged = true
		return event{kind: evApplied, at: r.started}
	}
	s.publish(r.id, member{identity: r.id}, true)
	return event{kind: evDeleted, at: r.started}
}

// step runs r's state machine on e and starts the action it asks for.
func (s *sim) step(r *simReplica, e event) {
	st, act := r.st.next(e, timing{renewPeriod: s.p.renewPeriod, renewDeadline: s.p.renewDeadline})
	if joined(r.st.phase, st.phase) {
		r.lv.forget()
	}
	r.st = st
	if act.kind == actNone {
		return
	}
	r.busy, r.act, r.started = true, act, s.now
	s.heldChanged = true
	r.doneAt = s.now.Add(s.p.writeTime)
	if act.kind == actApply {
		r.doneAt = s.now.Add(s.p.applyTime)
	}
}

// tick is r's look at the ring.
func (s *sim) tick(r *simReplica) {
	var others []member
	for id, m := range r.cache {
		if id != r.id {
			others = append(others, m)
		}
	}
	slices.SortFunc(others, func(a, b member) int { return strings.Compare(a.identity, b.identity) })
	live := r.lv.live(s.now, others)
	var key strings.Builder
	for _, m := range live {
		key.WriteString(m.identity + ",")
	}
	if r.dirty || key.String() != r.liveKey {
		r.view, r.liveKey = viewOf(r.id, live, s.assign, false), key.String()
	}
	v := r.view
	v.stopping, v.own = r.stopping, r.cache[r.id].recorded
	r.nextTick, r.dirty = s.now.Add(s.p.renewPeriod/2), false
	s.step(r, event{kind: evTick, at: s.now, view: v})
}

// advance moves the simulation one dt.
func (s *sim) advance() {
	s.now = s.now.Add(s.p.dt)
	for _, id := range s.ids() {
		r := s.replicas[id]
		if r.crashed {
			continue
		}
		s.deliver(r)
		switch {
		case r.busy && !s.now.Before(r.doneAt):
			s.step(r, s.finish(r))
		case !r.busy && (r.dirty || !s.now.Before(r.nextTick)):
			s.tick(r)
		}
		if r.st.phase == phaseLeft && !r.busy {
			delete(s.replicas, id)
		}
	}
	s.measure()
}

// sure and maybe are what r's informers hold for certain and may hold:
// during an apply, the old and new sets' intersection and union.
func (r *simReplica) sure() Ranges {
	if r.busy && r.act.kind == actApply {
		return r.st.held.Intersect(r.act.ranges)
	}
	return r.st.held
}

func (r *simReplica) maybe() Ranges {
	if r.busy && r.act.kind == actApply {
		return r.st.held.Union(r.act.ranges)
	}
	return r.st.held
}

// measure adds this dt's doubly held and unheld fractions.
func (s *sim) measure() {
	if s.heldChanged {
		var sure, maybe []Range
		for _, r := range s.replicas {
			if !r.crashed {
				sure = append(sure, r.sure()...)
				maybe = append(maybe, r.maybe()...)
			}
		}
		s.unheld = 1 - normalize(sure).Fraction()
		s.doubly = heldTwice(maybe)
		s.heldChanged = false
	}
	dt := s.p.dt.Seconds()
	s.overlap += s.doubly * dt
	s.gap += s.unheld * dt
}

// heldTwice is the fraction of the space in two or more of rs.
func heldTwice(rs []Range) float64 {
	rs = slices.Clone(rs)
	slices.SortFunc(rs, func(a, b Range) int { return cmp.Compare(a.First, b.First) })
	var twice []Range
	var reach uint64 // the last point covered so far
	for i, r := range rs {
		if i > 0 && r.First <= reach {
			twice = append(twice, Range{r.First, min(r.Last, reach)})
		}
		if i == 0 || r.Last > reach {
			reach = r.Last
		}
	}
	return normalize(twice).Fraction()
}

// live is the replicas that run and are not leaving.
func (s *sim) live() []string {
	var ids []string
	for _, id := range s.ids() {
		if r := s.replicas[id]; !r.crashed && !r.stopping && !r.cutOff {
			ids = append(ids, id)
		}
	}
	return ids
}

// converged reports whether every live replica holds exactly its part of
// the assignment over the live replicas, and those leaving have left.
func (s *sim) converged() bool {
	live := s.live()
	want := s.assign(live)
	for _, r := range s.replicas {
		if !r.crashed && (r.stopping || r.busy || !r.st.held.Equal(want[r.id])) && !(r.cutOff && r.st.held.Empty()) {
			return false
		}
	}
	return true
}

// covered reports whether the live replicas surely hold the whole space.
func (s *sim) covered() bool { return s.unheld == 0 }

// change is one membership change's measurements.
type change struct {
	kind            string
	before, after   int
	moved, ideal    float64 // assignment moved; 1/max(before, after)
	uncovered       time.Duration
	doubly          time.Duration // how long two live replicas held a point
	converge        time.Duration
	overlap, gapSec float64 // fraction-seconds
}

// apply makes one membership change and runs until the ring converged
// (or limit passed), measuring it.
func (s *sim) apply(kind, id string, limit time.Duration) change {
	before := s.live()
	switch kind {
	case "join":
		s.join(id)
	case "leave":
		s.replicas[id].stopping = true
	case "crash":
		s.replicas[id].crashed = true
	case "cutOff":
		s.replicas[id].cutOff = true
	}
	after := s.live()
	c := change{kind: kind, before: len(before), after: len(after), moved: moved(s.assign(before), s.assign(after)),
		ideal: 1 / float64(max(len(before), len(after)))}
	s.overlap, s.gap = 0, 0
	start := s.now
	for s.now.Sub(start) < limit {
		s.advance()
		if !s.covered() {
			c.uncovered += s.p.dt
		}
		if s.doubly > 0 {
			c.doubly += s.p.dt
		}
		if s.converged() {
			break
		}
	}
	c.converge, c.overlap, c.gapSec = s.now.Sub(start), s.overlap, s.gap
	return c
}

// moved is the fraction of the space whose owner differs between two
// assignments.
func moved(a, b map[string]Ranges) float64 {
	total := 0.0
	for m, rs := range a {
		total += rs.Subtract(b[m]).Fraction()
	}
	return total
}

func (c change) String() string {
	return fmt.Sprintf("%-5s %3d->%3d moved %.4f (ideal %.4f, x%.2f) uncovered %v converged %v overlap %.4f gap %.3f",
		c.kind, c.before, c.after, c.moved, c.ideal, c.moved/c.ideal, c.uncovered, c.converge, c.overlap, c.gapSec)
}
