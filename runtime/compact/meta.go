package compact

import (
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
)

// The walks of apimachinery's types that every API object holds, written
// out so that no object's metadata is walked by reflection.

// TypeMeta interns the kind and apiVersion.
func TypeMeta(t *Table, p *metav1.TypeMeta, h *Hash) {
	String(t, &p.Kind, h)
	String(t, &p.APIVersion, h)
}

// ObjectMeta interns the metadata's strings and shares its labels,
// annotations, owner references, finalizers and managed fields. The UID
// and resourceVersion are the object's own (Own): no other object has
// them.
func ObjectMeta(t *Table, p *metav1.ObjectMeta, h *Hash) {
	String(t, &p.Name, h)
	String(t, &p.GenerateName, h)
	String(t, &p.Namespace, h)
	//lint:ignore SA1019 cached objects keep what the server sent, as decoded
	String(t, &p.SelfLink, h)
	Own(t, &p.UID, h)
	Own(t, &p.ResourceVersion, h)
	Scalar(t, &p.Generation, h)
	MetaTime(t, &p.CreationTimestamp, h)
	Pointer(t, &p.DeletionTimestamp, MetaTime, EqualMetaTime, h)
	Pointer(t, &p.DeletionGracePeriodSeconds, Scalar[int64], Eq[int64], h)
	Map(t, &p.Labels, String, String, Eq[string], h)
	Map(t, &p.Annotations, String, String, Eq[string], h)
	Slice(t, &p.OwnerReferences, OwnerReference, EqualOwnerReference, h)
	Slice(t, &p.Finalizers, String, Eq[string], h)
	Slice(t, &p.ManagedFields, ManagedFieldsEntry, EqualManagedFieldsEntry, h)
}

// EqualObjectMeta reports whether two ObjectMetas are equal.
func EqualObjectMeta(a, b *metav1.ObjectMeta) bool {
	//lint:ignore SA1019 equality covers every field, as reflect.DeepEqual
	selfLink := a.SelfLink == b.SelfLink
	return a.Name == b.Name && a.GenerateName == b.GenerateName && a.Namespace == b.Namespace &&
		selfLink && a.UID == b.UID && a.ResourceVersion == b.ResourceVersion &&
		a.Generation == b.Generation && a.CreationTimestamp.Time == b.CreationTimestamp.Time &&
		EqualPointers(a.DeletionTimestamp, b.DeletionTimestamp, EqualMetaTime) &&
		EqualPointers(a.DeletionGracePeriodSeconds, b.DeletionGracePeriodSeconds, Eq[int64]) &&
		EqualMaps(a.Labels, b.Labels, Eq[string]) && EqualMaps(a.Annotations, b.Annotations, Eq[string]) &&
		EqualSlices(a.OwnerReferences, b.OwnerReferences, EqualOwnerReference) &&
		EqualSlices(a.Finalizers, b.Finalizers, Eq[string]) &&
		EqualSlices(a.ManagedFields, b.ManagedFields, EqualManagedFieldsEntry)
}

// OwnerReference interns an owner reference's strings and shares its
// flags.
func OwnerReference(t *Table, p *metav1.OwnerReference, h *Hash) {
	String(t, &p.APIVersion, h)
	String(t, &p.Kind, h)
	String(t, &p.Name, h)
	StringOf(t, &p.UID, h)
	Pointer(t, &p.Controller, Bool[bool], Eq[bool], h)
	Pointer(t, &p.BlockOwnerDeletion, Bool[bool], Eq[bool], h)
}

// EqualOwnerReference reports whether two owner references are equal.
func EqualOwnerReference(a, b *metav1.OwnerReference) bool {
	return a.APIVersion == b.APIVersion && a.Kind == b.Kind && a.Name == b.Name && a.UID == b.UID &&
		EqualPointers(a.Controller, b.Controller, Eq[bool]) &&
		EqualPointers(a.BlockOwnerDeletion, b.BlockOwnerDeletion, Eq[bool])
}

// ManagedFieldsEntry interns a managed-fields entry's strings and shares
// its fields set.
func ManagedFieldsEntry(t *Table, p *metav1.ManagedFieldsEntry, h *Hash) {
	String(t, &p.Manager, h)
	StringOf(t, &p.Operation, h)
	String(t, &p.APIVersion, h)
	Pointer(t, &p.Time, MetaTime, EqualMetaTime, h)
	String(t, &p.FieldsType, h)
	Pointer(t, &p.FieldsV1, fieldsV1, equalFieldsV1, h)
	String(t, &p.Subresource, h)
}

func fieldsV1(t *Table, p *metav1.FieldsV1, h *Hash) { Bytes(t, &p.Raw, h) }

func equalFieldsV1(a, b *metav1.FieldsV1) bool { return EqualBytes(&a.Raw, &b.Raw) }

// EqualManagedFieldsEntry reports whether two managed-fields entries are
// equal.
func EqualManagedFieldsEntry(a, b *metav1.ManagedFieldsEntry) bool {
	return a.Manager == b.Manager && a.Operation == b.Operation && a.APIVersion == b.APIVersion &&
		EqualPointers(a.Time, b.Time, EqualMetaTime) && a.FieldsType == b.FieldsType &&
		EqualPointers(a.FieldsV1, b.FieldsV1, equalFieldsV1) && a.Subresource == b.Subresource
}

// RawExtension shares the raw bytes of an embedded object; a decoded
// Object is opaque.
func RawExtension(t *Table, p *runtime.RawExtension, h *Hash) {
	Bytes(t, &p.Raw, h)
	Interface(t, &p.Object, h)
}

// EqualRawExtension reports whether two raw extensions without decoded
// objects hold the same bytes.
func EqualRawExtension(a, b *runtime.RawExtension) bool {
	return a.Object == nil && b.Object == nil && EqualBytes(&a.Raw, &b.Raw)
}

func init() {
	RegisterWalk(TypeMeta, Eq[metav1.TypeMeta])
	RegisterWalk(ObjectMeta, EqualObjectMeta)
	RegisterWalk(OwnerReference, EqualOwnerReference)
	RegisterWalk(ManagedFieldsEntry, EqualManagedFieldsEntry)
	RegisterWalk(MetaTime, EqualMetaTime)
	RegisterWalk(MetaMicroTime, EqualMetaMicroTime)
	RegisterWalk(Quantity, EqualQuantity)
	RegisterWalk(IntOrString, Eq)
	RegisterWalk(StringOf[types.UID], Eq[types.UID])
	RegisterWalk(RawExtension, EqualRawExtension)
	RegisterWalk(StringOf[resource.Format], Eq[resource.Format])
}
