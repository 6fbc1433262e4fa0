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
// (kubelet, status subresource).
//
// The Pods are shaped like a real cluster's, so that what a cache can share
// between them is what it could share in production (layout.go, pod.go).
// In each namespace they belong to ReplicaSets whose sizes are drawn,
// seeded (the same flags write the same Pods), from 1, 2, 3, 5, 10 and 30
// with weights 40, 20, 15, 12, 9 and 4 (in ReplicaSets): a mean of 3.95
// Pods, about 10% of the Pods alone in theirs and 30% in one of 30. The
// Pods of a ReplicaSet share its template: labels, owner reference,
// containers with one image tag each (the app's tag per ReplicaSet, a
// mesh sidecar's cluster-wide), env, probes, ports, resources (one of 4
// sizes per Deployment), tolerations. Each Pod has of its own what a real
// one has: its name (<replicaset>-<5 random characters>), a
// kube-api-access-<5 random characters> projected volume (serviceAccountToken,
// the kube-root-ca.crt ConfigMap, the namespace through the downward API,
// as the ServiceAccount admission plugin adds it) mounted in every
// container, so no whole container or volume list repeats; its IPs,
// node and container IDs; and its times: each ReplicaSet rolled out at its
// own second of a month, its Pods started within a minute of that, and a
// Pod's conditions, start time and container start times are seconds
// apart from its own start.
//
// Once kube-apiserver has settled after the writes (settle.go: under 0.2
// cores for 5 s, at most 2 minutes) and served one unmeasured run of the
// first variant (warmUp), for each variant and round it starts a fresh
// child process (this
// binary with -variant) that runs one shared pod informer with that
// runtime's defaults and measures the time until HasSynced, the heap right
// after and after forced GCs, its own CPU time per watch event while the
// parent changes -events pods (getrusage; the child blocks meanwhile), and
// the peak heap during a relist forced by cutting its connection (a proxy
// the parent owns), changing pods and compacting etcd. Around each initial
// sync the parent reads kube-apiserver's CPU time and peak RSS from /proc.
//
// Variants: client-go (informers.NewSharedInformerFactory defaults),
// client-go-strip (the same with a transform clearing managedFields),
// ours (the Pod informer informer-gen generates for k8s.io/api/core/v1,
// internal/corev1gen, with runtime/factory defaults: watches decoded by
// protowatch.Watcher, cached objects compacted by the generated walks),
// ours-uncompacted (the same
// with factory.WithoutCompaction: objects cached as decoded),
// ours-nodecoder (the same with factory.WithoutGeneratedDecoders: lists
// and watches decoded by the typed client, then walked), ours-paged
// (factory.WithoutWatchList), ours-noguard (ours with the compaction
// guard off: INFORMER_GEN_COMPACTION_GUARD=false), ours-metadata (a PartialObjectMetadata
// informer of our runtime) and client-go-metadata (client-go's
// metadatainformer). All of these talk protobuf: client-go v0.37's
// clientset asks for it for built-in types unless rest.Config.ContentType
// is set, and the metadata client always does. client-go-json, ours-json,
// ours-uncompacted-json and ours-nodecoder-json are their base variants
// with a JSON client.
//
// controller-runtime (crvariant.go): cr is one Pod informer of
// controller-runtime's cache (cache.New with client-go's scheme,
// GetInformer for &corev1.Pod{}, synced when the cache's WaitForCacheSync
// returns) with controller-runtime's defaults; cr-strip the same with
// cache.TransformStripManagedFields as DefaultTransform; cr-ours the same
// with NewInformer from this project's controllerruntime module;
// cr-ours-strip cr-ours with cr-strip's transform. cr and cr-ours keep
// managedFields, as controller-runtime does; cr-ours is measured against
// cr and cr-strip, cr-ours-strip against cr-strip (issue 31's goals).
//
// Scale-out: ours-shard-2, ours-shard-3 and ours-shard-4 are ours holding
// replica 0's shard of N equal ranges of the uid hash space
// (shard.Part(shard.UID, 0, N) through factory.WithShard(shard.Static));
// with ours as N = 1 they make the section's "Scale-out" table: per-replica
// live heap, pods cached, bytes of the pod responses read until HasSynced
// (counted for every variant) and time to HasSynced, and the goal that
// each of N replicas holds at most 1.1/N of the single replica's live
// heap. kube-apiserver runs with --feature-gates=ShardedListAndWatch=true;
// the child fails if its cache holds a pod outside its shard, and the
// parent if it does not hold exactly the pods whose uids are in it.
// ours-paged-shard-N (not run by default) is the same over paged lists.
//
// Custom resources (routes.go, httproute.go, routevariant.go,
// routereport.go): the httproute-* variants, run on their own, watch the
// Gateway API's HTTPRoutes (gateway.networking.k8s.io/v1) over JSON
// instead of Pods. The parent installs the HTTPRoute CRD the Gateway API
// module ships (its standard channel's YAML, structural schema and CEL
// rules as shipped) and writes N routes as a cluster's writers do: Helm
// creates each (fieldValidation=Strict), the Gateway implementation
// writes its status. httproute-client-go is the project's own generated
// informer (sigs.k8s.io/gateway-api/pkg/client/informers);
// httproute-ours informer-gen's, generated into e2e/internal/gatewayapigen
// with --json-decoders, with runtime/factory's defaults;
// httproute-ours-uncompacted and httproute-ours-nodecoder the same
// without compaction (factory.WithoutCompaction) and without the
// generated decoder (factory.WithoutGeneratedDecoders). They write the
// section "Real kube-apiserver: custom resources" of docs/benchmarks.md.
//
// Usage (from e2e/):
//
//	go run ./cmd/scalebench [-pods 50000] [-rounds 3] [-events 2000] [-variants client-go,ours,...] [-out ../docs/benchmarks.md]
//	go run ./cmd/scalebench -pods 50000 -variants httproute-client-go,httproute-ours,httproute-ours-uncompacted,httproute-ours-nodecoder
//
// or SCALE=1 ./hack/bench.sh (SCALE_PODS, SCALE_ROUNDS).
//
// Cost growth (growth.go, growthreport.go): with -sizes 10000,50000,100000
// one control plane serves a population grown through those pod counts
// (the Pods of a smaller size are the first ones of a larger, so each size
// holds the Pods a run of that size alone would write), every variant
// measured in every round at each size; it writes the section "Cost
// growth on a real kube-apiserver" (per-Pod live heap and time to
// HasSynced, CPU per watch event, each size against the smallest, mermaid
// charts, issue 32's linearity goal and its Pod goals at each size), after
// each size, so a run stopped at a larger size keeps the smaller ones.
package main
