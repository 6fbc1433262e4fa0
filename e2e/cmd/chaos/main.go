// Command chaos is the long form of informer-gen's chaos soak
// (e2e/internal/chaos; TestChaosSoak is its 2-minute form): it starts etcd
// and kube-apiserver on 127.0.0.1 with ShardedListAndWatch on, runs three
// replicas of the example controller as processes on a Lease ring under
// churn, injects seeded rounds of faults for -duration, checks every
// invariant, and writes its figures to the section "Figures" of
// docs/chaos.md.
//
// Usage, from e2e/ (or SCALE=1 ./hack/bench.sh, which runs it for
// CHAOS_DURATION, 30m by default):
//
//	go run ./cmd/chaos -duration 30m [-seed N] [-together 3] [-out ../docs/chaos.md]
//
// It exits 1 when an invariant was violated (each violation is printed
// with the seed; -seed N replays the schedule), 2 when the soak could not
// run.
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"github.com/informer-gen/informer-gen/e2e/internal/chaos"
	"github.com/informer-gen/informer-gen/e2e/internal/cluster"
)

func main() {
	if chaos.IsReplica() {
		os.Exit(chaos.ReplicaMain())
	}
	duration := flag.Duration("duration", 30*time.Minute, "how long faults are injected")
	seed := flag.Uint64("seed", 0, "seed of the fault schedule and the writes; 0 draws one from the clock")
	together := flag.Int("together", 3, "most faults injected together in one round")
	population := flag.Int("population", 40, "Widgets, Pods and ConfigMaps the writer keeps about, of each")
	rate := flag.Float64("rate", 20, "churn writes per second")
	out := flag.String("out", "", "Markdown file whose figures section to write (default: docs/chaos.md of the repository; - for none)")
	dir := flag.String("dir", "", "directory for the replicas' configuration, journals and logs (default: a new temporary one, kept)")
	flag.Parse()
	log.SetFlags(log.Ltime)
	os.Exit(run(options{duration: *duration, seed: *seed, together: *together, population: *population, rate: *rate, out: *out, dir: *dir, commit: builtFrom()}))
}

type options struct {
	duration   time.Duration
	seed       uint64
	together   int
	population int
	rate       float64
	out, dir   string
	// commit is the code's commit (builtFrom), taken when the run starts.
	commit string
}

// run starts the control plane, runs the soak and writes its figures; it
// returns the exit code.
func run(o options) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if o.seed == 0 {
		o.seed = uint64(time.Now().UnixNano())
	}
	if o.out == "" {
		root, err := cluster.RepoRoot()
		if err != nil {
			log.Print(err)
			return 2
		}
		o.out = filepath.Join(root, "docs", "chaos.md")
	}
	if o.dir == "" {
		d, err := os.MkdirTemp("", "informer-gen-chaos-")
		if err != nil {
			log.Print(err)
			return 2
		}
		o.dir = d
	}
	log.Printf("seed %d (replay: go run ./cmd/chaos -seed %d -duration %v); replica files in %s", o.seed, o.seed, o.duration, o.dir)
	c, err := cluster.Start(ctx, cluster.Options{FeatureGates: []string{"ShardedListAndWatch=true"}})
	if err != nil {
		log.Print(err)
		return 2
	}
	defer func() {
		if err := c.Stop(); err != nil {
			log.Print(err)
		}
	}()
	res, err := chaos.Run(ctx, chaos.Options{Cluster: c, Seed: o.seed, Duration: o.duration, Dir: o.dir,
		MaxTogether: o.together, Population: o.population, Rate: o.rate, Logf: log.Printf})
	if err != nil {
		log.Printf("seed %d: %v", o.seed, err)
		return 2
	}
	fmt.Println(res.Summary())
	for _, v := range res.Violations {
		fmt.Println("VIOLATION", v)
	}
	if o.out != "-" {
		if err := writeFigures(o.out, figures(res, o)); err != nil {
			log.Print(err)
			return 2
		}
		log.Printf("wrote the figures to %s", o.out)
	}
	if len(res.Violations) > 0 {
		return 1
	}
	return 0
}
