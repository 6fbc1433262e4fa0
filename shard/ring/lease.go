package ring

import (
	"fmt"
	"time"

	coordinationv1 "k8s.io/api/coordination/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// RingLabel labels every Lease of a ring with the ring's name.
const RingLabel = "shard.informer-gen.io/ring"

// RangesAnnotation records, on a member's Lease, the points of the hash
// space its informers may hold (Ranges.String's form). A member records a
// set before it widens onto it and after it narrows off it, so the
// annotation is always a superset of what it holds.
const RangesAnnotation = "shard.informer-gen.io/ranges"

// leaseName is the name of identity's Lease in ring.
func leaseName(ring, identity string) string { return ring + "-" + identity }

// member is what a Lease says of one member of the ring.
type member struct {
	identity string
	recorded Ranges
	duration time.Duration
	renewed  metav1.MicroTime
}

// parseLease reads a ring member's Lease. A Lease without a holder or a
// duration is an error naming it, as is an annotation that does not parse.
func parseLease(l *coordinationv1.Lease) (member, error) {
	m := member{}
	if l.Spec.HolderIdentity == nil || *l.Spec.HolderIdentity == "" {
		return m, fmt.Errorf("lease %s/%s: no spec.holderIdentity", l.Namespace, l.Name)
	}
	if l.Spec.LeaseDurationSeconds == nil || *l.Spec.LeaseDurationSeconds <= 0 {
		return m, fmt.Errorf("lease %s/%s: no positive spec.leaseDurationSeconds", l.Namespace, l.Name)
	}
	rs, err := ParseRanges(l.Annotations[RangesAnnotation])
	if err != nil {
		return m, fmt.Errorf("lease %s/%s: annotation %s: %w", l.Namespace, l.Name, RangesAnnotation, err)
	}
	m.identity, m.recorded = *l.Spec.HolderIdentity, rs
	m.duration = time.Duration(*l.Spec.LeaseDurationSeconds) * time.Second
	if l.Spec.RenewTime != nil {
		m.renewed = *l.Spec.RenewTime
	}
	return m, nil
}

// liveness decides which members are live from the renewals it observed,
// timed by the local clock, as client-go's leader election does: a Lease
// is live until its duration passed since this replica first saw its
// current renewTime. Clocks of different machines are never compared.
// Not safe for concurrent use; a replica's loop owns it.
type liveness struct {
	seen map[string]observation // by identity
}

// forget drops every observation: each Lease then counts as live for its
// full duration from when it is next seen, as for a replica that joins.
// A replica calls it when its Lease write succeeds as it joins, after it
// lost its Lease too: what kept it from writing (an outage of the API
// server, a cut) most likely kept it from seeing the others' renewals,
// and time it could not see is no evidence that they stopped. Without it, after an outage
// longer than LeaseDuration every member finds every other expired, the
// first to write claims the whole space and relists it, and hands it back
// one handover later.
func (lv *liveness) forget() { lv.seen = nil }

// observation is a renewal seen, and when.
type observation struct {
	renewed metav1.MicroTime
	at      time.Time
}

// live returns the live members among ms at now, and forgets members
// whose Lease is gone.
func (lv *liveness) live(now time.Time, ms []member) []member {
	if lv.seen == nil {
		lv.seen = map[string]observation{}
	}
	present := make(map[string]bool, len(ms))
	var out []member
	for _, m := range ms {
		present[m.identity] = true
		o, ok := lv.seen[m.identity]
		if !ok || !o.renewed.Equal(&m.renewed) {
			o = observation{renewed: m.renewed, at: now}
			lv.seen[m.identity] = o
		}
		if now.Sub(o.at) <= m.duration {
			out = append(out, m)
		}
	}
	for id := range lv.seen {
		if !present[id] {
			delete(lv.seen, id)
		}
	}
	return out
}
