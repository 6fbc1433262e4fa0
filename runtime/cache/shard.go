package cache

import (
	"github.com/informer-gen/informer-gen/runtime/cache/internal/reflector"
)

// Shard is the part of a collection an informer holds: the objects a
// shard selector (KEP-5866, ListOptions.ShardSelector on Kubernetes 1.36+)
// selects. The package github.com/informer-gen/informer-gen/shard has the
// implementations; this package only consumes them, so that it builds with
// every apimachinery version it supports, including those without
// ShardSelector. It is the reflector engine's type
// (internal/reflector/shard_contract.go), where its methods are documented.
type Shard = reflector.Shard

// ShardServerApplied is optionally implemented by a Shard that can tell
// from a LIST response whether the server echoed its selector
// (internal/reflector/shard_contract.go).
type ShardServerApplied = reflector.ShardServerApplied

// ShardNarrowing is optionally implemented by a Shard that can tell that
// it holds nothing another shard does not: a watching informer whose new
// shard is within its current one prunes its cache instead of relisting
// (internal/reflector/shard_contract.go).
type ShardNarrowing = reflector.ShardNarrowing

// ShardSource gives informers their shard, which may change while they
// run.
type ShardSource interface {
	// Subscribe is called once by each informer that holds the source's
	// shard, when it starts; informer names it in logs.
	Subscribe(informer string) ShardSubscription
}

// ShardSubscription is one informer's view of a ShardSource: the shard in
// force, a signal when it changes, and the informer's word that its cache
// holds a shard (internal/reflector/shard_contract.go).
type ShardSubscription = reflector.ShardSubscription

// ShardSetter is implemented by the informers of this package (and the
// factory's multi-namespace informers): SetShard makes the informer hold
// only the shard src gives it. Like SetTransform, it fails once the
// informer started. Factories call it (factory.WithShard), so generated
// informers need no change.
type ShardSetter interface {
	SetShard(src ShardSource) error
}
