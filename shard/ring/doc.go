// Package ring splits a controller's collection between the replicas
// that run it: membership from coordination.k8s.io/v1 Leases, ranges of
// the 64-bit FNV-1a hash space (the KEP-5866 shard selector's) computed
// from the live members, and a handover that never gives one point of
// the space to two live replicas in steady state.
//
// Each Replica holds a Lease named "<ring>-<identity>" in one namespace,
// labelled RingLabel=<ring>, renews it every RenewPeriod and watches the
// ring's Leases through an informer of informer-gen's runtime
// (runtime/factory). A Lease is live until LeaseDuration passed since
// this replica saw its renewTime change, timed by the local clock (as
// client-go's leader election does), so clocks are never compared. The
// renew loop is this package's own: client-go's leaderelection elects
// one leader, and its resourcelock writes a LeaderElectionRecord, not the
// ranges a member holds.
//
// Assign gives each live member its part of the space by consistent
// hashing with DefaultVirtualNodes points per member. Rendezvous hashing
// over fixed segments was the other choice: it moves 1/N as well, but a
// member's ranges are then about segments/N disjoint pieces, and the
// segments must be many for an even split at 100 replicas (4,096 gives
// some 900 ranges, 70 KB of selector, per member of three), against the
// 100,000 characters kube-apiserver's CEL parser takes for a
// ShardSelector. With virtual nodes each member has about
// DefaultVirtualNodes ranges (some 10 KB of selector) whatever N is, and
// a change moves only the arcs of the member that joined or left.
//
// RangesAnnotation on each Lease records the points that member's
// informers may hold. The protocol (state.go, one step function with its
// transition table) keeps the Lease a superset of what the informers
// hold: a replica narrows its informers, waits until they applied the
// narrower shard (Target.Set), then records the release; it records a
// claim, waits until it sees the claim in its own Lease uncontested,
// then widens. It claims only points no other live Lease records, so it
// takes a point only after the previous owner released it or its Lease
// expired. A replica that cannot renew for RenewDeadline narrows to
// nothing before the others may take over (LeaseDuration after they saw
// its last renewal). On Run's context ending it narrows to nothing and
// deletes its Lease, and the others take over without waiting for expiry.
//
// DynamicTarget connects a Replica to the informers of a factory that
// holds the shard of a shard.Dynamic:
//
//	src := shard.NewDynamic(shard.Selector{}) // nothing until the ring assigns
//	f := factory.New(factory.WithShard(src))
//	r, err := ring.New(ring.Config{Client: client.CoordinationV1(), Namespace: ns, Ring: "widgets",
//		Identity: podName, Target: ring.DynamicTarget{Source: src, Key: shard.UID}})
//	go r.Run(ctx)
//
// docs/sharding.md has the diagrams, the window in which two live
// replicas can hold one object, and a simulation of 100 replicas.
package ring
