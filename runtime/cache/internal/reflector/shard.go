package reflector

import (
	"context"
	"errors"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/klog/v2"

	"github.com/informer-gen/informer-gen/runtime/cache/internal/protocol"
)

// errReshard ends a watch whose shard was replaced: the reflector relists
// under the new one (the reshard ending of internal/protocol/state.go).
var errReshard = errors.New("the shard changed; relisting under the new one")

// takeShard makes the subscription's current shard the one of the next
// list or watch list.
func (r *Engine) takeShard() {
	if r.cfg.Shard != nil {
		r.shard, r.shardChanged = r.cfg.Shard.Current()
	}
}

// shardStored tells the subscription that the list under r.shard is in
// the store: once the sink applied it (sink.AfterApplied: once a queue's
// consumer processed it, at once for a plain store).
func (r *Engine) shardStored() {
	sub, s := r.cfg.Shard, r.shard
	if sub == nil {
		return
	}
	r.shardInStore = s
	r.sink.AfterApplied(func() { sub.Applied(s) })
}

// reshardEnding is how a watch whose shard was replaced ends: narrowed
// when the new shard is within the current one and the store pruned what
// it no longer holds (narrow), reshard (a relist) otherwise.
func (r *Engine) reshardEnding(ctx context.Context) protocol.Ending {
	if r.narrow(ctx, r.shard) {
		return protocol.EndNarrowed
	}
	return protocol.EndReshard
}

// narrow takes the subscription's new shard without a relist when it
// holds nothing base (the shard of what the store holds) does not and the
// store can prune: it queues tombstones for the objects outside it and
// tells the subscription once the store processed them. It reports
// whether it did.
func (r *Engine) narrow(ctx context.Context, base Shard) bool {
	next, changed := r.cfg.Shard.Current()
	if n, ok := next.(ShardNarrowing); !ok || base == nil || !n.Within(base) {
		return false
	}
	pruned, err := r.sink.Prune(func(obj any) bool {
		m, err := meta.Accessor(obj)
		return err == nil && next.Contains(m)
	})
	if !pruned {
		return false
	}
	if err != nil {
		// Some tombstones may be queued: the relist that follows makes
		// the store whole.
		klog.FromContext(ctx).Error(err, "Pruning the cache to a narrower shard failed; relisting", "reflector", r.cfg.Name)
		return false
	}
	r.shard, r.shardChanged = next, changed
	r.shardStored()
	return true
}

// shardScope returns the context of the requests under the current
// shard: ctx, ended too when the shard is replaced (shardChanged closes).
// A list, watch list or watch that the server is slow to answer (one
// starting up; a connection held open without an answer) then ends at
// once, and a narrower shard is taken without the server (cutEnding,
// reshardEnding): a ring member that lost its Lease lets go of its
// objects in time, whatever its reflector was waiting for. One goroutine
// per shard waits for the change; it ends with the change or with ctx.
func (r *Engine) shardScope(ctx context.Context) context.Context {
	changed := r.shardChanged
	if changed == nil {
		return ctx
	}
	if r.scopeOf != changed {
		scope, cancel := context.WithCancelCause(ctx)
		go func() {
			select {
			case <-changed:
				cancel(errReshard)
			case <-scope.Done():
			}
		}()
		r.scope, r.scopeOf = scope, changed
	}
	return r.scope
}

// cutByShard reports whether a request in scope (shardScope's context)
// ended because the shard was replaced, not because ctx ended.
func (r *Engine) cutByShard(ctx, scope context.Context) bool {
	return ctx.Err() == nil && errors.Is(context.Cause(scope), errReshard)
}

// cutEnding is how a list or watch list cut short by a shard change
// ends: the store narrowed to the new shard at once when it is within
// the shard of what the store holds, and a relist under it in any case.
func (r *Engine) cutEnding(ctx context.Context) protocol.Outcome {
	r.narrow(ctx, r.shardInStore)
	return protocol.Outcome{End: protocol.EndReshard}
}

// shardReplaced reports whether a newer shard replaced that of the last
// list.
func (r *Engine) shardReplaced() bool {
	select {
	case <-r.shardChanged:
		return r.shardChanged != nil
	default:
		return false
	}
}

// withShard returns opts with the shard's selector.
func (r *Engine) withShard(opts metav1.ListOptions) metav1.ListOptions {
	if r.shard != nil {
		r.shard.ApplyTo(&opts)
	}
	return opts
}

// inShard reports whether the listed item belongs to the shard.
func (r *Engine) inShard(ctx context.Context, item runtime.Object) bool {
	if r.shard == nil {
		return true
	}
	m, err := meta.Accessor(item)
	if err != nil {
		klog.FromContext(ctx).Error(err, "Dropping listed object without object metadata", "reflector", r.cfg.Name)
		return false
	}
	return r.contains(ctx, m)
}

// contains reports whether m belongs to the shard, and logs, once, that
// the server ignored the selector when it does not: a server that applies
// it sends nothing outside it.
func (r *Engine) contains(ctx context.Context, m metav1.Object) bool {
	if r.shard == nil || r.shard.Contains(m) {
		return true
	}
	r.logShardIgnored(ctx)
	return false
}

// checkShardApplied notes, when the shard can tell from the listed page
// obj, that the server did not echo the selector. That alone does not
// show it ignored it: kube-apiserver 1.36 filters custom resources without
// echoing ShardInfo (its unstructured lists do not carry it). An object
// outside the shard does show it (contains).
func (r *Engine) checkShardApplied(ctx context.Context, obj runtime.Object) {
	a, ok := r.shard.(ShardServerApplied)
	if !ok || r.shardNoEcho || a.ServerApplied(obj) {
		return
	}
	r.shardNoEcho = true
	klog.FromContext(ctx).V(4).Info("A list response does not echo the shard selector (ShardInfo)", "reflector", r.cfg.Name)
}

// logShardIgnored logs, once, that the server ignored the selector.
func (r *Engine) logShardIgnored(ctx context.Context) {
	if r.shardIgnoredLogged {
		return
	}
	r.shardIgnoredLogged = true
	klog.FromContext(ctx).Info("The server ignored the shard selector (feature gate ShardedListAndWatch off, or a server older than Kubernetes 1.36): it sent an object outside the shard; the informer filters the collection itself",
		"reflector", r.cfg.Name, "listEchoedSelector", !r.shardNoEcho)
}

// backoffSleep waits d before the step after a failure, or less when the
// shard changes meanwhile. A narrower shard is taken at once without the
// server (narrow prunes the store), and the wait goes on: a ring member
// that lost its Lease in an outage lets go of its objects before another
// takes them, though it cannot list. Any other shard ends the wait, as
// its owner waits for it (a member that took ranges over after an outage
// that grew the back-off); each such change wakes one retry. False when
// ctx ended.
func (r *Engine) backoffSleep(ctx context.Context, d time.Duration) bool {
	t := r.cfg.Clock.NewTimer(d)
	defer t.Stop()
	for {
		changed := r.shardChanged
		if changed == r.shardWoke {
			changed = nil
		}
		select {
		case <-ctx.Done():
			return false
		case <-t.C():
			return true
		case <-changed:
			if !r.narrow(ctx, r.shardInStore) {
				r.shardWoke = changed
				return true
			}
		}
	}
}
