// Package e2e holds the end-to-end tests of informer-gen: the generated
// clientset of the example CRD project (examples/crd) and our runtime
// (runtime/cache) against a real kube-apiserver and etcd started by
// internal/cluster, including fault injection (API server restart, cut
// connections, etcd compaction, missing permissions, a watch list whose
// initial-events-end bookmark is dropped) followed by a check
// that the informer's store converges to the server's state.
//
// The first run builds kube-apiserver and etcd from source
// (hack/kube-binaries.sh), which takes several minutes; run with a
// generous -timeout. With -short the tests that need the cluster are
// skipped.
//
// TestChaosSoak (chaos_test.go) is the 2-minute form of the chaos soak of
// internal/chaos: three replicas of the example controller as processes
// on a Lease ring, churn, and seeded rounds of faults together, with its
// invariants; cmd/chaos is its long form (docs/chaos.md).
//
// cmd/scalebench is a benchmark on the same cluster: informers of
// client-go and ours over tens of thousands of realistic Pods, written to
// docs/benchmarks.md (SCALE=1 ./hack/bench.sh).
package e2e
