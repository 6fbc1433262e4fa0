package main

import (
	"fmt"
	"slices"
)

// series is the per-round values of one metric of one subject.
type series []float64

// median is the middle value (mean of the two middle ones for an even
// count); 0 for no values.
func (s series) median() float64 {
	if len(s) == 0 {
		return 0
	}
	v := slices.Clone(s)
	slices.Sort(v)
	if n := len(v); n%2 == 1 {
		return v[n/2]
	} else {
		return (v[n/2-1] + v[n/2]) / 2
	}
}

// spread returns the smallest and largest values.
func (s series) spread() (lo, hi float64) {
	if len(s) == 0 {
		return 0, 0
	}
	return slices.Min(s), slices.Max(s)
}

// ratios returns ours[i]/peer[i] for each round.
func ratios(ours, peer series) series {
	r := make(series, 0, min(len(ours), len(peer)))
	for i := range r[:cap(r)] {
		r = append(r, ours[i]/peer[i])
	}
	return r
}

// format prints v with a precision suited to its magnitude.
func format(v float64) string {
	switch a := max(v, -v); {
	case a >= 1000:
		return fmt.Sprintf("%.0f", v)
	case a >= 100:
		return fmt.Sprintf("%.1f", v)
	case a >= 1:
		return fmt.Sprintf("%.2f", v)
	default:
		return fmt.Sprintf("%.3f", v)
	}
}

// summary is "median (min–max)".
func (s series) summary() string {
	lo, hi := s.spread()
	return fmt.Sprintf("%s (%s–%s)", format(s.median()), format(lo), format(hi))
}
