package compact

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// The walks and equalities of ObjectMeta's slices, maps and pointers as
// ObjectMeta and ObjectMetaFrom walk and compare them, for a decoder that
// shares them as it decodes (runtime/jsondecode's Shared).

// WalkStringMap is ObjectMeta's walk of its labels and annotations.
func WalkStringMap(t *Table, p *map[string]string, h *Hash) { stringMap(t, p, h) }

// EqualStringMap is ObjectMetaFrom's equality of labels and annotations.
func EqualStringMap(a, b *map[string]string) bool { return equalStringMap(a, b) }

// WalkStringSlice is ObjectMeta's walk of its finalizers.
func WalkStringSlice(t *Table, p *[]string, h *Hash) { stringSlice(t, p, h) }

// EqualStringSlice is ObjectMetaFrom's equality of finalizers.
func EqualStringSlice(a, b *[]string) bool { return equalStringSlice(a, b) }

// WalkOwnerReferences is ObjectMeta's walk of its owner references.
func WalkOwnerReferences(t *Table, p *[]metav1.OwnerReference, h *Hash) { ownerReferences(t, p, h) }

// EqualOwnerReferences is ObjectMetaFrom's equality of owner references.
func EqualOwnerReferences(a, b *[]metav1.OwnerReference) bool { return equalOwnerReferences(a, b) }

// WalkManagedFields is ObjectMeta's walk of its managed fields.
func WalkManagedFields(t *Table, p *[]metav1.ManagedFieldsEntry, h *Hash) { managedFields(t, p, h) }

// EqualManagedFields is ObjectMetaFrom's equality of managed fields.
func EqualManagedFields(a, b *[]metav1.ManagedFieldsEntry) bool { return equalManagedFields(a, b) }

// WalkMetaTimePointer is ObjectMeta's walk of its deletion timestamp.
func WalkMetaTimePointer(t *Table, p **metav1.Time, h *Hash) { metaTimePointer(t, p, h) }

// EqualMetaTimePointer is ObjectMetaFrom's equality of deletion
// timestamps.
func EqualMetaTimePointer(a, b **metav1.Time) bool { return equalMetaTimePointer(a, b) }

// WalkInt64Pointer is ObjectMeta's walk of its deletion grace period.
func WalkInt64Pointer(t *Table, p **int64, h *Hash) { int64Pointer(t, p, h) }

// EqualInt64Pointer is ObjectMetaFrom's equality of deletion grace
// periods.
func EqualInt64Pointer(a, b **int64) bool { return equalInt64Pointer(a, b) }
