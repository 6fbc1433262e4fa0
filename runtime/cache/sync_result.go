package cache

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
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
	slices.Sort(unsynced)
	return fmt.Errorf("caches not synced: %s: %w", strings.Join(unsynced, ", "), r.Err)
}
