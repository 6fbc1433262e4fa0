package chaos

import (
	"bytes"
	"os"
	"slices"
	"time"

	"github.com/informer-gen/informer-gen/shard"
	"github.com/informer-gen/informer-gen/shard/ring"
)

// impairedGrace is how long after a pause or a cut ended a replica still
// counts as impaired: the time its ring member takes to look again
// (RenewPeriod/2) and narrow.
const impairedGrace = 2 * RenewPeriod

// holding is a span in which one replica's informers might hold ranges.
type holding struct {
	replica  int
	from, to int64 // Unix nanoseconds, [from, to)
	ranges   ring.Ranges
}

// statusWrite is a Widget status written by a replica.
type statusWrite struct {
	replica  int
	uid      string
	name     string
	at, done int64
}

// span is a time interval [from, to) in Unix nanoseconds.
type span struct{ from, to int64 }

// history is what the journals and the fault log say about the run.
type history struct {
	holdings []holding
	writes   []statusWrite
	impaired map[int][]span // replica -> its pauses and cuts, each plus impairedGrace
	faulted  map[int][]span // replica -> its pauses and cuts as they were
	down     []span         // the API server's downtime
}

// readHistory reads every replica's journal; spans still open end at end.
func (s *soak) readHistory(end int64) (history, error) {
	h := history{impaired: map[int][]span{}, faulted: map[int][]span{}}
	for i, p := range s.procs {
		entries, err := ReadJournal(p.journal)
		if err != nil {
			return h, err
		}
		var cur ring.Ranges
		var since int64
		closeSpan := func(at int64) {
			if !cur.Empty() {
				h.holdings = append(h.holdings, holding{replica: i, from: since, to: at, ranges: cur})
			}
			cur, since = nil, at
		}
		for _, e := range entries {
			switch e.Kind {
			case EntryStart, EntryExit:
				closeSpan(e.At)
			case EntryHeld:
				rs, err := ring.ParseRanges(e.Ranges)
				if err != nil {
					return h, err
				}
				closeSpan(e.At)
				cur = rs
			case EntryStatus:
				h.writes = append(h.writes, statusWrite{replica: i, uid: e.UID, name: e.Name, at: e.At, done: e.Done})
			}
		}
		closeSpan(end)
	}
	for _, w := range s.faults.all() {
		sp := span{w.From.UnixNano(), w.To.UnixNano()}
		switch w.Kind {
		case APIServerRestart:
			h.down = append(h.down, sp)
		case ConnectionCut, ReplicaPause:
			h.faulted[w.Replica] = append(h.faulted[w.Replica], sp)
			sp.to += int64(impairedGrace)
			h.impaired[w.Replica] = append(h.impaired[w.Replica], sp)
		}
	}
	return h, nil
}

// covered is how much of sp the spans cover (they may overlap).
func covered(sp span, spans []span) int64 {
	var clipped []span
	for _, o := range spans {
		if f, t := max(sp.from, o.from), min(sp.to, o.to); f < t {
			clipped = append(clipped, span{f, t})
		}
	}
	slices.SortFunc(clipped, func(a, b span) int { return int(a.from - b.from) })
	var total, reach int64 = 0, sp.from
	for _, c := range clipped {
		if c.to <= reach {
			continue
		}
		total += c.to - max(c.from, reach)
		reach = c.to
	}
	return total
}

// analyse checks the ownership invariants over the whole run from start
// (when the ring was first stable) and the flatness of every process.
func (s *soak) analyse(start time.Time) error {
	end := time.Now().UnixNano()
	h, err := s.readHistory(end)
	if err != nil {
		return err
	}
	s.checkDoubleOwnership(h, start)
	s.checkUnowned(h, start.UnixNano(), end)
	s.checkStatusWrites(h, start)
	s.checkFlat()
	s.checkLogs()
	return nil
}

// checkLogs reports every replica log that shows a data race (replicas
// of a test binary built with -race) or a panic.
func (s *soak) checkLogs() {
	for _, p := range s.procs {
		raw, err := os.ReadFile(p.logPath)
		if err != nil {
			continue
		}
		for _, sign := range []string{"WARNING: DATA RACE", "panic: "} {
			if bytes.Contains(raw, []byte(sign)) {
				s.result.violate("%s: %q in its log %s", p.identity, sign, p.logPath)
			}
		}
	}
}

// checkDoubleOwnership finds spans in which two replicas held one point.
func (s *soak) checkDoubleOwnership(h history, start time.Time) {
	for i, a := range h.holdings {
		for _, b := range h.holdings[i+1:] {
			sp := span{max(a.from, b.from), min(a.to, b.to)}
			if a.replica == b.replica || sp.from >= sp.to || a.ranges.Intersect(b.ranges).Empty() {
				continue
			}
			impaired := append(slices.Clone(h.impaired[a.replica]), h.impaired[b.replica]...)
			if covered(sp, impaired) == sp.to-sp.from {
				s.result.DoubleWhileImpaired++
				continue
			}
			s.result.DoubleOwnership++
			s.result.violate("r%d and r%d both held %.4f of the hash space from +%v to +%v", a.replica, b.replica,
				a.ranges.Intersect(b.ranges).Fraction(), rel(sp.from, start), rel(sp.to, start))
		}
	}
}

// checkUnowned finds, for every Widget UID seen, the longest span in
// which no replica held its hash while it ran and reached the server,
// less the API server's downtime in it, and checks it against
// LeaseDuration + SyncBound. A replica paused or cut off owns nothing
// until its fault ends; impairedGrace is not added: what it holds once
// continued or reconnected, its handlers handle (the grace only excuses
// a double ownership while it narrows).
func (s *soak) checkUnowned(h history, from, to int64) {
	times := []int64{from, to}
	for _, x := range h.holdings {
		times = append(times, x.from, x.to)
	}
	for _, sps := range h.faulted {
		for _, sp := range sps {
			times = append(times, sp.from, sp.to)
		}
	}
	slices.Sort(times)
	times = slices.Compact(times)
	since := map[string]int64{} // uid -> start of its unowned span
	for i, t := range times {
		if t < from || t >= to || i+1 == len(times) {
			continue
		}
		owned := s.ownedAt(h, t)
		for uid := range s.seen {
			in := owned.Contains(shard.Hash(uid))
			start, open := since[uid]
			switch {
			case !in && !open:
				since[uid] = t
			case in && open:
				delete(since, uid)
				s.unowned(h, uid, span{start, t}, from)
			}
		}
	}
	for uid, start := range since {
		s.unowned(h, uid, span{start, to}, from)
	}
}

// ownedAt is the union of the ranges held at t by replicas not paused
// or cut off then.
func (s *soak) ownedAt(h history, t int64) ring.Ranges {
	var owned ring.Ranges
	for _, x := range h.holdings {
		if x.from <= t && t < x.to && covered(span{t, t + 1}, h.faulted[x.replica]) == 0 {
			owned = owned.Union(x.ranges)
		}
	}
	return owned
}

func (s *soak) unowned(h history, uid string, sp span, from int64) {
	d := time.Duration(sp.to - sp.from - covered(sp, h.down))
	if d > s.result.WorstUnowned {
		s.result.WorstUnowned = d
	}
	if d > LeaseDuration+SyncBound {
		s.result.violate("Widget %s (uid %s) had no owner for %v from +%v (API server downtime excluded), bound %v",
			s.seen[uid], uid, d.Round(time.Millisecond), time.Duration(sp.from-from).Round(time.Millisecond), LeaseDuration+SyncBound)
	}
}

// checkStatusWrites checks that no replica wrote a Widget's status while
// another, unimpaired, replica held the Widget throughout the write.
func (s *soak) checkStatusWrites(h history, start time.Time) {
	for _, w := range h.writes {
		s.result.StatusWrites++
		hash := shard.Hash(w.uid)
		own := false
		for _, x := range h.holdings {
			if x.replica == w.replica && x.from <= w.at && w.at < x.to && x.ranges.Contains(hash) {
				own = true
			}
			if x.replica != w.replica && x.from <= w.at && w.done < x.to && x.ranges.Contains(hash) &&
				covered(span{w.at, w.done + 1}, h.impaired[x.replica]) == 0 {
				s.result.violate("status of Widget %s written by r%d from +%v to +%v while r%d held it", w.name, w.replica,
					rel(w.at, start), rel(w.done, start), x.replica)
			}
		}
		if !own {
			s.result.StatusWritesUnheld++
		}
	}
}

// rel is t after start, rounded for messages.
func rel(t int64, start time.Time) time.Duration {
	return time.Duration(t - start.UnixNano()).Round(time.Millisecond)
}
