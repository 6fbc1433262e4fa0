package main

import (
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"time"
)

// The markers around the growth section in docs/benchmarks.md;
// bench/cmd/benchreport carries the block over when it rewrites the file.
const (
	growthSectionStart = "<!-- scalebench-growth:start -->"
	growthSectionEnd   = "<!-- scalebench-growth:end -->"
)

// growthLimit is the most ours' per-object figure at the largest size may
// be of the one at the smallest for issue 32's goal "the cost of each
// object grows no faster than linearly" to count as met: a per-object
// cost that does not grow is linear growth, and 10% leaves room for the
// noise of a shared machine.
const growthLimit = 1.10

// podGoals are issue 32's goals on Pods, checked at every size of a growth
// run: over protobuf ours against client-go, over JSON ours-json against
// client-go-json.
var podGoals = []goal{
	{"ours CPU per watch event ≤ 0.7x client-go (protobuf)", variantOurs, variantClientGo, metricCPUPerEvent, 0.7, false},
	{"ours time to HasSynced ≤ 0.7x client-go (protobuf)", variantOurs, variantClientGo, metricSync, 0.7, false},
	{"ours-json CPU per watch event ≤ 0.5x client-go-json (JSON against JSON)", variantOursJSON, variantClientGoJSON, metricCPUPerEvent, 0.5, false},
}

// growthMetric is a per-object figure of the growth section.
type growthMetric struct {
	title, unit string
	// value is the figure of one measurement at n pods.
	value func(m measurement, n int) float64
	// goal marks the figures the linearity goal is checked on.
	goal bool
}

var growthMetrics = []growthMetric{
	{"Live heap per Pod (live heap after sync, beyond the baseline, over the pods)", "B/pod",
		func(m measurement, n int) float64 { return metricLiveHeap.value(m) * (1 << 20) / float64(n) }, true},
	{"Time until HasSynced per Pod", "µs/pod",
		func(m measurement, n int) float64 { return metricSync.value(m) * 1e6 / float64(n) }, true},
	{"Informer CPU per watch event", "µs",
		func(m measurement, _ int) float64 { return metricCPUPerEvent.value(m) }, false},
}

// perPod returns metric gm of variant at every size, one series each.
func (g *growthResults) perPod(variant string, gm growthMetric) []series {
	var out []series
	for _, r := range g.Runs {
		var s series
		for _, m := range r.PerVariant[variant] {
			s = append(s, gm.value(m, r.Pods))
		}
		out = append(out, s)
	}
	return out
}

// ran reports whether variant was measured at every size.
func (g *growthResults) ran(variant string) bool {
	for _, r := range g.Runs {
		if len(r.PerVariant[variant]) == 0 {
			return false
		}
	}
	return len(g.Runs) > 0
}

// variants are the variants of the run, in report order.
func (g *growthResults) variants() []string {
	if len(g.Runs) == 0 {
		return nil
	}
	return g.Runs[0].Variants
}

// sizeLabel names a pod count briefly: 10k, 1M.
func sizeLabel(n int) string {
	switch {
	case n >= 1_000_000 && n%1_000_000 == 0:
		return fmt.Sprintf("%dM", n/1_000_000)
	case n >= 1000 && n%1000 == 0:
		return fmt.Sprintf("%dk", n/1000)
	}
	return strconv.Itoa(n)
}

func (g *growthResults) sizeLabels() []string {
	var l []string
	for _, r := range g.Runs {
		l = append(l, sizeLabel(r.Pods))
	}
	return l
}

// growthRatio is the median at the last size over the median at the
// first; 0 when either is missing.
func growthRatio(s []series) float64 {
	if len(s) < 2 || len(s[0]) == 0 || len(s[len(s)-1]) == 0 || s[0].median() == 0 {
		return 0
	}
	return s[len(s)-1].median() / s[0].median()
}

// growthSection renders the growth section, markers included.
func growthSection(g *growthResults) string {
	var b strings.Builder
	p := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	xs := g.sizeLabels()
	p("%s\n## Cost growth on a real kube-apiserver: %s Pods\n\n", growthSectionStart, strings.Join(xs, ", "))
	var sizes []string
	for _, n := range g.Sizes {
		sizes = append(sizes, strconv.Itoa(n))
	}
	first := g.Runs[0]
	p("Written by `go run ./cmd/scalebench -sizes %s -rounds %d -events %d -changes %d -variants %s` (from `e2e/`); benchreport keeps this section as is.\n\n",
		strings.Join(sizes, ","), first.Rounds, first.Events, first.Changes, strings.Join(g.variants(), ","))
	p("- Date: %s; machine: %s, %d cores (GOMAXPROCS %d), %s RAM; Go %s; commit %s; peer k8s.io/client-go v0.37.2; total %s\n",
		g.Started.UTC().Format("2006-01-02 15:04 MST"), cpuModel(), runtime.NumCPU(), runtime.GOMAXPROCS(0), memTotal(), runtime.Version(), first.Commit, g.Duration.Round(time.Second))
	for _, r := range g.Runs {
		p("- %d Pods in %d namespaces (the population grown to this size, created in %s): load average (1, 5, 15 min) %s\n",
			r.Pods, r.Namespaces, (time.Duration(r.PopulateSeconds * float64(time.Second))).Round(time.Second), loadText(r))
	}
	p("\n**Method.** One control plane for the whole run; the Pods are those of the section above (the same seeded population: ")
	p("the Pods of a smaller size are the first ones of a larger), created up to the first size, every variant measured in every round as above, ")
	p("then the population grown to the next size and measured again (the unmeasured warm-up run is made at the first size only). ")
	p("Each figure is per Pod (the live heap and the time to HasSynced over the number of Pods), except the CPU per watch event, ")
	p("which is per event already (%d changed pods at every size). Medians over the rounds, spread (min–max) in brackets; ", first.Events)
	p("\"/ %s\" is the median at that size over the median at %s.\n\n", xs[0], xs[0])
	for _, gm := range growthMetrics {
		p("%s", g.growthTable(gm))
	}
	p("%s", g.growthGoals())
	for _, r := range g.Runs {
		p("\n%s", strings.Replace(goalTable(r, podGoals), "### Goals", fmt.Sprintf("### Issue 32's goals on Pods at %d Pods", r.Pods), 1))
	}
	if g.ran(variantClientGo) && g.ran(variantOurs) {
		live, sync := growthMetrics[0], growthMetrics[1]
		p("\nFirst line client-go, second ours (mermaid's xychart has no legend); the x axis is categorical, one step per size.\n\n")
		p("%s\n", xyChart("Real server: live heap per Pod (B)", live.unit, xs, g.perPod(variantClientGo, live), g.perPod(variantOurs, live)))
		p("%s", xyChart("Real server: time until HasSynced per Pod (µs)", sync.unit, xs, g.perPod(variantClientGo, sync), g.perPod(variantOurs, sync)))
	}
	p("%s\n", growthSectionEnd)
	return b.String()
}

// growthTable is one figure of every variant at every size.
func (g *growthResults) growthTable(gm growthMetric) string {
	var b strings.Builder
	p := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	xs := g.sizeLabels()
	p("### %s (%s)\n\n| Variant | %s | / client-go at each size | %s / %s |\n|---|%s---|---|\n",
		gm.title, gm.unit, strings.Join(xs, " | "), xs[len(xs)-1], xs[0], strings.Repeat("---|", len(xs)))
	cg := g.perPod(variantClientGo, gm)
	for _, v := range g.variants() {
		s := g.perPod(v, gm)
		var cells, rel []string
		for i := range s {
			cells = append(cells, s[i].summary())
			rel = append(rel, ratioCell(s[i], cg[i]))
		}
		growth := "–"
		if r := growthRatio(s); r > 0 {
			growth = format(r)
		}
		p("| %s | %s | %s | %s |\n", v, strings.Join(cells, " | "), strings.Join(rel, ", "), growth)
	}
	p("\n")
	return b.String()
}

// growthGoals is the linearity goal on ours' per-Pod heap and time to
// HasSynced, "not measured" when ours did not run at every size.
func (g *growthResults) growthGoals() string {
	var b strings.Builder
	xs := g.sizeLabels()
	fmt.Fprintf(&b, "### Goal: the cost of each Pod grows no faster than linearly, %s to %s\n\n", xs[0], xs[len(xs)-1])
	fmt.Fprintf(&b, "Met when ours' median per-Pod figure at %s is at most %.2fx the one at %s (client-go's for comparison).\n\n", xs[len(xs)-1], growthLimit, xs[0])
	b.WriteString("| Figure | ours: per Pod at the largest / smallest size | client-go: the same | Met |\n|---|---|---|---|\n")
	for _, gm := range growthMetrics {
		if !gm.goal {
			continue
		}
		if !g.ran(variantOurs) {
			fmt.Fprintf(&b, "| %s (%s) | not measured: ours was not run at every size | – | – |\n", gm.title, gm.unit)
			continue
		}
		o := growthRatio(g.perPod(variantOurs, gm))
		cg := "not run"
		if g.ran(variantClientGo) {
			cg = format(growthRatio(g.perPod(variantClientGo, gm)))
		}
		met := "no"
		if o > 0 && o <= growthLimit {
			met = "yes"
		}
		fmt.Fprintf(&b, "| %s (%s) | %s | %s | %s |\n", gm.title, gm.unit, format(o), cg, met)
	}
	return b.String()
}

// xyChart renders a mermaid xychart-beta line chart of one line per
// series list (the medians), over the categories xs.
func xyChart(title, yTitle string, xs []string, lines ...[]series) string {
	var b strings.Builder
	top := 0.0
	for _, l := range lines {
		for _, s := range l {
			top = max(top, s.median())
		}
	}
	fmt.Fprintf(&b, "```mermaid\nxychart-beta\n    title %q\n    x-axis %q [%s]\n    y-axis %q 0 --> %s\n",
		title, "Pods", strings.Join(xs, ", "), yTitle, format(top*1.15))
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

// writeGrowthSection puts the growth section into the file at path: in
// place of its marked block, else before "## Method", else at the end.
func writeGrowthSection(path string, g *growthResults) error {
	old, err := os.ReadFile(path)
	if err != nil && !os.IsNotExist(err) {
		return err
	}
	return os.WriteFile(path, []byte(spliceBetween(string(old), growthSection(g), growthSectionStart, growthSectionEnd)), 0o644)
}
