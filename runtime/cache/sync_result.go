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
// all did, why waiting stopped and why each informer had not synced. It
// has the shape of client-go's cache.SyncResult (plus fields), so code
// written against upstream factories compiles unchanged.
type SyncResult struct {
	// Err is nil when every informer synced; otherwise it is the reason
	// waiting stopped: context.Cause of the context waited on, or, when
	// the factory fails fast on unrecoverable errors (WithFailFastSync),
	// the *InformerSyncError that stopped it.
	Err error
	// Synced maps the Go type of each started informer's objects to
	// whether that informer synced.
	Synced map[reflect.Type]bool
	// SyncedMetadata maps the resource of each started metadata-only
	// informer to whether it synced; nil when there is none. (An addition
	// to client-go's shape: metadata-only informers all cache the same Go
	// type.)
	SyncedMetadata map[schema.GroupVersionResource]bool
	// Errors maps the Go type of each informer that did not sync, and
	// whose list or watch failed, to its last failure (an
	// *InformerSyncError naming the resource); nil when there is none.
	Errors map[reflect.Type]error
	// MetadataErrors is Errors for metadata-only informers, by resource.
	MetadataErrors map[schema.GroupVersionResource]error
	// SyncedResources maps the resource of each started informer that a
	// factory keys by resource rather than by Go type (dynamic informers
	// of unstructured objects, which all cache the same Go type) to
	// whether it synced; nil when there is none.
	SyncedResources map[schema.GroupVersionResource]bool
	// ResourceErrors is Errors for the informers of SyncedResources.
	ResourceErrors map[schema.GroupVersionResource]error
}

// AsError returns nil when every informer synced, and otherwise an error
// that names the informers that did not and wraps Err and the failures in
// Errors, MetadataErrors and ResourceErrors (errors.Is and errors.As reach each), e.g.
// "failed to sync all caches: *v1.Widget: context deadline exceeded;
// widgets.stable.example.com v1: the server does not serve this resource
// (is the CRD installed?): ...".
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
	for r, synced := range r.SyncedResources {
		if !synced {
			unsynced = append(unsynced, r.String())
		}
	}
	slices.Sort(unsynced)
	format := "failed to sync all caches: %s: %w"
	args := []any{strings.Join(unsynced, ", "), r.Err}
	for _, err := range r.reasons() {
		format += "; %w"
		args = append(args, err)
	}
	return fmt.Errorf(format, args...)
}

// reasons returns the failures of Errors, MetadataErrors and
// ResourceErrors other than Err, ordered by message.
func (r SyncResult) reasons() []error {
	var errs []error
	for _, err := range r.Errors {
		if err != nil && err != r.Err {
			errs = append(errs, err)
		}
	}
	for _, m := range []map[schema.GroupVersionResource]error{r.MetadataErrors, r.ResourceErrors} {
		for _, err := range m {
			if err != nil && err != r.Err {
				errs = append(errs, err)
			}
		}
	}
	slices.SortFunc(errs, func(a, b error) int { return strings.Compare(a.Error(), b.Error()) })
	return errs
}
