package compact

import "k8s.io/apimachinery/pkg/api/meta"

// StripManagedFields clears metadata.managedFields of obj, when obj has
// object metadata and they are set (runtime/cache's StripManagedFields,
// a factory's default transform, and Decoded for the decoders of an
// informer with that transform). It writes nothing when there are none:
// a reader of an object already stripped does not race with it. Only
// the field of obj's own metadata is written, no part compaction
// shares.
func StripManagedFields(obj any) {
	if m, err := meta.Accessor(obj); err == nil && m.GetManagedFields() != nil {
		m.SetManagedFields(nil)
	}
}
