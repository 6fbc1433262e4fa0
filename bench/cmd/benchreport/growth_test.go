package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/informer-gen/informer-gen/bench/internal/dataset"
)

func TestParseSizesWantsIncreasingPositiveCounts(t *testing.T) {
	for _, tc := range []struct {
		in      string
		want    []int
		wantErr string
	}{
		{in: "10000,100000,1000000", want: []int{10000, 100000, 1000000}},
		{in: "10000", wantErr: "at least two sizes"},
		{in: "100000,10000", wantErr: "sizes must increase"},
		{in: "1e6,2", wantErr: `"1e6" is not a positive object count`},
		{in: "-1,2", wantErr: `"-1" is not a positive object count`},
	} {
		t.Run(tc.in, func(t *testing.T) {
			got, err := parseSizes(tc.in)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) || !strings.Contains(err.Error(), "-growth") {
					t.Fatalf("err = %v, want one naming -growth and containing %q", err, tc.wantErr)
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

func TestGrowthMeasurementsAreMeasurementsOfTheReport(t *testing.T) {
	for _, gm := range growthMeasurements {
		if _, err := measurementNamed(gm.name); err != nil {
			t.Errorf("growth measurement %s: %v", gm.name, err)
		}
	}
	if _, err := measurementNamed("NoSuch"); err == nil {
		t.Errorf("measurementNamed found a measurement that does not exist")
	}
}

// fakeGrowth is a growth run at sizes whose figure of every measurement
// is value(subject, n) per object.
func fakeGrowth(sizes []int, value func(subject string, n int) float64) *growthResults {
	g := &growthResults{rounds: 1}
	for _, n := range sizes {
		r := growthRun{objects: n, values: map[string]map[string]series{}}
		for _, gm := range growthMeasurements {
			r.values[gm.name] = map[string]series{peer: {value(peer, n)}, ours: {value(ours, n)}}
		}
		g.runs = append(g.runs, r)
	}
	return g
}

// The sync figure is the time over the objects; the table gives each
// size's figure, ours over client-go and the figure over the smallest
// size's; the goal is met while ours' per-object figure grows at most
// growthLimit-fold.
func TestGrowthSectionReportsPerObjectFiguresRatiosAndTheLinearityVerdict(t *testing.T) {
	if got := growthMeasurements[0].perObject(400, 100000); got != 4000 {
		t.Errorf("sync per object of 400 ms over 100k objects = %v ns, want 4000", got)
	}
	sizes := []int{10000, 100000, 1000000}
	for _, tc := range []struct {
		name    string
		value   func(string, int) float64
		want    []string
		verdict string
	}{
		{
			name: "flat per object",
			value: func(s string, _ int) float64 {
				if s == ours {
					return 500
				}
				return 1000
			},
			want:    []string{"| 1000000 | 1000 (1000–1000) | 500.0 (500.0–500.0) | 0.500 (0.500–0.500) | 1.00 | 1.00 |", `x-axis "objects" [10k, 100k, 1M]`, "line [500.0, 500.0, 500.0]"},
			verdict: "yes",
		},
		{
			name:    "per object doubling",
			value:   func(_ string, n int) float64 { return float64(n) / 10000 },
			want:    []string{"| 100000 | 10.00 (10.00–10.00) | 10.00 (10.00–10.00) | 1.00 (1.00–1.00) | 10.00 | 10.00 |"},
			verdict: "no",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := growthSection(fakeGrowth(sizes, tc.value))
			for _, w := range tc.want {
				if !strings.Contains(s, w) {
					t.Errorf("section lacks %q:\n%s", w, s)
				}
			}
			for _, gm := range growthMeasurements {
				row := "| " + gm.title + " (" + gm.unit + ") | "
				i := strings.Index(s, row)
				if i < 0 {
					t.Fatalf("no goal row for %s", gm.title)
				}
				line := s[i : i+strings.Index(s[i:], "\n")]
				if !strings.HasSuffix(line, "| "+tc.verdict+" |") {
					t.Errorf("goal row %q, want met %q", line, tc.verdict)
				}
			}
			if !strings.HasPrefix(s, growthStart) || !strings.HasSuffix(s, growthEnd+"\n") {
				t.Errorf("section is not between its markers")
			}
		})
	}
}

// The growth section replaces its old block and survives a rewrite of the
// report by benchreport.
func TestGrowthSectionIsSplicedOnceAndKeptByWriteReport(t *testing.T) {
	path := filepath.Join(t.TempDir(), "benchmarks.md")
	old := "# report\n\n" + growthStart + "\nstale\n" + growthEnd + "\n\n## Method\n\nmethod\n"
	if err := os.WriteFile(path, []byte(old), 0o644); err != nil {
		t.Fatal(err)
	}
	g := fakeGrowth([]int{10, 20}, func(string, int) float64 { return 1 })
	for range 2 {
		if err := writeGrowthSection(path, g); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	block := growthSection(g)
	if strings.Count(string(got), block) != 1 || strings.Contains(string(got), "stale") {
		t.Fatalf("the growth block is not in the file exactly once, replacing the old one:\n%s", got)
	}
	if err := writeReport(path, newResults(dataset.Small, 1)); err != nil {
		t.Fatal(err)
	}
	if got, err = os.ReadFile(path); err != nil {
		t.Fatal(err)
	}
	if strings.Count(string(got), block) != 1 {
		t.Fatalf("writeReport did not keep the growth section:\n%s", got)
	}
}
