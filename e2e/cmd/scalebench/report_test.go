package main

import (
	"math/bits"
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

// replica is a measurement of one replica: heapMiB of live heap, objects
// cached, bytesMiB received for the initial list, synced in syncSeconds.
func replica(heapMiB float64, objects int, bytesMiB, syncSeconds float64) measurement {
	return measurement{Synced: childResult{
		LiveHeap: uint64(heapMiB * (1 << 20)), Objects: objects,
		InitialBytes: int64(bytesMiB * (1 << 20)), SyncSeconds: syncSeconds,
	}}
}

// scaleOutGoalText begins each goal row of the scale-out table.
const scaleOutGoalText = "| each of N replicas holds ≤ 1.1/N of the single replica's live heap "

// scaleOutCases are fake measurements and the rows the scale-out section
// must (want) and must not (absent) have.
var scaleOutCases = []struct {
	name   string
	runs   map[string][]measurement
	want   []string
	absent []string
}{{
	name: "all replicas measured",
	runs: map[string][]measurement{
		variantOurs:       {replica(100, 4000, 20, 2)},
		variantOursShard2: {replica(50, 2000, 10, 1)},
		variantOursShard3: {replica(40, 1333, 7, 0.8)},
		variantOursShard4: {replica(25, 536, 5, 0.5)},
	},
	want: []string{
		"| 1 | ours | 100.0 | 1.00 | 4000 | 20.00 | 1.00 | 2.00 |",
		"| 2 | ours-shard-2 | 50.00 | 0.500 | 2000 | 10.00 | 0.500 | 1.00 |",
		"| 3 | ours-shard-3 | 40.00 | 0.400 | 1333 | 7.00 | 0.350 | 0.800 |",
		"| 4 | ours-shard-4 | 25.00 | 0.250 | 536 | 5.00 | 0.250 | 0.500 |",
		scaleOutGoalText + "| 2 | 0.500 | ≤ 0.550 | met |",
		scaleOutGoalText + "| 3 | 0.400 | ≤ 0.367 | missed |",
		scaleOutGoalText + "| 4 | 0.250 | ≤ 0.275 | met |",
	},
	absent: []string{"about the whole collection"},
}, {
	name: "a server that did not select",
	runs: map[string][]measurement{
		variantOurs:       {replica(100, 4000, 20, 2)},
		variantOursShard2: {replica(50, 2000, 19, 1)},
		variantOursShard4: {replica(25, 1000, 5, 0.5)},
	},
	want: []string{"The replicas of N=2 (0.950) received about the whole collection"},
}, {
	name: "medians over rounds",
	runs: map[string][]measurement{
		variantOurs:       {replica(100, 4000, 20, 2), replica(200, 4000, 20, 2), replica(100, 4000, 20, 2)},
		variantOursShard2: {replica(60, 970, 10, 1), replica(100, 990, 10, 1), replica(50, 980, 10, 1)},
	},
	want: []string{
		"| 2 | ours-shard-2 | 60.00 (50.00–100.0) | 0.500 (0.500–0.600) | 980 (970–990) |",
		scaleOutGoalText + "| 2 | 0.500 (0.500–0.600) | ≤ 0.550 | met |",
	},
}, {
	name: "shards not run",
	runs: map[string][]measurement{variantOurs: {replica(100, 4000, 20, 2)}, variantOursShard2: {replica(60, 2000, 10, 1)}},
	want: []string{
		"| 3 | ours-shard-3 | not measured | – | – | – | – | – |",
		"| 4 | ours-shard-4 | not measured | – | – | – | – | – |",
		scaleOutGoalText + "| 2 | 0.600 | ≤ 0.550 | missed |",
		scaleOutGoalText + "| 3 | not measured: ours-shard-3 was not run | ≤ 0.367 | – |",
	},
}, {
	name: "single replica not run",
	runs: map[string][]measurement{variantOursShard2: {replica(50, 2000, 10, 1)}},
	want: []string{
		"| 1 | ours | not measured | – | – | – | – | – |",
		"| 2 | ours-shard-2 | 50.00 | – | 2000 | 10.00 | – | 1.00 |",
		scaleOutGoalText + "| 2 | not measured: ours was not run | ≤ 0.550 | – |",
	},
}}

func TestScaleOutTableRendersRatiosToOneReplicaGoalsPerNAndWhatWasNotRun(t *testing.T) {
	for _, tc := range scaleOutCases {
		t.Run(tc.name, func(t *testing.T) {
			s := scaleOutSection(&results{PerVariant: tc.runs})
			for _, want := range tc.want {
				if !strings.Contains(s, want) {
					t.Errorf("the table lacks the row\n%s\n in:\n%s", want, s)
				}
			}
			for _, absent := range tc.absent {
				if strings.Contains(s, absent) {
					t.Errorf("the section says %q:\n%s", absent, s)
				}
			}
		})
	}
}

func TestVariantShardIsPartZeroOfNForOursShardVariantsOnly(t *testing.T) {
	for _, tc := range []struct {
		variant      string
		sharded, bad bool
		parts        int
	}{
		{variant: variantOurs},
		{variant: variantOursPaged},
		{variant: variantOursShard2, sharded: true, parts: 2},
		{variant: variantOursShard4, sharded: true, parts: 4},
		{variant: variantOursPaged + shardInfix + "3", sharded: true, parts: 3},
		{variant: variantClientGo + shardInfix + "3"},
		{variant: variantOursShardPrefix + "1", sharded: true, bad: true},
		{variant: variantOursShardPrefix + "x", sharded: true, bad: true},
	} {
		t.Run(tc.variant, func(t *testing.T) {
			sel, sharded, err := variantShard(tc.variant)
			if sharded != tc.sharded || (err != nil) != tc.bad {
				t.Fatalf("sharded %t, err %v; want sharded %t, error %t", sharded, err, tc.sharded, tc.bad)
			}
			if !tc.sharded || tc.bad {
				return
			}
			rs := sel.Ranges()
			end, _ := bits.Div64(1, 0, uint64(tc.parts)) // 2^64 / parts
			if len(rs) != 1 || rs[0].Start != 0 || rs[0].End != end {
				t.Errorf("ranges %v, want the first of %d equal parts", rs, tc.parts)
			}
		})
	}
}

func TestSyncBoundSubtractsDecodeOnlyPerRoundAndFloorsStayOutOfCacheTables(t *testing.T) {
	synced := func(secs ...float64) []measurement {
		var ms []measurement
		for _, s := range secs {
			ms = append(ms, measurement{Synced: childResult{SyncSeconds: s, LiveHeap: 1 << 20}})
		}
		return ms
	}
	r := &results{Variants: []string{variantClientGo, variantOurs, variantReadOnly, variantDecodeOnly}, PerVariant: map[string][]measurement{
		variantClientGo:   synced(10, 12),
		variantOurs:       synced(9, 11),
		variantReadOnly:   synced(7, 8),
		variantDecodeOnly: synced(8, 9),
	}}
	got := syncBound(r)
	for _, want := range []string{
		"(decode-only) in 8.50 s (0.775x client-go)", // 8/10 and 9/12
		"client-go adds 2.50 s to decode-only",       // 2 and 3
		"ours 1.50 s",                                // 1 and 2
		"it may add 1.40 s",                          // 0.9*10-8 and 0.9*12-9
	} {
		if !strings.Contains(got, want) {
			t.Errorf("syncBound lacks %q:\n%s", want, got)
		}
	}
	delete(r.PerVariant, variantReadOnly)
	if got := syncBound(r); got != "" {
		t.Errorf("syncBound without read-only = %q, want nothing", got)
	}
	s := section(r)
	live := s[strings.Index(s, "### "+metricLiveHeap.title):]
	live = live[:strings.Index(live[4:], "### ")+4]
	if strings.Contains(live, variantDecodeOnly) {
		t.Errorf("the live heap table lists a floor variant, which keeps nothing:\n%s", live)
	}
	if !strings.Contains(s, "| decode-only | 8.50 (8.00–9.00) |") {
		t.Errorf("the sync table lacks decode-only:\n%s", s)
	}
}

func TestWatchEventTypeReadsFieldOneOfTheFrame(t *testing.T) {
	for _, tc := range []struct {
		name  string
		frame []byte
		want  string
	}{
		{"added", append([]byte{0x0a, 5}, "ADDED\x12\x00"...), "ADDED"},
		{"bookmark", append([]byte{0x0a, 8}, "BOOKMARK"...), "BOOKMARK"},
		{"length beyond the frame", append([]byte{0x0a, 9}, "BOOKMARK"...), ""},
		{"another field first", append([]byte{0x12, 5}, "ADDED"...), ""},
		{"empty", nil, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := watchEventType(tc.frame); got != tc.want {
				t.Errorf("watchEventType(%q) = %q, want %q", tc.frame, got, tc.want)
			}
		})
	}
}

func TestGoalNotesSayWhatWasNotRunInsteadOfAZeroRatio(t *testing.T) {
	for _, tc := range []struct {
		name      string
		per       map[string][]measurement
		want, not []string
	}{{
		name: "client-go-strip and ours-paged not run",
		per:  map[string][]measurement{variantClientGo: {withLiveHeap(100, 200)}, variantOurs: {withLiveHeap(30, 210)}},
		want: []string{"Ours against client-go-strip: not measured", "ours-paged was not run"},
		not:  []string{"0.000x", "made 0 paged list requests"},
	}, {
		name: "both ran",
		per: map[string][]measurement{
			variantOurs: {withLiveHeap(30, 210)}, variantClientGoStrip: {withLiveHeap(75, 200)},
			variantOursPaged: {{Synced: childResult{InitialLists: 3}}},
		},
		want: []string{"Ours holds 0.400x the live heap of client-go-strip", "ours-paged made 3 paged list requests"},
		not:  []string{"not measured"},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			notes := goalNotes(&results{PerVariant: tc.per})
			for _, w := range tc.want {
				if !strings.Contains(notes, w) {
					t.Errorf("the notes lack %q:\n%s", w, notes)
				}
			}
			for _, n := range tc.not {
				if strings.Contains(notes, n) {
					t.Errorf("the notes have %q:\n%s", n, notes)
				}
			}
		})
	}
}
