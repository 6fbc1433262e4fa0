package ring

import (
	"cmp"
	"hash/fnv"
	"math"
	"slices"
	"strconv"
)

// DefaultVirtualNodes is the number of points each member has on the
// ring. A member's share of the space is the sum of that many arcs, so it
// is within about 1/sqrt(DefaultVirtualNodes) (9%) of 1/N; each member's
// shard selector has about that many ranges (some 10 KB), well below the
// 100,000 characters the server's CEL parser takes.
const DefaultVirtualNodes = 128

// point is one virtual node: a member's position on the ring.
type point struct {
	at     uint64
	member string
}

// Assign is the consistent-hashing assignment of the whole hash space to
// members: each member has vnodes points on the ring, at the 64-bit
// mixed hash of "member#i" (pointHash), and owns, for each point, the arc from the
// point before it (excluded) to the point (included). The result
// depends only on the set of members and vnodes, not on their order;
// members that own nothing (vnodes <= 0, or every point shared with a
// member that sorts first) are absent. The ranges of the members are
// disjoint and cover the space when members is not empty.
func Assign(members []string, vnodes int) map[string]Ranges {
	points := make([]point, 0, len(members)*max(vnodes, 0))
	for _, m := range members {
		for i := range vnodes {
			points = append(points, point{at: pointHash(m + "#" + strconv.Itoa(i)), member: m})
		}
	}
	slices.SortFunc(points, func(a, b point) int {
		return cmp.Or(cmp.Compare(a.at, b.at), cmp.Compare(a.member, b.member))
	})
	points = slices.CompactFunc(points, func(a, b point) bool { return a.at == b.at })
	arcs := map[string][]Range{}
	for i, p := range points {
		if i == 0 {
			continue
		}
		arcs[p.member] = append(arcs[p.member], Range{points[i-1].at + 1, p.at})
	}
	if len(points) > 0 {
		first, last := points[0], points[len(points)-1]
		arcs[first.member] = append(arcs[first.member], Range{0, first.at})
		if last.at != math.MaxUint64 {
			arcs[first.member] = append(arcs[first.member], Range{last.at + 1, math.MaxUint64})
		}
	}
	out := make(map[string]Ranges, len(arcs))
	for m, rs := range arcs {
		out[m] = normalize(rs)
	}
	return out
}

// pointHash places a virtual node: the 64-bit FNV-1a hash of s, mixed
// by splitmix64's finalizer. FNV-1a alone is not enough: names that
// differ in their last byte ("a#1", "a#2") hash to values that differ
// only by a small multiple of the FNV prime (about 2^40), so one
// member's points would bunch in a sliver of the ring.
func pointHash(s string) uint64 {
	h := fnv.New64a()
	_, _ = h.Write([]byte(s))
	x := h.Sum64()
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}
