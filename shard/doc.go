// Package shard gives informers a shard of their collection: the part of
// the objects whose hash (64-bit FNV-1a of metadata.uid, or of
// metadata.namespace) falls in the shard's ranges. Lists, watch lists and
// watches carry the shard selector of KEP-5866 (ListOptions.ShardSelector,
// Kubernetes 1.36+, feature gate ShardedListAndWatch), and the informer
// filters every object with the same hash, so the cache holds exactly the
// shard whether or not the server applied the selector.
//
// A Selector is a shard (it implements runtime/cache's Shard): NewSelector
// from ranges of the hash space, Part for the i-th of n equal parts. A
// source gives it to informers (factory.WithShard, or ByObject.Shard for
// one type): Static for a shard that never changes, Dynamic for one a
// coordinator changes with Set. After a Set every informer of the source
// relists under the new shard (objects that entered are added, those that
// left are deleted with a tombstone), and the Rollout that Set returns is
// done once all of them hold exactly the new shard: the moment a replica
// may hand ranges it gave up to another.
//
//	sel, err := shard.Part(shard.UID, replica, replicas)
//	if err != nil { ... }
//	f := factory.New(factory.WithShard(shard.Static(sel)))
//
// A change of shard is carried out by a relist under the new selector
// (from the watch cache, at the informer's resourceVersion), also when it
// only narrows the shard and the informer could have pruned its cache
// without asking the server.
//
// kube-apiserver 1.36 filters custom resources but does not echo the
// selector in their list responses' ShardInfo (it does for built-in
// types); informers therefore tell a server that ignored the selector by
// the objects outside the shard it sends, and log that once.
//
// It is a module of its own because ListOptions.ShardSelector needs
// k8s.io/apimachinery v0.36 or later, while the runtime supports v0.34.
package shard
