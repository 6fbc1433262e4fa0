package factory

import (
	"k8s.io/apimachinery/pkg/api/meta"
)

// StripManagedFields is the cache.TransformFunc a factory applies by
// default: it clears metadata.managedFields of every object entering an
// informer, before the cache and the handlers see it. managedFields record
// which field manager owns which field (server-side apply) and are often
// most of an object's size; controllers rarely read them.
//
// Objects without object metadata pass through unchanged. The object is
// modified in place, as a TransformFunc may: it was just decoded for the
// informer and is not shared yet. Safe for concurrent use.
func StripManagedFields(obj any) (any, error) {
	if m, err := meta.Accessor(obj); err == nil && m.GetManagedFields() != nil {
		m.SetManagedFields(nil)
	}
	return obj, nil
}

// managedFieldsLogLine is what a factory that strips managedFields logs at
// its first Start, so that someone looking for them knows why they are
// gone and how to keep them.
const managedFieldsLogLine = "Informers drop metadata.managedFields from cached objects to save memory; " +
	"keep them with the factory option WithManagedFields (controllers that call applyconfigurations' Extract functions on cached objects need them)"
