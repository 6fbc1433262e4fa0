package main

import (
	"strings"
	"testing"
)

// withLiveHeap is a measurement whose live heap is mib MiB beyond a zero
// baseline and whose CPU per watch event is us µs over 100 events.
func withLiveHeap(mib, us float64) measurement {
	return measurement{
		Synced:     childResult{LiveHeap: uint64(mib * (1 << 20)), SyncSeconds: 1},
		Events:     childResult{EventCPUSeconds: us * 100 / 1e6},
		EventCount: 100,
	}
}

func TestGoalsCompareRatiosOrDifferencesAndNameWhatWasNotRun(t *testing.T) {
	r := &results{PerVariant: map[string][]measurement{
		variantClientGo:        {withLiveHeap(100, 200)},
		variantClientGoStrip:   {withLiveHeap(75, 200)},
		variantOurs:            {withLiveHeap(28, 220)},
		variantOursUncompacted: {withLiveHeap(75, 200)},
	}}
	for _, tc := range []struct {
		goal    goal
		want    float64
		missing string
	}{
		{goal: goals[0], want: 0.28},
		{goal: goals[1], want: 28.0 / 75},
		{goal: goals[5], want: 1.1},
		{goal: goals[7], want: 20},
		{goal: goals[6], missing: variantOursJSON},
	} {
		t.Run(tc.goal.text, func(t *testing.T) {
			if got := tc.goal.missing(r); got != tc.missing {
				t.Fatalf("missing = %q, want %q", got, tc.missing)
			}
			if tc.missing != "" {
				return
			}
			if got := tc.goal.ratio(r).median(); got < tc.want-1e-6 || got > tc.want+1e-6 {
				t.Errorf("measured %v, want %v", got, tc.want)
			}
		})
	}
	s := section(&results{Variants: []string{variantOurs}, PerVariant: r.PerVariant, Events: 100})
	if !strings.Contains(s, "not measured: ours-json was not run") {
		t.Errorf("the section does not say which variant a goal lacks:\n%s", s)
	}
}
