package main

import (
	"reflect"
	"strings"
	"testing"
)

func TestParseSizesWantsIncreasingPositiveCounts(t *testing.T) {
	for _, tc := range []struct {
		in      string
		want    []int
		wantErr string
	}{
		{in: "10000,50000,100000", want: []int{10000, 50000, 100000}},
		{in: " 1, 2 ", want: []int{1, 2}},
		{in: "10000", wantErr: "at least two sizes"},
		{in: "10000,5000", wantErr: "sizes must increase"},
		{in: "10000,10000", wantErr: "sizes must increase"},
		{in: "10k,20000", wantErr: `"10k" is not a positive pod count`},
		{in: "0,10", wantErr: `"0" is not a positive pod count`},
	} {
		t.Run(tc.in, func(t *testing.T) {
			got, err := parseSizes(tc.in)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) || !strings.Contains(err.Error(), "-sizes") {
					t.Fatalf("err = %v, want one naming -sizes and containing %q", err, tc.wantErr)
				}
				return
			}
			if err != nil || len(got) != len(tc.want) {
				t.Fatalf("got %v, %v; want %v", got, err, tc.want)
			}
			for i := range got {
				if got[i] != tc.want[i] {
					t.Fatalf("got %v, want %v", got, tc.want)
				}
			}
		})
	}
}

// A growth run writes the pods of a larger population beyond those of the
// smaller one; that is the population of the larger size only if the
// smaller population is its prefix, pod for pod.
func TestSmallerPopulationIsThePrefixOfTheLarger(t *testing.T) {
	small, large := newPopulation(1000, 50), newPopulation(5000, 50)
	for i := range small.n {
		a, b := small.pod(i), large.pod(i)
		if a != b {
			t.Fatalf("pod %d: %+v in the population of %d, %+v in that of %d", i, a, small.n, b, large.n)
		}
		if !reflect.DeepEqual(podSpec(a), podSpec(b)) {
			t.Fatalf("pod %d differs between the populations of %d and %d", i, small.n, large.n)
		}
	}
}

// growthOf is a growth run of client-go and ours at the sizes, with live
// heap heap(n) MiB and sync time sync(n) s at n pods.
func growthOf(sizes []int, variants []string, heap, sync func(v string, n int) float64) *growthResults {
	g := &growthResults{Sizes: sizes}
	for _, n := range sizes {
		r := &results{Pods: n, Rounds: 1, Events: 100, Variants: variants, PerVariant: map[string][]measurement{}}
		for _, v := range variants {
			m := withLiveHeap(heap(v, n), 200)
			m.Synced.SyncSeconds = sync(v, n)
			r.PerVariant[v] = []measurement{m}
		}
		g.Runs = append(g.Runs, r)
	}
	return g
}

func TestGrowthSectionGivesPerPodFiguresRatiosBetweenSizesAndTheLinearityVerdict(t *testing.T) {
	sizes := []int{10000, 50000, 100000}
	linear := func(perPod float64) func(string, int) float64 {
		return func(_ string, n int) float64 { return perPod * float64(n) }
	}
	for _, tc := range []struct {
		name       string
		heap, sync func(string, int) float64
		want       []string
		// verdicts are the Met column of goal rows, by figure.
		verdicts map[string]string
	}{
		{
			name: "linear heap, superlinear sync",
			// 1 KiB per pod at every size; n ns per pod at n pods: 10 µs at
			// 10k, 100 µs at 100k.
			heap: linear(1.0 / 1024),
			sync: func(_ string, n int) float64 { return 1e-9 * float64(n) * float64(n) },
			want: []string{
				"| client-go | 1024 | 1024 | 1024 | 1.00, 1.00, 1.00 | 1.00 |",
				"| Live heap per Pod (live heap after sync, beyond the baseline, over the pods) (B/pod) | 1.00 | 1.00 | yes |",
				"| Time until HasSynced per Pod (µs/pod) | 10.00 | 10.00 | no |",
				"| ours | 10.00 | 50.00 | 100.0 | 1.00, 1.00, 1.00 | 10.00 |",
				"10k, 50k, 100k Pods",
				"xychart-beta",
				`x-axis "Pods" [10k, 50k, 100k]`,
			},
		},
		{
			name: "ours half client-go's heap",
			heap: func(v string, n int) float64 {
				if v == variantOurs {
					return float64(n) / 2048
				}
				return float64(n) / 1024
			},
			// 1.5 µs per pod at every size.
			sync: linear(1.5e-6),
			want: []string{
				"| ours | 512.0 | 512.0 | 512.0 | 0.500, 0.500, 0.500 | 1.00 |",
				"| ours | 1.50 | 1.50 | 1.50 |",
				"### Issue 32's goals on Pods at 100000 Pods",
				"| ours time to HasSynced ≤ 0.7x client-go (protobuf) | 1.00 | no |",
			},
			verdicts: map[string]string{"Time until HasSynced per Pod (µs/pod)": "yes", "Live heap per Pod (live heap after sync, beyond the baseline, over the pods) (B/pod)": "yes"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := growthSection(growthOf(sizes, []string{variantClientGo, variantOurs}, tc.heap, tc.sync))
			for _, w := range tc.want {
				if !strings.Contains(s, w) {
					t.Errorf("section lacks %q:\n%s", w, s)
				}
			}
			for figure, want := range tc.verdicts {
				if got := verdictOf(s, figure); got != want {
					t.Errorf("goal on %s: met %q, want %q", figure, got, want)
				}
			}
			if !strings.HasPrefix(s, growthSectionStart) || !strings.HasSuffix(s, growthSectionEnd+"\n") {
				t.Errorf("section is not between its markers")
			}
		})
	}
}

func TestGrowthSectionSaysNotMeasuredWhenOursOrClientGoDidNotRun(t *testing.T) {
	one := func(string, int) float64 { return 1 }
	s := growthSection(growthOf([]int{10, 20}, []string{variantClientGo}, one, one))
	for _, w := range []string{"not measured: ours was not run at every size"} {
		if !strings.Contains(s, w) {
			t.Errorf("section lacks %q:\n%s", w, s)
		}
	}
	for _, bad := range []string{"| ours |", "xychart-beta"} {
		if strings.Contains(s, bad) {
			t.Errorf("section has %q although ours did not run:\n%s", bad, s)
		}
	}
	if !strings.Contains(s, "| ours-json CPU per watch event ≤ 0.5x client-go-json (JSON against JSON) | not measured: ours-json was not run | – |") {
		t.Errorf("the goals at each size do not say ours-json was not run:\n%s", s)
	}
	s = growthSection(growthOf([]int{10, 20}, []string{variantOurs}, one, one))
	if !strings.Contains(s, "| 0.500 | not run | yes |") {
		t.Errorf("section does not say client-go was not run:\n%s", s)
	}
}

// verdictOf is the last cell of the goal row of figure in section s.
func verdictOf(s, figure string) string {
	for _, line := range strings.Split(s, "\n") {
		if strings.HasPrefix(line, "| "+figure+" | ") {
			cells := strings.Split(strings.Trim(line, "| "), " | ")
			return cells[len(cells)-1]
		}
	}
	return ""
}
