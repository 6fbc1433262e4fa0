// Package shard gives informers a shard of their collection: the part of
// the objects whose hash (64-bit FNV-1a of metadata.uid, or of
// metadata.namespace) falls in the shard's ranges. Lists, watch lists and
// watches carry the shard selector of KEP-5866 (ListOptions.ShardSelector,
// Kubernetes 1.36+, feature gate ShardedListAndWatch), and the informer
// filters every object with the same hash, so the cache holds exactly the
// shard whether or not the server applied the selector.
//
// It is a module of its own because ListOptions.ShardSelector needs
// k8s.io/apimachinery v0.36 or later, while the runtime supports v0.34.
package shard
