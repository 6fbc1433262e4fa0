package main

import "testing"

func TestSeriesMedianSpreadAndRatios(t *testing.T) {
	for _, tc := range []struct {
		s           series
		med, lo, hi float64
	}{
		{series{3, 1, 2}, 2, 1, 3},
		{series{4, 1, 3, 2}, 2.5, 1, 4},
		{series{}, 0, 0, 0},
	} {
		if got := tc.s.median(); got != tc.med {
			t.Errorf("median(%v) = %v, want %v", tc.s, got, tc.med)
		}
		if lo, hi := tc.s.spread(); lo != tc.lo || hi != tc.hi {
			t.Errorf("spread(%v) = %v, %v, want %v, %v", tc.s, lo, hi, tc.lo, tc.hi)
		}
	}
	r := ratios(series{2, 9}, series{4, 3})
	if len(r) != 2 || r[0] != 0.5 || r[1] != 3 {
		t.Errorf("ratios = %v, want [0.5 3]", r)
	}
	if got := (series{1000, 2000, 1500}).summary(); got != "1500 (1000–2000)" {
		t.Errorf("summary = %q", got)
	}
}
