package main

import (
	"context"
	"fmt"
	"log"
	"strconv"
	"strings"
	"time"

	"k8s.io/client-go/kubernetes"
)

// growthResults are the runs of a growth run (-sizes): one population
// grown from size to size on one control plane, every variant measured
// at each size.
type growthResults struct {
	// Sizes are the pod counts, increasing; Runs the measurements at
	// each, in the same order.
	Sizes []int
	Runs  []*results
	// Started is when the run began; Duration how long it took in all.
	Started  time.Time
	Duration time.Duration
}

// parseSizes parses -sizes: comma-separated pod counts, each positive and
// larger than the one before, at least two.
func parseSizes(s string) ([]int, error) {
	var sizes []int
	for _, f := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n <= 0 {
			return nil, fmt.Errorf("-sizes %q: %q is not a positive pod count", s, f)
		}
		if len(sizes) > 0 && n <= sizes[len(sizes)-1] {
			return nil, fmt.Errorf("-sizes %q: sizes must increase (%d after %d)", s, n, sizes[len(sizes)-1])
		}
		sizes = append(sizes, n)
	}
	if len(sizes) < 2 {
		return nil, fmt.Errorf("-sizes %q: give at least two sizes to compare", s)
	}
	return sizes, nil
}

// runGrowth starts a cluster and, for each of opts.Sizes, creates the
// pods the population of that size has beyond the previous one and
// measures every variant in every round. The populations are prefixes of
// one another (newPopulation draws each namespace's layout in order), so
// the pods of a size are those a run of that size alone would write. The
// warm-up run is made at the first size only: the server has served the
// earlier sizes' runs since. After each size it calls done with the
// results so far, so that a run stopped at a larger size keeps the
// smaller ones.
func runGrowth(ctx context.Context, opts options, done func(*growthResults) error) (*growthResults, error) {
	if resource, err := resourceOf(opts.Variants); err != nil {
		return nil, err
	} else if resource != resourcePods {
		return nil, fmt.Errorf("-sizes: the growth run writes Pods; run the %s variants without -sizes", resource)
	}
	g := &growthResults{Sizes: opts.Sizes, Started: time.Now()}
	c, cs, stop, err := startCluster(ctx, opts)
	if err != nil {
		return nil, err
	}
	defer stop()
	created := 0
	for i, n := range opts.Sizes {
		o := opts
		o.Pods, o.SkipWarmUp = n, i > 0
		res, err := growTo(ctx, c, cs, o, created)
		if err != nil {
			return nil, fmt.Errorf("%d pods: %w", n, err)
		}
		created = n
		g.Runs = append(g.Runs, res)
		g.Duration = time.Since(g.Started)
		if err := done(g); err != nil {
			return nil, err
		}
	}
	g.Duration = time.Since(g.Started)
	return g, nil
}

// growTo creates pods created..opts.Pods-1 of the population of
// opts.Pods and measures every variant at that size.
func growTo(ctx context.Context, c clusterHandle, cs kubernetes.Interface, opts options, created int) (*results, error) {
	start := time.Now()
	startLoad := loadAverage()
	pop := podWorkload{population: newPopulation(opts.Pods, opts.Namespaces), cs: cs}
	if err := pop.population.createFrom(ctx, cs, opts.Workers, created); err != nil {
		return nil, err
	}
	res := newRunResults(resourcePods, pop, opts, start, time.Since(start), startLoad)
	var err error
	if res.Managers, err = managersOf(ctx, pop); err != nil {
		return nil, err
	}
	log.Printf("growth: %d pods (%d created now), measuring %s", opts.Pods, opts.Pods-created, strings.Join(opts.Variants, ","))
	if err := measureRounds(ctx, c, cs, pop, opts, res); err != nil {
		return nil, err
	}
	res.Duration = time.Since(start)
	res.LoadAverages = append(res.LoadAverages, loadAverage())
	return res, nil
}
