package main

import (
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"time"
)

// populationSeed seeds the layout of every run: the same flags give the
// same ReplicaSets, names, images, volumes and timestamps.
const populationSeed = 21

// replicaSetSizes are the sizes a ReplicaSet of the population is drawn
// from, with their weights (in ReplicaSets, not Pods): as in a real
// cluster, most Deployments run one to three replicas and a few run tens.
// The expected size is 3.95 Pods, so about 10% of the Pods are alone in
// their ReplicaSet and 30% are in one of 30.
var replicaSetSizes = []struct{ size, weight int }{
	{1, 40}, {2, 20}, {3, 15}, {5, 12}, {10, 9}, {30, 4},
}

// statusEpoch is the fixed start of the window the Pods' status times
// (conditions, start times) are drawn from; a fixed date keeps the
// population deterministic.
var statusEpoch = time.Date(2026, time.October, 1, 0, 0, 0, 0, time.UTC)

// statusWindow is the width of that window: a month of Pod starts.
const statusWindow = 30 * 24 * time.Hour

// randomAlphabet is the alphabet of k8s.io/apimachinery's
// util/rand.String, which names a ReplicaSet's Pods and the
// kube-api-access volumes.
const randomAlphabet = "bcdfghjklmnpqrstvwxz2456789"

// namespaceLayout is the ReplicaSets of one namespace.
type namespaceLayout struct {
	// rsOf is the ReplicaSet of the namespace's j-th Pod.
	rsOf []int32
	// start is each Pod's start time (its first condition).
	start []time.Time
}

// newNamespaceLayout draws the ReplicaSets of pods Pods of namespace ns:
// consecutive Pods share a ReplicaSet, whose size is drawn from
// replicaSetSizes (the last one is cut to what is left). Each ReplicaSet
// was rolled out at a time of its own; its Pods started within a minute of
// it, each at its own second.
func newNamespaceLayout(ns string, pods int) namespaceLayout {
	rng := rand.New(rand.NewPCG(populationSeed, fnvOf(ns)))
	total := 0
	for _, s := range replicaSetSizes {
		total += s.weight
	}
	l := namespaceLayout{rsOf: make([]int32, 0, pods), start: make([]time.Time, 0, pods)}
	for rs := int32(0); len(l.rsOf) < pods; rs++ {
		size, w := 0, rng.IntN(total)
		for _, s := range replicaSetSizes {
			if w < s.weight {
				size = s.size
				break
			}
			w -= s.weight
		}
		rollout := statusEpoch.Add(time.Duration(rng.Int64N(int64(statusWindow/time.Second))) * time.Second)
		for k := 0; k < size && len(l.rsOf) < pods; k++ {
			l.rsOf = append(l.rsOf, rs)
			l.start = append(l.start, rollout.Add(time.Duration(k+rng.IntN(60))*time.Second))
		}
	}
	return l
}

// randomSuffix is a 5-character suffix in the alphabet of
// util/rand.String, distinct for distinct j below 27^5 (a bijection
// scrambled by salt): a Pod's name and its kube-api-access volume.
func randomSuffix(j int, salt uint64) string {
	const n = 27 * 27 * 27 * 27 * 27
	// 7,919 is prime and not 3, so multiplying by it permutes Z/27^5.
	v := (uint64(j)*7919 + salt) % n
	var b [5]byte
	for k := range b {
		b[k] = randomAlphabet[v%27]
		v /= 27
	}
	return string(b[:])
}

// templateHash is a stable stand-in for a Deployment's pod-template-hash.
func templateHash(ns string, rs int) string {
	h := fnv.New32a()
	fmt.Fprintf(h, "%s/%d", ns, rs)
	return fmt.Sprintf("%08x", h.Sum32())[:8]
}

func fnvOf(s string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(s))
	return h.Sum64()
}
