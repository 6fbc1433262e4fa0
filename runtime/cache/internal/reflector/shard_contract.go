package reflector

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// The shard contract: what Config.Shard gives the engine and what a
// shard value answers. runtime/cache exports these types under the same
// names (aliases); the package github.com/informer-gen/informer-gen/shard
// implements them.

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

// ShardNarrowing is optionally implemented by a Shard that can tell that
// it holds nothing another shard does not. When a watching informer's new
// shard is within its current one, it prunes its cache (tombstones for the
// objects outside the new shard, as a relist would give) and watches again
// under the new selector, without listing.
type ShardNarrowing interface {
	// Within reports whether every object of the shard is in outer.
	Within(outer Shard) bool
}

// ShardSubscription is one informer's view of a ShardSource.
type ShardSubscription interface {
	// Current returns the shard in force and a channel closed when a
	// newer one replaces it.
	Current() (Shard, <-chan struct{})
	// Applied is called when the informer's cache holds exactly s: the
	// list under s was stored, objects outside s were deleted (tombstones
	// to handlers), and the handlers were handed those notifications. s is
	// a value Current returned. It is called from the informer's
	// processing goroutine, which waits for it: it must return quickly and
	// must not wait for the informer.
	Applied(s Shard)
	// Close is called when the informer stops.
	Close()
}
