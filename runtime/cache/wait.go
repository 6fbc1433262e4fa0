package cache

import (
	"context"
	"time"

	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/klog/v2"
)

// syncPollPeriod is how often the wait functions re-check their
// conditions (client-go's syncedPollPeriod is 100 ms).
const syncPollPeriod = 10 * time.Millisecond

// WaitForCacheSync waits until every function in cacheSyncs returns true,
// or until stopCh is closed. It returns true when all synced, false when
// stopCh was closed first. The functions are called from the caller's
// goroutine only.
//
// It polls, as client-go's does: an InformerSynced is a bare function,
// which cannot be waited on, and nothing tells which informer's HasSynced
// it is. To wait without polling, pass the informers' and registrations'
// HasSyncedChecker to WaitFor, as shared informer factories do.
func WaitForCacheSync(stopCh <-chan struct{}, cacheSyncs ...InformerSynced) bool {
	return WaitForCacheSyncWithContext(wait.ContextForChannel(stopCh), cacheSyncs...)
}

// WaitForCacheSyncWithContext is WaitForCacheSync that stops waiting when
// ctx is done. It logs nothing but, at verbosity 2, why it stopped.
func WaitForCacheSyncWithContext(ctx context.Context, cacheSyncs ...InformerSynced) bool {
	allSynced := func() bool {
		for _, s := range cacheSyncs {
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

// WaitForNamedCacheSync is WaitForCacheSync that logs, for controllerName,
// when it starts waiting and when the caches synced, and reports an error
// when they did not.
func WaitForNamedCacheSync(controllerName string, stopCh <-chan struct{}, cacheSyncs ...InformerSynced) bool {
	ctx := klog.NewContext(wait.ContextForChannel(stopCh), klog.Background().WithValues("controller", controllerName))
	return WaitForNamedCacheSyncWithContext(ctx, cacheSyncs...)
}

// WaitForNamedCacheSyncWithContext is WaitForCacheSyncWithContext that
// logs, with klog.FromContext(ctx) (which usually names the controller),
// when it starts waiting and when the caches synced, and reports an error
// when they did not.
func WaitForNamedCacheSyncWithContext(ctx context.Context, cacheSyncs ...InformerSynced) bool {
	logger := klog.FromContext(ctx)
	logger.Info("Waiting for caches to sync")
	if !WaitForCacheSyncWithContext(ctx, cacheSyncs...) {
		logger.Error(context.Cause(ctx), "Unable to sync caches")
		return false
	}
	logger.Info("Caches are synced")
	return true
}
