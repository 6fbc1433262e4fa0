package main

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes"

	"github.com/informer-gen/informer-gen/shard"
)

// The scale-out variants: ours-shard-N is ours (the default factory
// configuration) holding replica 0's static shard of N equal ranges of the
// uid hash space (shard.Part(shard.UID, 0, N), factory.WithShard with
// shard.Static), so the run measures what one of N replicas holds and
// receives. The server must have the ShardedListAndWatch feature gate on
// (run starts it so) for the selection to happen server-side.
// ours-paged-shard-N is the same over paged lists (not in allVariants): with
// the watch cache off, kube-apiserver 1.36 applies the selector to lists
// but not to watches, streamed initial lists included.
const (
	shardInfix             = "-shard-"
	variantOursShardPrefix = variantOurs + shardInfix
	variantOursShard2      = variantOursShardPrefix + "2"
	variantOursShard3      = variantOursShardPrefix + "3"
	variantOursShard4      = variantOursShardPrefix + "4"
	// shardedListAndWatchGate is the kube-apiserver feature gate of
	// KEP-5866 that run turns on.
	shardedListAndWatchGate = "ShardedListAndWatch=true"
)

// scaleOutVariants are the replicas of the scale-out table by N; N = 1 is
// the ours variant.
var scaleOutVariants = []struct {
	replicas int
	variant  string
}{
	{1, variantOurs}, {2, variantOursShard2}, {3, variantOursShard3}, {4, variantOursShard4},
}

// variantShard returns the shard of a sharded variant: part 0 of N of the
// uid hash space for ours-shard-N and ours-paged-shard-N. ok is false for
// any other variant.
func variantShard(variant string) (sel shard.Selector, ok bool, err error) {
	base, rest, ok := strings.Cut(variant, shardInfix)
	if !ok || (base != variantOurs && base != variantOursPaged) {
		return shard.Selector{}, false, nil
	}
	n, err := strconv.Atoi(rest)
	if err != nil || n < 2 {
		return shard.Selector{}, true, fmt.Errorf("variant %q: want %s%s<N> with N >= 2 replicas", variant, base, shardInfix)
	}
	sel, err = shard.Part(shard.UID, 0, n)
	if err != nil {
		return shard.Selector{}, true, fmt.Errorf("variant %q: %w", variant, err)
	}
	return sel, true, nil
}

// uidInShard reports whether the object of uid is in sel.
func uidInShard(sel shard.Selector, uid types.UID) bool {
	return sel.Contains(&metav1.ObjectMeta{UID: uid})
}

// checkShardCache fails when inf caches an object outside sel: a sharded
// replica must hold its shard and nothing else.
func checkShardCache(variant string, sel shard.Selector, inf informerUnderTest) error {
	for _, k := range inf.keys() {
		obj, ok := inf.get(k)
		if !ok {
			continue
		}
		if !sel.Contains(obj) {
			return fmt.Errorf("variant %s: the cache holds pod %s (uid %s) outside its shard %s", variant, k, obj.GetUID(), sel)
		}
	}
	return nil
}

// expectedInShard counts the uids in the shard of variant; -1 when the
// variant holds every pod.
func expectedInShard(variant string, uids []types.UID) (int, error) {
	sel, ok, err := variantShard(variant)
	if err != nil || !ok {
		return -1, err
	}
	n := 0
	for _, uid := range uids {
		if uidInShard(sel, uid) {
			n++
		}
	}
	return n, nil
}

// shardFilter is the membership test of variant's shard for the pods the
// parent changes, nil when the variant holds every pod.
func shardFilter(variant string) (func(types.UID) bool, error) {
	sel, ok, err := variantShard(variant)
	if err != nil || !ok {
		return nil, err
	}
	return func(uid types.UID) bool { return uidInShard(sel, uid) }, nil
}

// checkShardCount fails when a sharded variant's cache did not hold
// exactly the pods of its shard after the sync or the relist: uids are
// every pod's.
func checkShardCount(variant string, m measurement, uids []types.UID) error {
	want, err := expectedInShard(variant, uids)
	if err != nil || want < 0 {
		return err
	}
	if m.Synced.Objects != want || m.Done.ObjectsAfter != want {
		return fmt.Errorf("variant %s cached %d pods after sync and %d after the relist, but %d of the %d pods are in its shard",
			variant, m.Synced.Objects, m.Done.ObjectsAfter, want, len(uids))
	}
	return nil
}

// podUIDs lists every pod's uid, in pages. It is also the population's
// warm-up (measureRounds).
func podUIDs(ctx context.Context, cs kubernetes.Interface) ([]types.UID, error) {
	var uids []types.UID
	opts := metav1.ListOptions{Limit: 500}
	for {
		list, err := cs.CoreV1().Pods("").List(ctx, opts)
		if err != nil {
			return nil, fmt.Errorf("list the pods' uids: %w", err)
		}
		for i := range list.Items {
			uids = append(uids, list.Items[i].UID)
		}
		if opts.Continue = list.Continue; opts.Continue == "" {
			return uids, nil
		}
	}
}
