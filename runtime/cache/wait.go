package cache

import (
	"context"
	"time"

	"k8s.io/klog/v2"
)

// syncPollPeriod is how often WaitForCacheSync re-checks its functions.
const syncPollPeriod = 10 * time.Millisecond

// WaitForCacheSync waits until every function in synced returns true, or
// until ctx is done. It returns true when all synced, false when ctx ended
// first. It may be called from any goroutine; the functions are called from
// the caller's goroutine only.
func WaitForCacheSync(ctx context.Context, synced ...InformerSynced) bool {
	allSynced := func() bool {
		for _, s := range synced {
			if !s() {
				return false
			}
		}
		return true
	}
	if allSynced() {
		return true
	}
	ticker := time.NewTicker(syncPollPeriod)
	defer ticker.Stop()
	for {
		select {
		case <-ctx.Done():
			klog.FromContext(ctx).V(2).Info("Stopped waiting for caches to sync", "reason", context.Cause(ctx))
			return false
		case <-ticker.C:
			if allSynced() {
				return true
			}
		}
	}
}
