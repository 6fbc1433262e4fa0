package cachetest

import (
	"testing"
	"time"
)

func TestPollReturnsOnceTheConditionHoldsOrFalseAfterTheLimit(t *testing.T) {
	for _, tc := range []struct {
		name      string
		limit     time.Duration
		trueAfter int // calls before cond reports true; -1: never
		want      bool
		wantCalls func(calls int) bool
	}{
		{"true at once: one call", time.Minute, 0, true, func(n int) bool { return n == 1 }},
		{"true at the fourth call", time.Minute, 3, true, func(n int) bool { return n == 4 }},
		{"never true: false after the limit", 20 * time.Millisecond, -1, false, func(n int) bool { return n >= 2 }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			calls := 0
			got := poll(tc.limit, func() bool {
				calls++
				return tc.trueAfter >= 0 && calls > tc.trueAfter
			})
			if got != tc.want || !tc.wantCalls(calls) {
				t.Fatalf("poll = %v after %d calls of cond, want %v", got, calls, tc.want)
			}
		})
	}
}

func TestScaleIsTheSmallSizeUnlessSCALEIsSet(t *testing.T) {
	t.Setenv("SCALE", "")
	if got := Scale(3, 30); got != 3 {
		t.Errorf("without SCALE: Scale(3, 30) = %d, want 3", got)
	}
	t.Setenv("SCALE", "1")
	if got := Scale(3, 30); got != 30 {
		t.Errorf("with SCALE=1: Scale(3, 30) = %d, want 30", got)
	}
}
