package main

import (
	"time"

	"github.com/informer-gen/informer-gen/bench/internal/dataset"
)

// peer and ours are the subject names the report compares.
const (
	peer = "clientgo"
	ours = "ours"
)

// results holds every value measured, per metric and subject, in round
// order.
type results struct {
	cfg      dataset.Config
	rounds   int
	duration time.Duration
	// loadBefore and loadAfter are the 1-minute load averages when the
	// rounds started and ended.
	loadBefore, loadAfter float64
	metrics               []metric
	values                map[string]map[string]series
	// generator is the generator comparison; nil when it was skipped.
	generator *generatorResults
}

func newResults(cfg dataset.Config, rounds int) *results {
	r := &results{cfg: cfg, rounds: rounds, values: map[string]map[string]series{}}
	for _, m := range measurements {
		for _, mt := range m.metrics {
			r.metrics = append(r.metrics, mt)
			r.values[mt.key] = map[string]series{}
		}
	}
	return r
}

// add records one run of m for subject.
func (r *results) add(m measurement, subject string, vals []float64) {
	for i, mt := range m.metrics {
		r.values[mt.key][subject] = append(r.values[mt.key][subject], vals[i])
	}
}

// get returns the values of metric key for subject.
func (r *results) get(key, subject string) series { return r.values[key][subject] }

// peerValues returns the client-go values metric m is compared with: those
// of m.peerKey when set, else of m itself.
func (r *results) peerValues(m metric) series {
	if m.peerKey != "" {
		return r.get(m.peerKey, peer)
	}
	return r.get(m.key, peer)
}

// metric returns the metric named key; the zero metric when there is none.
func (r *results) metric(key string) metric {
	for _, m := range r.metrics {
		if m.key == key {
			return m
		}
	}
	return metric{}
}
