package ring

import (
	"context"
	"math"

	"github.com/informer-gen/informer-gen/shard"
)

// DynamicTarget is the Target of informers that hold the shard of a
// shard.Dynamic (factory.WithShard(source)): Set makes the ranges a
// shard.Selector over Key and waits for its rollout, until every informer
// of the source holds exactly it.
//
//	src := shard.NewDynamic(shard.Selector{}) // nothing until the ring assigns
//	f := factory.New(factory.WithShard(src))
//	r, err := ring.New(ring.Config{Client: client.CoordinationV1(), Namespace: ns, Ring: "widgets",
//		Identity: podName, Target: ring.DynamicTarget{Source: src, Key: shard.UID}})
//	go r.Run(ctx)
type DynamicTarget struct {
	Source *shard.Dynamic
	// Key is the field hashed: shard.UID (the default when empty) or
	// shard.Namespace.
	Key shard.Key
}

// Set implements Target.
func (t DynamicTarget) Set(ctx context.Context, rs Ranges) error {
	key := t.Key
	if key == "" {
		key = shard.UID
	}
	sel, err := shard.NewSelector(key, rs.shardRanges()...)
	if err != nil {
		return err
	}
	return t.Source.Set(sel).Wait(ctx)
}

// shardRanges is rs in the shard package's form: exclusive ends, 0 for
// 2^64.
func (rs Ranges) shardRanges() []shard.Range {
	out := make([]shard.Range, len(rs))
	for i, r := range rs {
		end := r.Last + 1 // 2^64 wraps to 0, which is how shard.Range says it
		if r.Last == math.MaxUint64 {
			end = 0
		}
		out[i] = shard.Range{Start: r.First, End: end}
	}
	return out
}
