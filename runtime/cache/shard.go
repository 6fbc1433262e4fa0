package cache

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// Shard is the part of a collection an informer holds: the objects a
// shard selector (KEP-5866, ListOptions.ShardSelector on Kubernetes 1.36+)
// selects. The package github.com/informer-gen/informer-gen/shard has the
// implementations; this package only consumes them, so that it builds with
// every apimachinery version it supports, including those without
// ShardSelector.
type Shard interface {
	// ApplyTo adds the shard's selector to the options of every list,
	// watch list and watch.
	ApplyTo(opts *metav1.ListOptions)
	// Contains reports whether obj belongs to the shard. The informer
	// drops every object for which it is false, so the cache holds
	// exactly the shard even when the server ignored the selector.
	Contains(obj metav1.Object) bool
}

// ShardServerApplied is optionally implemented by a Shard that can tell
// from a LIST response whether the server echoed its selector (the
// response's ListMeta.ShardInfo). The reflector notes a missing echo in
// its log (and in the one line it logs when the server sends an object
// outside the shard, the sure sign that it ignored the selector): a
// missing echo alone is not, since kube-apiserver 1.36 filters custom
// resources without echoing the selector.
type ShardServerApplied interface {
	// ServerApplied reports whether list, one page of a LIST sent with
	// the shard's selector, was filtered by the server.
	ServerApplied(list runtime.Object) bool
}

// ShardSource gives informers their shard, which may change while they
// run.
type ShardSource interface {
	// Subscribe is called once by each informer that holds the source's
	// shard, when it starts; informer names it in logs.
	Subscribe(informer string) ShardSubscription
}

// ShardSubscription is one informer's view of a ShardSource.
type ShardSubscription interface {
	// Current returns the shard in force and a channel closed when a
	// newer one replaces it.
	Current() (Shard, <-chan struct{})
	// Applied is called when the informer's cache holds exactly s: the
	// list under s was stored, objects outside s were deleted (tombstones
	// to handlers), and the handlers were handed those notifications.
	Applied(s Shard)
	// Close is called when the informer stops.
	Close()
}

// ShardSetter is implemented by the informers of this package (and the
// factory's multi-namespace informers): SetShard makes the informer hold
// only the shard src gives it. Like SetTransform, it fails once the
// informer started. Factories call it (factory.WithShard), so generated
// informers need no change.
type ShardSetter interface {
	SetShard(src ShardSource) error
}
