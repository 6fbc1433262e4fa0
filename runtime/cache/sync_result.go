package cache

import (
	"fmt"
	"reflect"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/runtime/schema"
)

// SyncResult is what a shared informer factory's
// WaitForCacheSyncWithContext reports: which informers synced and, if not
// all did, why waiting stopped. It has the shape of client-go's
// cache.SyncResult, so code written against upstream factories compiles
// unchanged.
type SyncResult struct {
	// Err is nil when every informer synced; otherwise it is the reason
	// waiting stopped (context.Cause of the context waited on).
	Err error
	// Synced maps the Go type of each started informer's objects to
	// whether that informer synced.
	Synced map[reflect.Type]bool
	// SyncedMetadata maps the resource of each started metadata-only
	// informer to whether it synced; nil when there is none. (An addition
	// to client-go's shape: metadata-only informers all cache the same Go
	// type.)
	SyncedMetadata map[schema.GroupVersionResource]bool
}

// AsError returns nil when every informer synced, and otherwise an error
// that names the informers that did not and wraps Err.
func (r SyncResult) AsError() error {
	if r.Err == nil {
		return nil
	}
	var unsynced []string
	for t, synced := range r.Synced {
		if !synced {
			unsynced = append(unsynced, t.String())
		}
	}
	for r, synced := range r.SyncedMetadata {
		if !synced {
			unsynced = append(unsynced, r.String()+" (metadata)")
		}
	}
	slices.Sort(unsynced)
	return fmt.Errorf("caches not synced: %s: %w", strings.Join(unsynced, ", "), r.Err)
}
