package compact

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// The update walks (From) of the metadata every object holds, and of
// metadata-only objects.

// TypeMetaFrom is From of a TypeMeta.
func TypeMetaFrom(t *Table, p, old *metav1.TypeMeta) {
	StringFrom(t, &p.Kind, &old.Kind)
	StringFrom(t, &p.APIVersion, &old.APIVersion)
}

// ObjectMetaFrom compacts the metadata at p, taking from old every field
// equal to old's. Times and numbers have nothing to share.
func ObjectMetaFrom(t *Table, p, old *metav1.ObjectMeta) {
	StringFrom(t, &p.Name, &old.Name)
	StringFrom(t, &p.GenerateName, &old.GenerateName)
	StringFrom(t, &p.Namespace, &old.Namespace)
	//lint:ignore SA1019 cached objects keep what the server sent, as decoded
	StringFrom(t, &p.SelfLink, &old.SelfLink)
	OwnFrom(&p.UID, &old.UID)
	OwnFrom(&p.ResourceVersion, &old.ResourceVersion)
	From(t, &p.DeletionTimestamp, &old.DeletionTimestamp, metaTimePointer, equalMetaTimePointer)
	From(t, &p.DeletionGracePeriodSeconds, &old.DeletionGracePeriodSeconds, int64Pointer, equalInt64Pointer)
	From(t, &p.Labels, &old.Labels, stringMap, equalStringMap)
	From(t, &p.Annotations, &old.Annotations, stringMap, equalStringMap)
	From(t, &p.OwnerReferences, &old.OwnerReferences, ownerReferences, equalOwnerReferences)
	From(t, &p.Finalizers, &old.Finalizers, stringSlice, equalStringSlice)
	From(t, &p.ManagedFields, &old.ManagedFields, managedFields, equalManagedFields)
}

// partialObjectMetadataFrom is the update walk of metadata-only objects.
func partialObjectMetadataFrom(t *Table, obj, old *metav1.PartialObjectMetadata) {
	if obj == old {
		return
	}
	TypeMetaFrom(t, &obj.TypeMeta, &old.TypeMeta)
	ObjectMetaFrom(t, &obj.ObjectMeta, &old.ObjectMeta)
}

func metaTimePointer(t *Table, p **metav1.Time, h *Hash) { Pointer(t, p, MetaTime, EqualMetaTime, h) }

func equalMetaTimePointer(a, b **metav1.Time) bool { return EqualPointers(*a, *b, EqualMetaTime) }

func int64Pointer(t *Table, p **int64, h *Hash) { Pointer(t, p, Scalar[int64], Eq[int64], h) }

func equalInt64Pointer(a, b **int64) bool { return EqualPointers(*a, *b, Eq[int64]) }

func stringMap(t *Table, p *map[string]string, h *Hash) { Map(t, p, String, String, Eq[string], h) }

func equalStringMap(a, b *map[string]string) bool { return EqualMaps(*a, *b, Eq[string]) }

func ownerReferences(t *Table, p *[]metav1.OwnerReference, h *Hash) {
	Slice(t, p, OwnerReference, EqualOwnerReference, h)
}

func equalOwnerReferences(a, b *[]metav1.OwnerReference) bool {
	return EqualSlices(*a, *b, EqualOwnerReference)
}

func stringSlice(t *Table, p *[]string, h *Hash) { Slice(t, p, String, Eq[string], h) }

func equalStringSlice(a, b *[]string) bool { return EqualSlices(*a, *b, Eq[string]) }

func managedFields(t *Table, p *[]metav1.ManagedFieldsEntry, h *Hash) {
	Slice(t, p, ManagedFieldsEntry, EqualManagedFieldsEntry, h)
}

func equalManagedFields(a, b *[]metav1.ManagedFieldsEntry) bool {
	return EqualSlices(*a, *b, EqualManagedFieldsEntry)
}

func init() {
	RegisterUpdate(partialObjectMetadataFrom)
}
