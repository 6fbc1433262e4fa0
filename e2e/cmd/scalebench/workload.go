package main

import (
	"context"
	"fmt"
	"log"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
)

// The resources a run can write and watch.
const (
	resourcePods       = "pods"
	resourceHTTPRoutes = "httproutes"
)

// workload is what a run writes before it measures and then changes while
// it measures: the Pods (podWorkload) or the HTTPRoutes (routeWorkload).
type workload interface {
	// resource names the objects: resourcePods or resourceHTTPRoutes.
	resource() string
	// size is the number of objects, namespaceCount that of their
	// namespaces.
	size() int
	namespaceCount() int
	// ref is the namespace and name of object i.
	ref(i int) (namespace, name string)
	// create writes every object as the components that write them in a
	// cluster would, workers requests at once.
	create(ctx context.Context, workers int) error
	// label applies the JSON merge patch to object namespace/name and
	// returns its uid and new resourceVersion.
	label(ctx context.Context, namespace, name string, patch []byte) (types.UID, string, error)
	// managedFields reads the managedFields of object namespace/name on
	// the server.
	managedFields(ctx context.Context, namespace, name string) ([]metav1.ManagedFieldsEntry, error)
}

// resourceOf is the resource variants watch: all of them Pods, or all of
// them HTTPRoutes (the httproute-* variants); a run cannot mix the two.
func resourceOf(variants []string) (string, error) {
	if len(variants) == 0 {
		return "", fmt.Errorf("no variants to run")
	}
	routes := 0
	for _, v := range variants {
		if isRouteVariant(v) {
			routes++
		}
	}
	switch routes {
	case 0:
		return resourcePods, nil
	case len(variants):
		return resourceHTTPRoutes, nil
	}
	return "", fmt.Errorf("variants %s: the httproute-* variants watch HTTPRoutes and the others Pods; run them separately", strings.Join(variants, ","))
}

// newWorkload is the workload of resource for opts: opts.Pods objects in
// opts.Namespaces namespaces, written through cfg and cs.
func newWorkload(resource string, cfg *rest.Config, cs kubernetes.Interface, opts options) (workload, error) {
	if resource == resourceHTTPRoutes {
		return newRouteWorkload(cfg, cs, opts.Pods, opts.Namespaces)
	}
	return podWorkload{population: newPopulation(opts.Pods, opts.Namespaces), cs: cs}, nil
}

// podWorkload is the Pods of a population, written through cs.
type podWorkload struct {
	population
	cs kubernetes.Interface
}

func (w podWorkload) resource() string    { return resourcePods }
func (w podWorkload) size() int           { return w.n }
func (w podWorkload) namespaceCount() int { return len(w.namespaces) }

func (w podWorkload) create(ctx context.Context, workers int) error {
	return w.population.create(ctx, w.cs, workers)
}

// label patches pod namespace/name as the ReplicaSet controller's
// manager.
func (w podWorkload) label(ctx context.Context, namespace, name string, patch []byte) (types.UID, string, error) {
	p, err := w.cs.CoreV1().Pods(namespace).Patch(ctx, name, types.MergePatchType, patch, metav1.PatchOptions{FieldManager: controllerManager})
	if err != nil {
		return "", "", err
	}
	return p.UID, p.ResourceVersion, nil
}

func (w podWorkload) managedFields(ctx context.Context, namespace, name string) ([]metav1.ManagedFieldsEntry, error) {
	p, err := w.cs.CoreV1().Pods(namespace).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return nil, err
	}
	return p.ManagedFields, nil
}

// createEach runs one(i) for every i below n, workers at once, stopping
// at the first error, and logs the progress of the resource every few
// seconds.
func createEach(ctx context.Context, n, workers int, resource string, one func(ctx context.Context, i int) error) error {
	var (
		next, done atomic.Int64
		firstErr   error
		errOnce    sync.Once
		wg         sync.WaitGroup
	)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	start := time.Now()
	progress := time.NewTicker(5 * time.Second)
	defer progress.Stop()
	finished := make(chan struct{})
	go func() {
		for {
			select {
			case <-finished:
				return
			case <-progress.C:
				d := done.Load()
				log.Printf("populate: %d/%d %s (%.0f/s)", d, n, resource, float64(d)/time.Since(start).Seconds())
			}
		}
	}()
	for range max(1, workers) {
		wg.Go(func() {
			for i := int(next.Add(1) - 1); i < n && ctx.Err() == nil; i = int(next.Add(1) - 1) {
				if err := one(ctx, i); err != nil {
					errOnce.Do(func() { firstErr = err; cancel() })
					return
				}
				done.Add(1)
			}
		})
	}
	wg.Wait()
	close(finished)
	if firstErr != nil {
		return firstErr
	}
	return ctx.Err()
}

// loadAverage is the first three fields of /proc/loadavg (1, 5 and 15
// minutes), or "unknown".
func loadAverage() string {
	data, err := os.ReadFile("/proc/loadavg")
	if f := strings.Fields(string(data)); err == nil && len(f) >= 3 {
		return strings.Join(f[:3], " ")
	}
	return "unknown"
}
