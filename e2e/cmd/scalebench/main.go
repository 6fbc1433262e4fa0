package main

import (
	"context"
	"encoding/json"
	"flag"
	"log"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/informer-gen/informer-gen/e2e/internal/cluster"
)

func main() {
	if isChild(os.Args[1:]) {
		os.Exit(childMain(os.Args[1:], os.Stdin, os.Stdout))
	}
	pods := flag.Int("pods", 50000, "pods to create")
	namespaces := flag.Int("namespaces", 50, "namespaces to spread the pods over")
	workers := flag.Int("workers", 32, "concurrent writers while creating the pods")
	rounds := flag.Int("rounds", 3, "rounds of every variant, the order reversing each round")
	variants := flag.String("variants", strings.Join(allVariants, ","), "comma-separated variants to run; the custom-resource variants ("+strings.Join(routeVariants, ",")+") run on their own, and -pods is then the number of HTTPRoutes")
	changes := flag.Int("changes", 200, "pods changed while an informer is cut off, before the compaction")
	events := flag.Int("events", 2000, "pods changed while an informer's CPU time per watch event is measured")
	out := flag.String("out", "", "Markdown file whose scalebench section to write (default: docs/benchmarks.md of the repository)")
	raw := flag.String("json", "", "also write every measurement as JSON to this file")
	fromJSON := flag.String("from-json", "", "do not measure: rewrite the section from a file written by -json")
	sizes := flag.String("sizes", "", "a growth run: comma-separated increasing pod counts (e.g. 10000,50000,100000); one population grown through them, every variant measured at each; writes the cost-growth section instead (-pods is ignored)")
	flag.Parse()
	log.SetFlags(log.Ltime)

	if *out == "" {
		root, err := cluster.RepoRoot()
		if err != nil {
			log.Fatal(err)
		}
		*out = filepath.Join(root, "docs", "benchmarks.md")
	}
	if *fromJSON != "" {
		if err := rewriteFromJSONFile(*out, *fromJSON); err != nil {
			log.Fatal(err)
		}
		log.Printf("wrote the scalebench section of %s from %s", *out, *fromJSON)
		return
	}
	exe, err := os.Executable()
	if err != nil {
		log.Fatal(err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	opts := options{
		Pods: *pods, Namespaces: *namespaces, Workers: *workers, Rounds: *rounds,
		Variants: strings.Split(*variants, ","), Changes: *changes, Events: *events, Child: []string{exe},
	}
	if *sizes != "" {
		if opts.Sizes, err = parseSizes(*sizes); err != nil {
			log.Fatal(err)
		}
		growthMain(ctx, opts, *out, *raw)
		return
	}
	res, err := run(ctx, opts)
	if err != nil {
		log.Fatal(err)
	}
	if err := writeResults(*out, *raw, res); err != nil {
		log.Fatal(err)
	}
	log.Printf("wrote the scalebench section of %s (%s in all)", *out, res.Duration.Round(1e9))
}

// rewriteFromJSONFile rewrites the scalebench section of out from the
// measurements a run wrote to the file raw (-json).
func rewriteFromJSONFile(out, raw string) error {
	data, err := os.ReadFile(raw)
	if err != nil {
		return err
	}
	return rewriteFromJSON(out, data)
}

// writeResults writes res to the file raw as JSON when raw is not empty,
// and its section of out.
func writeResults(out, raw string, res *results) error {
	if raw != "" {
		data, err := json.MarshalIndent(res, "", "  ")
		if err != nil {
			return err
		}
		if err := os.WriteFile(raw, data, 0o644); err != nil {
			return err
		}
	}
	return writeSection(out, res)
}

// rewriteFromJSON rewrites the section that the measurements in data (a
// file -json wrote) belong to: the growth section for a growth run's.
func rewriteFromJSON(out string, data []byte) error {
	var g growthResults
	if err := json.Unmarshal(data, &g); err == nil && len(g.Runs) > 0 {
		return writeGrowthSection(out, &g)
	}
	var res results
	if err := json.Unmarshal(data, &res); err != nil {
		return err
	}
	return writeSection(out, &res)
}

// growthMain runs a growth run and writes its section of out, and its
// measurements to raw when set.
func growthMain(ctx context.Context, opts options, out, raw string) {
	g, err := runGrowth(ctx, opts, func(g *growthResults) error {
		if raw != "" {
			data, err := json.MarshalIndent(g, "", "  ")
			if err != nil {
				return err
			}
			if err := os.WriteFile(raw, data, 0o644); err != nil {
				return err
			}
		}
		if len(g.Runs) < 2 {
			return nil
		}
		log.Printf("growth: wrote the section of %s for %d sizes", out, len(g.Runs))
		return writeGrowthSection(out, g)
	})
	if err != nil {
		log.Fatal(err)
	}
	log.Printf("wrote the growth section of %s (%s in all)", out, g.Duration.Round(1e9))
}
