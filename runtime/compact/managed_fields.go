package compact

import (
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

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

// Omit names the parts of an object a generated decoder leaves out when
// it decodes into the compact object (protodecode.DecodeCompact,
// jsondecode.DecodeEventCompact and DecodeListCompact).
type Omit uint8

// OmitManagedFields leaves the object's metadata.managedFields out (nil),
// for an informer that strips them (Decoded.StripsManagedFields); the
// metadata of an object nested in it (a template's) keeps them, as
// StripManagedFields leaves them.
const OmitManagedFields Omit = 1

// MetaOf returns the metadata of the object p points to (a type that
// embeds metav1.ObjectMeta), or nil.
func MetaOf(p any) *metav1.ObjectMeta {
	if a, ok := p.(metav1.ObjectMetaAccessor); ok {
		m, _ := a.GetObjectMeta().(*metav1.ObjectMeta)
		return m
	}
	return nil
}
