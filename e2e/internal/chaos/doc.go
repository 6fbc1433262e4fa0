// Package chaos is the chaos soak of informer-gen: a real etcd and
// kube-apiserver (ShardedListAndWatch on), three replicas of the example
// Widget controller (examples/crd/controller) as separate processes on a
// Lease ring (shard/ring), a writer keeping up churn, and a fault schedule
// drawn from a seed, with invariants checked during and after the run.
//
// Data flow:
//
//	Soak (soak.go) ── starts ──> Replica processes (process.go), each behind
//	    its own TCP proxy to kube-apiserver (cluster.Proxy)
//	Replica (replica.go): informers (sharded typed Widgets driving the
//	    controller, Pods, ConfigMaps, metadata-only and dynamic Widgets) and
//	    handlers; its ring Target (target.go) and its status writes
//	    (status_writes.go) append to a journal file (journal.go) that
//	    survives SIGKILL; a debug endpoint on 127.0.0.1 (report.go) serves
//	    its caches, held ranges, heap and goroutines, and switches its slow
//	    handlers.
//	Writer (writer.go) ── churn ──> kube-apiserver
//	Schedule (schedule.go) ── rounds of faults, seeded ──> inject.go
//	After each round: converge.go waits (writer paused) until every cache
//	    equals the server, the ring is stable and each Widget is held once;
//	at the end: ownership.go reads every journal for double ownership,
//	    unowned time and status writes by a non-owner; flat.go for heap and
//	    goroutines. Every violation is reported with the seed (result.go).
//
// A replica is this same executable started again with the environment
// variable ReplicaEnv naming its configuration file: a test binary or a
// command calls ReplicaMain from init or main when IsReplica.
package chaos
