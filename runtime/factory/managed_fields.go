package factory

import (
	"github.com/informer-gen/informer-gen/runtime/cache"
)

// StripManagedFields is the cache.TransformFunc a factory applies by
// default: it clears metadata.managedFields of every object entering an
// informer, before the cache and the handlers see it. managedFields record
// which field manager owns which field (server-side apply) and are often
// most of an object's size; controllers rarely read them.
//
// It is cache.StripManagedFields (see there), which the factory gives
// its informers itself, so that their generated decoders still hand
// objects over compact. Safe for concurrent use.
func StripManagedFields(obj any) (any, error) {
	return cache.StripManagedFields(obj)
}

// managedFieldsLogLine is what a factory that strips managedFields logs at
// its first Start, so that someone looking for them knows why they are
// gone and how to keep them.
const managedFieldsLogLine = "Informers drop metadata.managedFields from cached objects to save memory; " +
	"keep them with the factory option WithManagedFields (controllers that call applyconfigurations' Extract functions on cached objects need them)"
