// Command scalebench measures informers at scale against a real
// kube-apiserver and etcd on 127.0.0.1 (started by internal/cluster, with
// the API server's watch cache disabled), side by side with client-go
// v0.37.2, and writes the section "Real kube-apiserver: memory at scale"
// of docs/benchmarks.md.
//
// It creates N realistic Pods (default 50,000 in 50 namespaces) the way a
// cluster's components write them: the ReplicaSet controller creates them
// (fieldManager kube-controller-manager), the scheduler binds them
// (kube-scheduler: a PodScheduled=False condition through
// the status subresource, then the binding subresource), the kubelet writes their status
// (kubelet, status subresource). Then, for each variant and round, it
// starts a fresh child process (this binary with -variant) that runs one
// shared pod informer with that runtime's defaults and measures the time
// until HasSynced, the heap right after and after forced GCs, and the peak
// heap during a relist forced by cutting its connection (a proxy the
// parent owns), changing pods and compacting etcd. Around each initial
// sync the parent reads kube-apiserver's CPU time and peak RSS from /proc.
//
// Variants: client-go (informers.NewSharedInformerFactory defaults),
// client-go-strip (the same with a transform clearing managedFields),
// ours (runtime/factory defaults, as generated code builds the informer),
// ours-metadata (a PartialObjectMetadata informer of our runtime) and
// client-go-metadata (client-go's metadatainformer).
//
// Usage (from e2e/):
//
//	go run ./cmd/scalebench [-pods 50000] [-rounds 3] [-out ../docs/benchmarks.md]
//
// or SCALE=1 ./hack/bench.sh (SCALE_PODS, SCALE_ROUNDS).
package main
