// Command benchreport runs the informer benchmarks of package bench in
// alternating rounds, client-go's informer and ours on identical input, and
// writes docs/benchmarks.md (a table of ours/peer ratios with medians and
// spreads, the machine, the Go version and the commit) and a chart of
// events/s and memory.
//
// With -generator (the default) it then compares the generators: upstream
// informer-gen + lister-gen (k8s.io/code-generator, pinned in bench/tools)
// against ours on every +genclient package of k8s.io/api, wall time, CPU
// time and peak RSS, in alternating rounds (generator.go).
//
// With -growth 10000,100000,1000000 it measures instead the cost growth
// (growth.go): the time to sync and the heap per object at each size,
// client-go and ours, and writes only the section "Cost growth in memory"
// of -out, with mermaid charts and issue 32's linearity goal.
//
// Usage (from bench/): go run ./cmd/benchreport [-rounds 5] [-small] [-generator=false]
//
//	go run ./cmd/benchreport -growth 10000,100000,1000000 -rounds 3
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"testing"
	"time"

	"github.com/informer-gen/informer-gen/bench/internal/dataset"
	"github.com/informer-gen/informer-gen/bench/internal/measure"
	"github.com/informer-gen/informer-gen/bench/internal/subject"
)

func main() {
	rounds := flag.Int("rounds", 5, "rounds of every measurement, each running both implementations")
	small := flag.Bool("small", false, "use the small dataset (1k objects) instead of 100k")
	out := flag.String("out", "../docs/benchmarks.md", "Markdown report to write")
	chart := flag.String("chart", "../docs/benchmarks.png", "chart to write (.png or .svg)")
	profile := flag.String("profile", "", "directory for CPU profiles of the timed phases and heap profiles at the heap measurements (last round wins)")
	benchtime := flag.Duration("benchtime", time.Second, "time per lister benchmark")
	generator := flag.Bool("generator", true, "after the runtime rounds, compare the generators: upstream informer-gen + lister-gen against ours on all of k8s.io/api")
	generatorRounds := flag.Int("generator-rounds", 5, "rounds of the generator comparison")
	toolsDir := flag.String("tools", "tools", "module pinning the upstream generators (bench/tools)")
	rootDir := flag.String("root", "..", "root of the informer-gen repository, where ./cmd/informer-gen is built")
	growth := flag.String("growth", "", "instead of the report, measure the cost growth at these comma-separated object counts (e.g. 10000,100000,1000000) and write only the growth section of -out")
	flag.Parse()
	testing.Init()
	if err := flag.Set("test.benchtime", benchtime.String()); err != nil {
		log.Fatal(err)
	}

	if *growth != "" {
		if err := growthMain(*growth, *rounds, *out); err != nil {
			log.Fatal(err)
		}
		return
	}
	cfg := dataset.Full
	if *small {
		cfg = dataset.Small
	}
	if *profile != "" {
		if err := os.MkdirAll(*profile, 0o755); err != nil {
			log.Fatal(err)
		}
		measure.SetHooks(profileHooks(*profile))
	}
	started := time.Now()
	in := measure.NewInput(cfg)
	res := newResults(cfg, *rounds)
	res.loadBefore = loadAverage()
	ctx := context.Background()
	runRounds(ctx, in, res, *rounds)
	res.duration = time.Since(started)
	if *generator {
		var err error
		if res.generator, err = compareGenerators(ctx, *rootDir, *toolsDir, *generatorRounds); err != nil {
			log.Fatal(err)
		}
	}
	res.loadAfter = loadAverage()
	if err := writeReport(*out, res); err != nil {
		log.Fatal(err)
	}
	if err := writeChart(*chart, res); err != nil {
		log.Fatal(err)
	}
	log.Printf("wrote %s and %s in %s", *out, *chart, time.Since(started).Round(time.Second))
}

// compareGenerators measures upstream informer-gen + lister-gen against
// ours (built from rootDir) on all of k8s.io/api, for rounds rounds.
func compareGenerators(ctx context.Context, rootDir, toolsDir string, rounds int) (*generatorResults, error) {
	log.Printf("generator comparison: building the generators and preparing k8s.io/api")
	g, err := newGeneratorBench(ctx, rootDir, toolsDir, moduleVersion("k8s.io/api"))
	if err != nil {
		return nil, err
	}
	defer g.Close()
	return measureGenerators(ctx, g, rounds)
}

// growthMain measures the cost growth at the sizes listed in spec and
// writes the growth section of out.
func growthMain(spec string, rounds int, out string) error {
	sizes, err := parseSizes(spec)
	if err != nil {
		return err
	}
	g, err := runGrowth(context.Background(), sizes, rounds)
	if err != nil {
		return err
	}
	if err := writeGrowthSection(out, g); err != nil {
		return err
	}
	log.Printf("wrote the growth section of %s in %s", out, time.Since(g.started).Round(time.Second))
	return nil
}

// runRounds runs every measurement of both implementations in each of
// rounds rounds into res, the first of the pair alternating.
func runRounds(ctx context.Context, in *measure.Input, res *results, rounds int) {
	for r := range rounds {
		subjects := subject.All()
		if r%2 == 1 {
			subjects[0], subjects[1] = subjects[1], subjects[0]
		}
		log.Printf("round %d/%d (%s first)", r+1, rounds, subjects[0].Name)
		for _, m := range measurements {
			for _, subj := range subjects {
				if m.oursOnly && subj.Name != ours {
					continue
				}
				vals, err := m.run(ctx, in, subj)
				if err != nil {
					log.Fatalf("%s/%s: %v", m.name, subj.Name, err)
				}
				res.add(m, subj.Name, vals)
			}
		}
	}
}

// profileHooks writes CPU profiles of timed phases and heap profiles at
// heap measurements into dir, one file per phase name.
func profileHooks(dir string) measure.Hooks {
	return measure.Hooks{
		Timed: func(name string) func() {
			f, err := os.Create(filepath.Join(dir, name+".cpu.pprof"))
			if err != nil {
				log.Fatal(err)
			}
			if err := pprof.StartCPUProfile(f); err != nil {
				log.Fatal(err)
			}
			return func() {
				pprof.StopCPUProfile()
				if err := f.Close(); err != nil {
					log.Fatal(err)
				}
			}
		},
		Peak: func(name string) {
			f, err := os.Create(filepath.Join(dir, name+".heap.pprof"))
			if err != nil {
				log.Fatal(err)
			}
			defer f.Close()
			runtime.GC()
			if err := pprof.Lookup("heap").WriteTo(f, 0); err != nil {
				log.Fatal(err)
			}
		},
	}
}

// measurement is one benchmark of the report; run returns one value per
// metric.
type measurement struct {
	name    string
	metrics []metric
	run     func(ctx context.Context, in *measure.Input, subj subject.Subject) ([]float64, error)
	// oursOnly runs the measurement only in ours' turn of a round: a
	// variant of ours compared with client-go figures another measurement
	// took (metric.peerKey).
	oursOnly bool
}

// metric describes one reported figure.
type metric struct {
	key, title, unit string
	// higherIsBetter orients the ratio: goals are stated on ours/peer.
	higherIsBetter bool
	// goal, when set, is the required ratio ours/peer, with goalText
	// describing it.
	goal     float64
	goalText string
	// strictGoal requires the ratio to be strictly below goal.
	strictGoal bool
	// peerKey, when set, is the metric whose client-go values this one is
	// compared with (for measurements run only for ours).
	peerKey string
}

var measurements = []measurement{
	{
		name:    "Sync",
		metrics: []metric{{key: "sync", title: "Time until HasSynced", unit: "ms", goal: 0.5, goalText: "initial sync ≥2x faster (ratio ≤ 0.50)"}},
		run: func(ctx context.Context, in *measure.Input, subj subject.Subject) ([]float64, error) {
			d, err := measure.Sync(ctx, in, subj)
			return []float64{float64(d.Microseconds()) / 1000}, err
		},
	},
	{
		name:    "Updates1",
		metrics: []metric{{key: "updates1", title: "Update events/s, 1 handler", unit: "events/s", higherIsBetter: true, goal: 3, goalText: "≥3x client-go's events/s (ratio ≥ 3.00)"}},
		run:     updates(1),
	},
	{
		name:    "Updates4",
		metrics: []metric{{key: "updates4", title: "Update events/s, 4 handlers", unit: "events/s", higherIsBetter: true, goal: 3, goalText: "≥3x client-go's events/s (ratio ≥ 3.00)"}},
		run:     updates(4),
	},
	{
		name:    "Overhead",
		metrics: []metric{{key: "overhead", title: "Heap per cached object beyond the object", unit: "B/object", goal: 0.7, goalText: "≤70% of client-go's (ratio ≤ 0.70)"}},
		run: func(ctx context.Context, in *measure.Input, subj subject.Subject) ([]float64, error) {
			v, err := measure.Overhead(ctx, in, subj)
			return []float64{v}, err
		},
	},
	{
		name: "Stalled",
		metrics: []metric{
			{key: "stalled", title: "Heap growth with 1 stalled handler", unit: "MiB", goal: 0.1, strictGoal: true, goalText: "under a tenth of client-go's (ratio < 0.10)"},
			{key: "stalledcalls", title: "Updates delivered to the stalled handler once released", unit: "calls"},
		},
		run: stalled,
	},
	{
		// The same stall with the stalled handler registered with
		// cache.HandlerOptions{LatestOnly: true}; measure.Stalled still
		// fails unless both handlers end with the final state.
		name:     "StalledLatestOnly",
		oursOnly: true,
		metrics: []metric{
			{key: "stalledlatest", title: "Heap growth with 1 stalled handler, ours with LatestOnly", unit: "MiB", goal: 0.1, strictGoal: true, goalText: "under a tenth of client-go's (ratio < 0.10)", peerKey: "stalled"},
			{key: "stalledcallslatest", title: "Updates delivered to the stalled handler once released, ours with LatestOnly", unit: "calls", peerKey: "stalledcalls"},
		},
		run: func(ctx context.Context, in *measure.Input, _ subject.Subject) ([]float64, error) {
			return stalled(ctx, in, subject.OursLatestOnly())
		},
	},
	{
		name:    "LiveHeapConfigMap",
		metrics: []metric{{key: "liveheapcm", title: "Live heap per cached ConfigMap, each decoded from its own JSON", unit: "B/object"}},
		run:     liveHeap(measure.ConfigMaps),
	},
	{
		name:    "LiveHeapWidget",
		metrics: []metric{{key: "liveheapwidget", title: "Live heap per cached Widget (examples/crd), each decoded from its own JSON", unit: "B/object"}},
		run:     liveHeap(measure.Widgets),
	},
	{
		name: "ListerList",
		metrics: []metric{
			{key: "listns", title: "Lister List of one namespace", unit: "ns/op"},
			{key: "listallocs", title: "Lister List allocations", unit: "allocs/op"},
		},
		run: lister(measure.ListerList),
	},
	{
		name: "ListerGet",
		metrics: []metric{
			{key: "getns", title: "Lister Get", unit: "ns/op"},
			{key: "getallocs", title: "Lister Get allocations", unit: "allocs/op"},
		},
		run: lister(measure.ListerGet),
	},
}

// uncompactedMeasurements are ours without compaction (issue 21) beside
// client-go's figures of the same measurements: the time to sync, the
// events/s and the live heaps of today's cache. None while the runtime has
// no compaction switch.
func uncompactedMeasurements() []measurement {
	unc, ok := subject.OursUncompacted()
	if !ok {
		return nil
	}
	only := func(run func(context.Context, *measure.Input, subject.Subject) ([]float64, error)) func(context.Context, *measure.Input, subject.Subject) ([]float64, error) {
		return func(ctx context.Context, in *measure.Input, _ subject.Subject) ([]float64, error) {
			return run(ctx, in, unc)
		}
	}
	var ms []measurement
	for _, m := range measurements {
		switch m.name {
		case "Sync", "Updates1", "LiveHeapConfigMap", "LiveHeapWidget":
			mt := m.metrics[0]
			ms = append(ms, measurement{name: m.name + "Uncompacted", oursOnly: true, run: only(m.run), metrics: []metric{{
				key: mt.key + "uncompacted", title: mt.title + ", ours without compaction", unit: mt.unit, higherIsBetter: mt.higherIsBetter, peerKey: mt.key,
			}}})
		}
	}
	return ms
}

func init() { measurements = append(measurements, uncompactedMeasurements()...) }

func liveHeap(kind measure.Kind) func(context.Context, *measure.Input, subject.Subject) ([]float64, error) {
	return func(ctx context.Context, in *measure.Input, subj subject.Subject) ([]float64, error) {
		v, err := measure.LiveHeap(ctx, in.Config, kind, subj)
		return []float64{v}, err
	}
}

func stalled(ctx context.Context, in *measure.Input, subj subject.Subject) ([]float64, error) {
	r, err := measure.Stalled(ctx, in, subj)
	return []float64{float64(r.Growth) / (1 << 20), float64(r.StalledCalls)}, err
}

func updates(handlers int) func(context.Context, *measure.Input, subject.Subject) ([]float64, error) {
	return func(ctx context.Context, in *measure.Input, subj subject.Subject) ([]float64, error) {
		r, err := measure.Updates(ctx, in, subj, handlers)
		return []float64{r.EventsPerSec}, err
	}
}

func lister(f func(*testing.B, *measure.Input, subject.Lister)) func(context.Context, *measure.Input, subject.Subject) ([]float64, error) {
	return func(ctx context.Context, in *measure.Input, subj subject.Subject) ([]float64, error) {
		l, stop, err := measure.SyncedLister(ctx, in, subj)
		if err != nil {
			return nil, err
		}
		defer stop()
		r := testing.Benchmark(func(b *testing.B) { f(b, in, l) })
		if r.N == 0 {
			return nil, fmt.Errorf("benchmark failed")
		}
		return []float64{float64(r.NsPerOp()), float64(r.AllocsPerOp())}, nil
	}
}
