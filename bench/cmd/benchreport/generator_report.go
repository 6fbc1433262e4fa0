package main

import (
	"context"
	"fmt"
	"log"
	"strings"
	"time"
)

// generatorGoal is the required ratio of our wall time to upstream
// informer-gen + lister-gen's.
const generatorGoal = 1.0 / 3

// generatorResults holds the per-round figures of the generator
// comparison: wall time in ms, CPU time in s, peak RSS in MiB.
type generatorResults struct {
	rounds                             int
	packages                           int
	codegenVersion, apiVersion         string
	duration                           time.Duration
	informerWall, listerWall, oursWall series
	informerCPU, listerCPU, oursCPU    series
	informerRSS, listerRSS, oursRSS    series
	upstreamFiles, oursFiles           int
}

// upstreamWall is informer-gen + lister-gen per round, as kube_codegen.sh
// runs them one after the other.
func (r *generatorResults) upstreamWall() series { return sum(r.informerWall, r.listerWall) }
func (r *generatorResults) upstreamCPU() series  { return sum(r.informerCPU, r.listerCPU) }

// upstreamRSS is the larger peak of the two processes per round.
func (r *generatorResults) upstreamRSS() series {
	out := make(series, len(r.informerRSS))
	for i := range out {
		out[i] = max(r.informerRSS[i], r.listerRSS[i])
	}
	return out
}

func sum(a, b series) series {
	out := make(series, len(a))
	for i := range out {
		out[i] = a[i] + b[i]
	}
	return out
}

// measureGenerators runs the generator comparison for rounds rounds after
// one untimed warm-up of each side, alternating which side goes first.
func measureGenerators(ctx context.Context, g *generatorBench, rounds int) (*generatorResults, error) {
	res := &generatorResults{rounds: rounds, packages: len(g.packages), codegenVersion: g.codegenVersion, apiVersion: g.apiVersion}
	started := time.Now()
	upstream := func(record bool) error {
		inf, lst, files, err := g.Upstream(ctx)
		if err != nil || !record {
			return err
		}
		res.upstreamFiles = files
		res.informerWall = append(res.informerWall, ms(inf.wall))
		res.listerWall = append(res.listerWall, ms(lst.wall))
		res.informerCPU = append(res.informerCPU, inf.cpu.Seconds())
		res.listerCPU = append(res.listerCPU, lst.cpu.Seconds())
		res.informerRSS = append(res.informerRSS, mib(inf.maxRSS))
		res.listerRSS = append(res.listerRSS, mib(lst.maxRSS))
		return nil
	}
	ours := func(record bool) error {
		r, files, err := g.Ours(ctx)
		if err != nil || !record {
			return err
		}
		res.oursFiles = files
		res.oursWall = append(res.oursWall, ms(r.wall))
		res.oursCPU = append(res.oursCPU, r.cpu.Seconds())
		res.oursRSS = append(res.oursRSS, mib(r.maxRSS))
		return nil
	}
	if err := upstream(false); err != nil {
		return nil, err
	}
	if err := ours(false); err != nil {
		return nil, err
	}
	for r := range rounds {
		first, second := upstream, ours
		if r%2 == 1 {
			first, second = ours, upstream
		}
		if err := first(true); err != nil {
			return nil, err
		}
		if err := second(true); err != nil {
			return nil, err
		}
		log.Printf("generator round %d/%d: informer-gen %.0f ms + lister-gen %.0f ms, ours %.0f ms",
			r+1, rounds, res.informerWall[r], res.listerWall[r], res.oursWall[r])
	}
	res.duration = time.Since(started)
	return res, nil
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
func mib(b int64) float64        { return float64(b) / (1 << 20) }

// writeGeneratorSection appends the Generator section of the report.
func writeGeneratorSection(b *strings.Builder, r *generatorResults) {
	p := func(format string, args ...any) { fmt.Fprintf(b, format, args...) }
	p("## Generator\n\n")
	p("Upstream `informer-gen` and `lister-gen` of k8s.io/code-generator %s (built from `bench/tools`), run one after the other the way `kube_codegen.sh` runs them, ", r.codegenVersion)
	p("against one run of our `informer-gen` (informers and listers), on the %d packages of k8s.io/api %s with a `+genclient` type ", r.packages, r.apiVersion)
	p("(found as `kube_codegen.sh` finds them), with `k8s.io/client-go/kubernetes` as the clientset, in a scratch module. ")
	p("Each run writes into an emptied folder. One untimed warm-up of each, then %d rounds, the side going first alternating; total %s. ", r.rounds, r.duration.Round(time.Second))
	p("Median with the spread (min–max); ratios computed per round. Each generator runs under GNU time (`/usr/bin/time`), which gives its CPU time and peak RSS (`ru_maxrss`; measured from benchreport itself it would start at benchreport's own peak, since Go starts children sharing its memory until exec); for upstream the peak is the larger of the two processes.\n\n")
	p("| Measurement | Unit | informer-gen | lister-gen | informer-gen + lister-gen | ours | ours / upstream |\n")
	p("|---|---|---|---|---|---|---|\n")
	row := func(title, unit string, inf, lst, up, o series) {
		p("| %s | %s | %s | %s | %s | %s | %s |\n", title, unit, inf.summary(), lst.summary(), up.summary(), o.summary(), ratios(o, up).summary())
	}
	row("Wall time", "ms", r.informerWall, r.listerWall, r.upstreamWall(), r.oursWall)
	row("CPU time (user + system)", "s", r.informerCPU, r.listerCPU, r.upstreamCPU(), r.oursCPU)
	row("Peak RSS", "MiB", r.informerRSS, r.listerRSS, r.upstreamRSS(), r.oursRSS)
	p("| Go files written | files | | | %d | %d | |\n\n", r.upstreamFiles, r.oursFiles)

	ratio := ratios(r.oursWall, r.upstreamWall()).median()
	verdict := "no"
	if ratio <= generatorGoal {
		verdict = "yes"
	}
	p("| Goal | ours / upstream (median) | Met |\n|---|---|---|\n")
	p("| Generator wall time: at most a third of informer-gen + lister-gen (ratio ≤ 0.33) | %s | %s |\n\n", format(ratio), verdict)
}
