package shard

import "github.com/informer-gen/informer-gen/runtime/cache"

// Static returns a source whose shard never changes: the static shards of
// a fixed number of replicas, each given its Part.
//
//	sel, err := shard.Part(shard.UID, replica, replicas)
//	f := factory.New(factory.WithShard(shard.Static(sel)))
func Static(s cache.Shard) cache.ShardSource { return staticSource{s} }

// staticSource is Static's source; it is its own subscription.
type staticSource struct{ shard cache.Shard }

func (s staticSource) Subscribe(string) cache.ShardSubscription { return s }

// Current returns the shard and a nil channel: it is never replaced.
func (s staticSource) Current() (cache.Shard, <-chan struct{}) { return s.shard, nil }

func (staticSource) Applied(cache.Shard) {}

func (staticSource) Close() {}
