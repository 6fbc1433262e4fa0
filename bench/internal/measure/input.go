// Package measure runs the measurements of the benchmarks against one
// subject (client-go's informer or ours) on shared, identical input. Each
// function starts its own informer and stops it (and every goroutine it
// started) before returning; none may run concurrently with another, since
// timings and heap figures are process-wide.
package measure

import (
	"runtime"

	corev1 "k8s.io/api/core/v1"

	"github.com/informer-gen/informer-gen/bench/internal/dataset"
)

// Input is the data every measurement reads: the initial list, built once
// and never modified (informers copy its items), and what the final state
// must be. Update events are built afresh by each measurement that feeds
// them, outside any timing, because feeding consumes them.
type Input struct {
	Config dataset.Config
	List   *corev1.ConfigMapList
	// Final is each object's resourceVersion once every update applied.
	Final []int64
	// ObjectBytes is the heap taken by one cached copy of an object (the
	// struct the reflectors allocate per listed item; strings and maps
	// stay shared with the list).
	ObjectBytes float64
	// Namespaces and Names are pre-built lister arguments: Names[i] is
	// object i, in namespace Namespaces[i mod len(Namespaces)].
	Namespaces []string
	Names      []string
}

// NewInput builds the input for cfg.
func NewInput(cfg dataset.Config) *Input {
	in := &Input{
		Config:     cfg,
		List:       cfg.List(),
		Final:      cfg.FinalVersions(),
		Namespaces: make([]string, cfg.Namespaces),
		Names:      make([]string, cfg.Objects),
	}
	for n := range in.Namespaces {
		in.Namespaces[n] = dataset.Namespace(n)
	}
	for i := range in.Names {
		in.Names[i] = dataset.Name(i)
	}
	in.ObjectBytes = copyBytes(in.List)
	return in
}

// copyBytes is the heap allocated per item by copying every item of list
// into its own allocation, as the reflectors' list extraction does.
func copyBytes(list *corev1.ConfigMapList) float64 {
	copies := make([]*corev1.ConfigMap, len(list.Items))
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for i := range list.Items {
		c := new(corev1.ConfigMap)
		*c = list.Items[i]
		copies[i] = c
	}
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(copies)
	return float64(after.TotalAlloc-before.TotalAlloc) / float64(len(copies))
}

// heapAlloc is the live heap after a full collection.
func heapAlloc() int64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return int64(m.HeapAlloc)
}
