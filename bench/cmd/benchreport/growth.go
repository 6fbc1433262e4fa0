package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log"
	"os"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/informer-gen/informer-gen/bench/internal/dataset"
	"github.com/informer-gen/informer-gen/bench/internal/measure"
	"github.com/informer-gen/informer-gen/bench/internal/subject"
)

// growthLimit is the most the per-object cost at the largest size may be
// of that at the smallest for issue 32's goal "the cost of each object
// grows no faster than linearly" to count as met: a per-object figure that
// does not grow is linear growth, and 10% leaves room for the noise of a
// shared machine.
const growthLimit = 1.10

// growthMeasurement is one measurement of the growth run: an entry of
// measurements (run as it is) and how its value becomes a per-object
// figure.
type growthMeasurement struct {
	// name is the measurement's name in measurements.
	name string
	// title and unit describe the per-object figure.
	title, unit string
	// perObject turns the measured value at n objects into the figure.
	perObject func(v float64, n int) float64
}

// growthMeasurements are the in-memory figures issue 32 asks to follow
// from 10k to 1M objects: the time to sync and the heap, per object.
var growthMeasurements = []growthMeasurement{
	{name: "Sync", title: "Time until HasSynced per object", unit: "ns/object",
		perObject: func(ms float64, n int) float64 { return ms * 1e6 / float64(n) }},
	{name: "LiveHeapConfigMap", title: "Live heap per cached ConfigMap, each decoded from its own JSON", unit: "B/object",
		perObject: func(v float64, _ int) float64 { return v }},
	{name: "Overhead", title: "Heap per cached object beyond the object", unit: "B/object",
		perObject: func(v float64, _ int) float64 { return v }},
}

// growthRun is the growth measurements at one size.
type growthRun struct {
	objects int
	// values are the per-object figures, per measurement name and
	// subject, in round order.
	values                map[string]map[string]series
	loadBefore, loadAfter float64
	duration              time.Duration
}

// growthResults are the growth runs in increasing size.
type growthResults struct {
	rounds  int
	started time.Time
	runs    []growthRun
}

// parseSizes parses a comma-separated list of object counts, each
// positive and larger than the one before.
func parseSizes(s string) ([]int, error) {
	var sizes []int
	for _, f := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n <= 0 {
			return nil, fmt.Errorf("-growth %q: %q is not a positive object count", s, f)
		}
		if len(sizes) > 0 && n <= sizes[len(sizes)-1] {
			return nil, fmt.Errorf("-growth %q: sizes must increase (%d after %d)", s, n, sizes[len(sizes)-1])
		}
		sizes = append(sizes, n)
	}
	if len(sizes) < 2 {
		return nil, fmt.Errorf("-growth %q: give at least two sizes to compare", s)
	}
	return sizes, nil
}

// measurementNamed returns the entry of measurements called name.
func measurementNamed(name string) (measurement, error) {
	for _, m := range measurements {
		if m.name == name {
			return m, nil
		}
	}
	return measurement{}, fmt.Errorf("no measurement %q", name)
}

// runGrowth runs the growth measurements of client-go and ours at every
// size, rounds times each, the first of the pair alternating; one size at
// a time, its input dropped before the next is built.
func runGrowth(ctx context.Context, sizes []int, rounds int) (*growthResults, error) {
	g := &growthResults{rounds: rounds, started: time.Now()}
	for _, n := range sizes {
		run, err := growthAt(ctx, n, rounds)
		if err != nil {
			return nil, fmt.Errorf("%d objects: %w", n, err)
		}
		g.runs = append(g.runs, run)
		runtime.GC()
	}
	return g, nil
}

// growthAt is the growth run at n objects.
func growthAt(ctx context.Context, n, rounds int) (growthRun, error) {
	t := time.Now()
	run := growthRun{objects: n, values: map[string]map[string]series{}, loadBefore: loadAverage()}
	in := measure.NewInput(dataset.Config{Objects: n, Namespaces: dataset.Full.Namespaces})
	for r := range rounds {
		subjects := subject.All()
		if r%2 == 1 {
			subjects[0], subjects[1] = subjects[1], subjects[0]
		}
		for _, gm := range growthMeasurements {
			m, err := measurementNamed(gm.name)
			if err != nil {
				return run, err
			}
			for _, subj := range subjects {
				vals, err := m.run(ctx, in, subj)
				if err != nil {
					return run, fmt.Errorf("%s/%s: %w", m.name, subj.Name, err)
				}
				if run.values[gm.name] == nil {
					run.values[gm.name] = map[string]series{}
				}
				v := gm.perObject(vals[0], n)
				run.values[gm.name][subj.Name] = append(run.values[gm.name][subj.Name], v)
				log.Printf("growth %d objects, round %d/%d: %s/%s %s %s", n, r+1, rounds, gm.name, subj.Name, format(v), gm.unit)
			}
		}
	}
	run.loadAfter = loadAverage()
	run.duration = time.Since(t)
	return run, nil
}

// perObject returns the figures of measurement name for subject at every
// size, in size order.
func (g *growthResults) perObject(name, subject string) []series {
	var out []series
	for _, r := range g.runs {
		out = append(out, r.values[name][subject])
	}
	return out
}

// growthRatio is the median per-object figure at the largest size over
// that at the smallest.
func growthRatio(s []series) float64 {
	if len(s) < 2 || s[0].median() == 0 {
		return 0
	}
	return s[len(s)-1].median() / s[0].median()
}

// sizeLabel names an object count briefly: 10k, 1M.
func sizeLabel(n int) string {
	switch {
	case n >= 1_000_000 && n%1_000_000 == 0:
		return fmt.Sprintf("%dM", n/1_000_000)
	case n >= 1000 && n%1000 == 0:
		return fmt.Sprintf("%dk", n/1000)
	}
	return strconv.Itoa(n)
}

// sizeLabels are the labels of every run's size.
func (g *growthResults) sizeLabels() []string {
	var l []string
	for _, r := range g.runs {
		l = append(l, sizeLabel(r.objects))
	}
	return l
}

// xyChart renders a mermaid xychart-beta line chart of one line per
// series (their medians), over the categories xs.
func xyChart(title, yTitle string, xs []string, lines ...[]series) string {
	var b strings.Builder
	top := 0.0
	for _, l := range lines {
		for _, s := range l {
			top = max(top, s.median())
		}
	}
	fmt.Fprintf(&b, "```mermaid\nxychart-beta\n    title %q\n    x-axis %q [%s]\n    y-axis %q 0 --> %s\n",
		title, "objects", strings.Join(xs, ", "), yTitle, format(top*1.15))
	for _, l := range lines {
		var meds []string
		for _, s := range l {
			meds = append(meds, strconv.FormatFloat(s.median(), 'f', 1, 64))
		}
		fmt.Fprintf(&b, "    line [%s]\n", strings.Join(meds, ", "))
	}
	b.WriteString("```\n")
	return b.String()
}

// The markers around the in-memory growth section of docs/benchmarks.md.
const (
	growthStart = "<!-- growth-memory:start -->"
	growthEnd   = "<!-- growth-memory:end -->"
)

// growthSection renders the in-memory growth section, markers included.
func growthSection(g *growthResults) string {
	var b strings.Builder
	p := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	p("%s\n## Cost growth in memory: %s objects\n\n", growthStart, strings.Join(g.sizeLabels(), ", "))
	var sizes []string
	for _, r := range g.runs {
		sizes = append(sizes, strconv.Itoa(r.objects))
	}
	p("Written by `go run ./cmd/benchreport -growth %s -rounds %d` (from `bench/`); benchreport keeps this section as is.\n\n", strings.Join(sizes, ","), g.rounds)
	p("- Date: %s; machine: %s, %d cores (GOMAXPROCS %d), %s RAM; Go %s; commit %s; peer k8s.io/client-go %s\n",
		g.started.UTC().Format("2006-01-02 15:04 MST"), cpuModel(), runtime.NumCPU(), runtime.GOMAXPROCS(0), memTotal(), runtime.Version(), gitCommit(), moduleVersion("k8s.io/client-go"))
	for _, r := range g.runs {
		p("- %d objects: load average (1 min) %.1f at the start, %.1f at the end; %s\n", r.objects, r.loadBefore, r.loadAfter, r.duration.Round(time.Second))
	}
	p("\nThe ConfigMaps, the informers and the measurements are those of the Results above (Sync, Heap per cached object beyond the object, ")
	p("Live heap per cached ConfigMap), at each size in 100 namespaces, client-go and ours back to back, the first of the pair alternating; ")
	p("each figure is per object (the time to sync over the number of objects). Medians over %d round(s), spread (min–max) in brackets; ", g.rounds)
	p("\"/ %s\" is the median per-object figure at that size over the one at %s.\n\n", g.sizeLabels()[0], g.sizeLabels()[0])
	for _, gm := range growthMeasurements {
		p("%s", g.growthTable(gm))
	}
	p("%s", g.growthGoals())
	xs := g.sizeLabels()
	live, sync := growthMeasurements[1], growthMeasurements[0]
	p("\nFirst line client-go, second ours (mermaid's xychart has no legend); the x axis is categorical, one step per size.\n\n")
	p("%s\n", xyChart("In memory: "+strings.ToLower(live.title[:1])+live.title[1:]+" ("+live.unit+")", live.unit, xs, g.perObject(live.name, peer), g.perObject(live.name, ours)))
	p("%s", xyChart("In memory: "+strings.ToLower(sync.title[:1])+sync.title[1:]+" ("+sync.unit+")", sync.unit, xs, g.perObject(sync.name, peer), g.perObject(sync.name, ours)))
	p("%s\n", growthEnd)
	return b.String()
}

// growthTable is the table of one measurement over the sizes.
func (g *growthResults) growthTable(gm growthMeasurement) string {
	var b strings.Builder
	first := g.sizeLabels()[0]
	fmt.Fprintf(&b, "### %s (%s)\n\n| Objects | client-go | ours | ours / client-go | client-go / %s | ours / %s |\n|---|---|---|---|---|---|\n", gm.title, gm.unit, first, first)
	cg, o := g.perObject(gm.name, peer), g.perObject(gm.name, ours)
	for i, r := range g.runs {
		fmt.Fprintf(&b, "| %d | %s | %s | %s | %s | %s |\n", r.objects, cg[i].summary(), o[i].summary(),
			ratios(o[i], cg[i]).summary(), format(growthRatio([]series{cg[0], cg[i]})), format(growthRatio([]series{o[0], o[i]})))
	}
	b.WriteString("\n")
	return b.String()
}

// growthGoals is issue 32's linearity goal, per measurement: ours'
// per-object figure at the largest size at most growthLimit times the one
// at the smallest.
func (g *growthResults) growthGoals() string {
	var b strings.Builder
	xs := g.sizeLabels()
	span := xs[0] + " to " + xs[len(xs)-1]
	fmt.Fprintf(&b, "### Goal: the cost of each object grows no faster than linearly, %s\n\n", span)
	fmt.Fprintf(&b, "Met when ours' median per-object figure at %s is at most %.2fx the one at %s (client-go's for comparison).\n\n", xs[len(xs)-1], growthLimit, xs[0])
	b.WriteString("| Measurement | ours: per object at the largest / smallest size | client-go: the same | Met |\n|---|---|---|---|\n")
	for _, gm := range growthMeasurements {
		o, cg := growthRatio(g.perObject(gm.name, ours)), growthRatio(g.perObject(gm.name, peer))
		met := "no"
		if o > 0 && o <= growthLimit {
			met = "yes"
		}
		fmt.Fprintf(&b, "| %s (%s) | %s | %s | %s |\n", gm.title, gm.unit, format(o), format(cg), met)
	}
	return b.String()
}

// writeGrowthSection puts the growth section into the report at path: in
// place of its marked block, else before the "## Method" heading, else at
// the end.
func writeGrowthSection(path string, g *growthResults) error {
	old, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return os.WriteFile(path, []byte(spliceBlock(string(old), growthSection(g), growthStart, growthEnd)), 0o644)
}

// spliceBlock returns doc with block (markers included, ending in a
// newline) in place of the block between start and end, else before the
// "## Method" heading, else appended.
func spliceBlock(doc, block, start, end string) string {
	if i := strings.Index(doc, start); i >= 0 {
		if j := strings.Index(doc[i:], end); j >= 0 {
			return doc[:i] + block + strings.TrimPrefix(doc[i+j+len(end):], "\n")
		}
	}
	if i := strings.Index(doc, "\n## Method\n"); i >= 0 {
		return doc[:i+1] + block + "\n" + doc[i+1:]
	}
	if doc != "" && !strings.HasSuffix(doc, "\n\n") {
		doc = strings.TrimRight(doc, "\n") + "\n\n"
	}
	return doc + block
}
