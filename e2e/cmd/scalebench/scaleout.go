package main

import (
	"fmt"
	"slices"
	"strings"
)

// The scale-out section: what one replica of N holds and receives, N = 1
// (the ours variant) to 4 (ours-shard-N), from the same measurements as
// the other tables.

// metricInitialBytes is the body bytes of the pod responses a child read
// until HasSynced.
var metricInitialBytes = metric{"Bytes received for the initial list (pod response bodies until HasSynced)", "MiB",
	func(m measurement) float64 { return mib(uint64(m.Synced.InitialBytes)) }}

// metricObjects is the number of pods cached after the initial sync.
var metricObjects = metric{"Pods cached after sync", "pods", func(m measurement) float64 { return float64(m.Synced.Objects) }}

// scaleOutHeapLimit is the goal's factor: each of N replicas holds at most
// scaleOutHeapLimit/N of the single replica's live heap.
const scaleOutHeapLimit = 1.1

// scaleOutSection renders the "Scale-out" table and its goal rows.
func scaleOutSection(r *results) string {
	var b strings.Builder
	p := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	p("### Scale-out: one replica of N\n\n")
	p("Replica 0 of N holds the shard `shard.Part(shard.UID, 0, N)` (N equal ranges of the 64-bit FNV-1a hash of `metadata.uid`) ")
	p("through `factory.WithShard(shard.Static(sel))`, with ours' defaults otherwise; kube-apiserver runs with `--feature-gates=%s`, ", shardedListAndWatchGate)
	p("so the server can select the shard. N = 1 is the `ours` variant. Each child checks that every cached pod is in its shard, ")
	p("and the parent that it cached exactly the pods of its shard. Bytes are the pod response bodies the client read until HasSynced ")
	p("(after transparent gzip decompression, if any).\n\n")
	p("| Replicas N | Variant | Live heap per replica (MiB) | / N=1 | Pods cached | Bytes received for the initial list (MiB) | / N=1 | Time to HasSynced (s) |\n")
	p("|---|---|---|---|---|---|---|---|\n")
	base := r.values(variantOurs, metricLiveHeap)
	baseBytes := r.values(variantOurs, metricInitialBytes)
	for _, so := range scaleOutVariants {
		if len(r.PerVariant[so.variant]) == 0 {
			p("| %d | %s | not measured | – | – | – | – | – |\n", so.replicas, so.variant)
			continue
		}
		heap, bytes := r.values(so.variant, metricLiveHeap), r.values(so.variant, metricInitialBytes)
		p("| %d | %s | %s | %s | %s | %s | %s | %s |\n", so.replicas, so.variant, heap.summary(), ratioCell(heap, base),
			countSummary(r.values(so.variant, metricObjects)), bytes.summary(), ratioCell(bytes, baseBytes), r.values(so.variant, metricSync).summary())
	}
	p("%s", scaleOutBytesNote(r))
	p("\n| Goal | Replicas N | Measured (live heap / N=1, median of the per-round ratios) | Limit | Met |\n|---|---|---|---|---|\n")
	for _, so := range scaleOutVariants[1:] {
		p("%s", scaleOutGoalRow(r, so.replicas, so.variant))
	}
	p("\n")
	return b.String()
}

// scaleOutGoalRow is the goal row of N replicas: variant's live heap at
// most 1.1/N of ours'.
func scaleOutGoalRow(r *results, n int, variant string) string {
	const text = "each of N replicas holds ≤ 1.1/N of the single replica's live heap"
	limit := scaleOutHeapLimit / float64(n)
	for _, v := range []string{variantOurs, variant} {
		if len(r.PerVariant[v]) == 0 {
			return fmt.Sprintf("| %s | %d | not measured: %s was not run | ≤ %s | – |\n", text, n, v, format(limit))
		}
	}
	s := ratios(r.values(variant, metricLiveHeap), r.values(variantOurs, metricLiveHeap))
	met := "missed"
	if len(s) > 0 && s.median() <= limit {
		met = "met"
	}
	return fmt.Sprintf("| %s | %d | %s | ≤ %s | %s |\n", text, n, s.summary(), format(limit), met)
}

// scaleOutBytesNote explains, when a replica of N received more than
// 1.5/N of the single replica's bytes, why: the server did not select.
func scaleOutBytesNote(r *results) string {
	var whole []string
	for _, so := range scaleOutVariants[1:] {
		got := ratios(r.values(so.variant, metricInitialBytes), r.values(variantOurs, metricInitialBytes))
		if len(got) > 0 && got.median() > 1.5/float64(so.replicas) {
			whole = append(whole, fmt.Sprintf("N=%d (%s)", so.replicas, format(got.median())))
		}
	}
	if len(whole) == 0 {
		return ""
	}
	return fmt.Sprintf("\nThe replicas of %s received about the whole collection for their initial list, not their shard: "+
		"kube-apiserver 1.36 with `--watch-cache=false` serves watches, and so streamed initial lists, from its etcd watcher, "+
		"which treats a predicate that holds only a shard selector as matching everything (`SelectionPredicate.Empty` looks at the label and field selectors only); "+
		"lists are filtered (the variant ours-paged-shard-N, which lists in pages, receives its shard). The informers filtered the objects themselves, so their caches hold exactly their shards.\n",
		strings.Join(whole, ", "))
}

// countSummary is summary for counts: whole numbers.
func countSummary(s series) string {
	switch len(s) {
	case 0:
		return "–"
	case 1:
		return fmt.Sprintf("%.0f", s[0])
	}
	return fmt.Sprintf("%.0f (%.0f–%.0f)", s.median(), slices.Min(s), slices.Max(s))
}
