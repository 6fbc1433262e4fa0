package ring

import (
	"fmt"
	"math"
	"math/big"
	"slices"
	"strconv"
	"strings"
)

// Range is the points First through Last, both included, of the 64-bit
// hash space. Inclusive bounds let one Range hold the whole space,
// [0, 2^64), which an exclusive uint64 end cannot.
type Range struct {
	First, Last uint64
}

// Ranges is a set of points of the hash space: sorted, disjoint,
// non-adjacent Ranges. The zero value is the empty set. Values are never
// modified in place; every operation returns a new one.
type Ranges []Range

// Full is the whole hash space.
func Full() Ranges { return Ranges{{0, math.MaxUint64}} }

// normalize sorts rs and merges overlapping and adjacent ranges.
func normalize(rs []Range) Ranges {
	if len(rs) == 0 {
		return nil
	}
	rs = slices.Clone(rs)
	slices.SortFunc(rs, func(a, b Range) int {
		switch {
		case a.First < b.First:
			return -1
		case a.First > b.First:
			return 1
		}
		return 0
	})
	out := Ranges{rs[0]}
	for _, r := range rs[1:] {
		last := &out[len(out)-1]
		if last.Last == math.MaxUint64 || r.First <= last.Last+1 {
			last.Last = max(last.Last, r.Last)
			continue
		}
		out = append(out, r)
	}
	return out
}

// Union is the points in rs or in o.
func (rs Ranges) Union(o Ranges) Ranges {
	return normalize(append(slices.Clone(rs), o...))
}

// Intersect is the points in both rs and o.
func (rs Ranges) Intersect(o Ranges) Ranges {
	var out Ranges
	i, j := 0, 0
	for i < len(rs) && j < len(o) {
		first, last := max(rs[i].First, o[j].First), min(rs[i].Last, o[j].Last)
		if first <= last {
			out = append(out, Range{first, last})
		}
		if rs[i].Last < o[j].Last {
			i++
		} else {
			j++
		}
	}
	return out
}

// Subtract is the points in rs and not in o.
func (rs Ranges) Subtract(o Ranges) Ranges {
	if len(o) == 0 {
		return rs
	}
	out := make(Ranges, 0, len(rs))
	j := 0
	for _, r := range rs {
		for j < len(o) && o[j].Last < r.First {
			j++
		}
		out = subtractFrom(out, r, o[j:])
	}
	return out
}

// subtractFrom appends to out the points of r not in o, whose first range
// does not end before r.
func subtractFrom(out Ranges, r Range, o Ranges) Ranges {
	next := r.First
	for _, cut := range o {
		if cut.First > r.Last {
			break
		}
		if cut.First > next {
			out = append(out, Range{next, cut.First - 1})
		}
		if cut.Last >= r.Last {
			return out
		}
		next = cut.Last + 1
	}
	return append(out, Range{next, r.Last})
}

// Empty reports whether rs holds no point.
func (rs Ranges) Empty() bool { return len(rs) == 0 }

// Equal reports whether rs and o hold the same points.
func (rs Ranges) Equal(o Ranges) bool { return slices.Equal(rs, o) }

// Contains reports whether rs holds h.
func (rs Ranges) Contains(h uint64) bool {
	_, found := slices.BinarySearchFunc(rs, h, func(r Range, h uint64) int {
		switch {
		case r.Last < h:
			return -1
		case r.First > h:
			return 1
		}
		return 0
	})
	return found
}

// Fraction is the share of the hash space rs holds, in [0, 1].
func (rs Ranges) Fraction() float64 {
	var n big.Int
	for _, r := range rs {
		var size big.Int
		size.SetUint64(r.Last - r.First)
		size.Add(&size, big.NewInt(1))
		n.Add(&n, &size)
	}
	f, _ := new(big.Float).Quo(new(big.Float).SetInt(&n), new(big.Float).SetFloat64(1<<64)).Float64()
	return f
}

// String is the annotation form: "first-last" pairs of 16-digit hex,
// comma-separated ("" for the empty set).
func (rs Ranges) String() string {
	parts := make([]string, len(rs))
	for i, r := range rs {
		parts[i] = fmt.Sprintf("%016x-%016x", r.First, r.Last)
	}
	return strings.Join(parts, ",")
}

// ParseRanges reads the form String writes.
func ParseRanges(s string) (Ranges, error) {
	if s == "" {
		return nil, nil
	}
	var rs []Range
	for _, part := range strings.Split(s, ",") {
		first, last, ok := strings.Cut(part, "-")
		if !ok {
			return nil, fmt.Errorf("range %q: want first-last in hex", part)
		}
		f, err := strconv.ParseUint(first, 16, 64)
		if err != nil {
			return nil, fmt.Errorf("range %q: first: %w", part, err)
		}
		l, err := strconv.ParseUint(last, 16, 64)
		if err != nil {
			return nil, fmt.Errorf("range %q: last: %w", part, err)
		}
		if f > l {
			return nil, fmt.Errorf("range %q: first is after last", part)
		}
		rs = append(rs, Range{f, l})
	}
	return normalize(rs), nil
}

// Selector is the KEP-5866 shard selector of rs over the field key
// (object.metadata.uid or object.metadata.namespace): shardRange calls,
// with exclusive hex ends, joined by ||. The empty set has no selector
// that selects nothing; callers must not list with it.
func (rs Ranges) Selector(key string) string {
	parts := make([]string, len(rs))
	for i, r := range rs {
		end := "0x10000000000000000"
		if r.Last != math.MaxUint64 {
			end = fmt.Sprintf("0x%016x", r.Last+1)
		}
		parts[i] = fmt.Sprintf("shardRange(%s, '0x%016x', '%s')", key, r.First, end)
	}
	return strings.Join(parts, " || ")
}
