package ring

import (
	"math"
	"math/rand/v2"
	"testing"
)

func TestRangesSetOperationsAgreeWithPointMembership(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	randomRanges := func() Ranges {
		var rs []Range
		for range rng.IntN(5) {
			a, b := rng.Uint64N(64), rng.Uint64N(64)
			rs = append(rs, Range{min(a, b), max(a, b)})
		}
		if rng.IntN(4) == 0 {
			rs = append(rs, Range{60, math.MaxUint64})
		}
		return normalize(rs)
	}
	points := []uint64{0, 1, 2, 30, 59, 60, 61, 63, 64, 1 << 40, math.MaxUint64 - 1, math.MaxUint64}
	for i := range 2000 {
		a, b := randomRanges(), randomRanges()
		ops := []struct {
			name string
			got  Ranges
			want func(x, y bool) bool
		}{
			{"union", a.Union(b), func(x, y bool) bool { return x || y }},
			{"intersect", a.Intersect(b), func(x, y bool) bool { return x && y }},
			{"subtract", a.Subtract(b), func(x, y bool) bool { return x && !y }},
		}
		for _, op := range ops {
			if !op.got.Equal(normalize(op.got)) {
				t.Fatalf("case %d: %s of %v and %v = %v is not normalized", i, op.name, a, b, op.got)
			}
			for _, p := range points {
				if got, want := op.got.Contains(p), op.want(a.Contains(p), b.Contains(p)); got != want {
					t.Fatalf("case %d: %s of %v and %v = %v: contains %d is %v, want %v", i, op.name, a, b, op.got, p, got, want)
				}
			}
		}
	}
}

func TestRangesStringParsesBack(t *testing.T) {
	for _, rs := range []Ranges{nil, Full(), {{0, 0}}, {{5, 9}, {math.MaxUint64, math.MaxUint64}}} {
		got, err := ParseRanges(rs.String())
		if err != nil || !got.Equal(rs) {
			t.Errorf("ParseRanges(%q) = %v, %v; want %v", rs.String(), got, err, rs)
		}
	}
}

func TestParseRangesNamesTheBadRange(t *testing.T) {
	for _, s := range []string{"x", "1-", "0000000000000009-0000000000000001", "1-2,zz-3"} {
		if _, err := ParseRanges(s); err == nil {
			t.Errorf("ParseRanges(%q): no error", s)
		}
	}
}

func TestSelectorUsesExclusiveEndsUpTo2To64(t *testing.T) {
	rs := Ranges{{0, 0x7fffffffffffffff}, {0xc000000000000000, math.MaxUint64}}
	want := "shardRange(object.metadata.uid, '0x0000000000000000', '0x8000000000000000') || " +
		"shardRange(object.metadata.uid, '0xc000000000000000', '0x10000000000000000')"
	if got := rs.Selector("object.metadata.uid"); got != want {
		t.Errorf("Selector = %q, want %q", got, want)
	}
}

func TestFractionOfHalves(t *testing.T) {
	tests := []struct {
		rs   Ranges
		want float64
	}{
		{nil, 0}, {Full(), 1}, {Ranges{{0, math.MaxUint64 / 2}}, 0.5}, {Ranges{{0, math.MaxUint64 / 4}, {math.MaxUint64 / 2, math.MaxUint64/2 + math.MaxUint64/4}}, 0.5},
	}
	for _, tt := range tests {
		if got := tt.rs.Fraction(); math.Abs(got-tt.want) > 1e-9 {
			t.Errorf("%v.Fraction() = %v, want %v", tt.rs, got, tt.want)
		}
	}
}
