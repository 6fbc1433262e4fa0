package main

import (
	"context"
	"fmt"
	"log"
	"time"

	"k8s.io/client-go/kubernetes"

	"github.com/informer-gen/informer-gen/e2e/internal/cluster"
)

const (
	// settleWindow is how long kube-apiserver's CPU use is sampled while
	// waiting for it to settle after the population.
	settleWindow = 5 * time.Second
	// settleCores is the CPU use (cores) under which it counts as idle.
	settleCores = 0.2
	// settleLimit bounds the wait: a server that stays busy is measured
	// anyway, and the log says so.
	settleLimit = 2 * time.Minute
)

// settle waits until kube-apiserver (pid) is idle after the population,
// its CPU use over settleWindow under settleCores, so that the first
// variant of the first round does not pay for the server's work on the
// writes (in one run the first variant measured right after creating
// 50,000 Pods met a server that used 12.3 CPU-s to serve it, against 9.6
// CPU-s in the next round).
func settle(ctx context.Context, pid int) error {
	start := time.Now()
	prev, err := processCPU(pid)
	if err != nil {
		return err
	}
	for time.Since(start) < settleLimit {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(settleWindow):
		}
		cur, err := processCPU(pid)
		if err != nil {
			return err
		}
		if cores := (cur - prev) / settleWindow.Seconds(); cores < settleCores {
			log.Printf("kube-apiserver settled after %v (%.2f cores)", time.Since(start).Round(time.Second), cores)
			return nil
		}
		prev = cur
	}
	log.Printf("kube-apiserver still busy after %v; measuring anyway", settleLimit)
	return nil
}

// warmUp runs the first variant once, unmeasured, after kube-apiserver
// settled: the first informer to sync after the population cost
// kube-apiserver up to 1.6x the CPU of the later ones (3.95 against 2.5
// to 3.2 CPU-s for 20,000 pods, even after a list of every pod), which
// handicapped whichever variant ran first.
func warmUp(ctx context.Context, c *cluster.Cluster, cs kubernetes.Interface, pid int, pop workload, opts options) error {
	log.Printf("warm-up: %s (not measured)", opts.Variants[0])
	if _, err := runVariant(ctx, c, cs, pid, pop, opts, opts.Variants[0], -1); err != nil {
		return fmt.Errorf("warm-up run of %s: %w", opts.Variants[0], err)
	}
	return nil
}
