package jsondecode

import (
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/informer-gen/informer-gen/runtime/compact"
)

// The decoders of the apimachinery types every API package uses, written
// here once (generated code calls them by name) and registered for Value.
// Only types whose fields are the same in every apimachinery release we
// support (v0.34 to v0.37) are decoded field by field: ListMeta, which
// v0.37 gave shardInfo, is decoded by reflection (once per list page).
// Those with an UnmarshalJSON method call it (Duration, Quantity,
// RawExtension, FieldsV1) or do what it does (Time, MicroTime,
// IntOrString, which would decode their string by reflection).
func init() {
	Register(TypeMeta)
	Register(ObjectMeta)
	Register(OwnerReference)
	Register(ManagedFieldsEntry)
	Register(LabelSelector)
	Register(LabelSelectorRequirement)
	Register(Condition)
	Register(Time)
	Register(MicroTime)
	Register(IntOrString)
	Register(Unmarshaler[metav1.Duration])
	Register(Unmarshaler[metav1.FieldsV1])
	Register(Unmarshaler[resource.Quantity])
	Register(Unmarshaler[runtime.RawExtension])
}

// TypeMeta decodes a metav1.TypeMeta (a struct embeds it: its fields
// are the struct's, see TypeMetaField).
func TypeMeta(d *Decoder, p *metav1.TypeMeta) {
	if !d.Object() {
		return
	}
	for name, ok := d.Field(); ok; name, ok = d.Field() {
		if !TypeMetaField(d, p, name) {
			d.Skip()
		}
	}
}

// TypeMetaField decodes the member name of an object into the embedded
// TypeMeta at p and reports true when it is one of its fields.
func TypeMetaField(d *Decoder, p *metav1.TypeMeta, name []byte) bool {
	switch string(name) {
	case "kind":
		String(d, &p.Kind)
	case "apiVersion":
		String(d, &p.APIVersion)
	default:
		return false
	}
	return true
}

// ObjectMeta decodes a metav1.ObjectMeta; its UID and resourceVersion are
// not interned (no other object has them).
func ObjectMeta(d *Decoder, p *metav1.ObjectMeta) {
	if !d.Object() {
		return
	}
	for name, ok := d.Field(); ok; name, ok = d.Field() {
		switch string(name) {
		case "name", "generateName", "namespace":
		default:
			d.metaReady(p)
		}
		if !objectMetaField(d, p, name) {
			d.Skip()
		}
	}
	d.metaReady(p)
}

// objectMetaField decodes the member name of an ObjectMeta.
func objectMetaField(d *Decoder, p *metav1.ObjectMeta, name []byte) bool {
	switch string(name) {
	case "name":
		String(d, &p.Name)
	case "generateName":
		String(d, &p.GenerateName)
	case "namespace":
		String(d, &p.Namespace)
	case "selfLink":
		//lint:ignore SA1019 decoded as sigs.k8s.io/json decodes it
		String(d, &p.SelfLink)
	case "uid":
		Own(d, &p.UID)
	case "resourceVersion":
		Own(d, &p.ResourceVersion)
	case "generation":
		Int(d, &p.Generation)
	case "creationTimestamp":
		Time(d, &p.CreationTimestamp)
	case "deletionTimestamp":
		Shared(d, &p.DeletionTimestamp, timePointer, compact.WalkMetaTimePointer, compact.EqualMetaTimePointer)
	case "deletionGracePeriodSeconds":
		Shared(d, &p.DeletionGracePeriodSeconds, int64Pointer, compact.WalkInt64Pointer, compact.EqualInt64Pointer)
	default:
		return objectMetaCollection(d, p, name)
	}
	return true
}

// objectMetaCollection decodes the maps and slices of an ObjectMeta.
func objectMetaCollection(d *Decoder, p *metav1.ObjectMeta, name []byte) bool {
	switch string(name) {
	case "labels":
		Shared(d, &p.Labels, stringMap, compact.WalkStringMap, compact.EqualStringMap)
	case "annotations":
		Shared(d, &p.Annotations, stringMap, compact.WalkStringMap, compact.EqualStringMap)
	case "ownerReferences":
		Shared(d, &p.OwnerReferences, ownerReferences, compact.WalkOwnerReferences, compact.EqualOwnerReferences)
	case "finalizers":
		Shared(d, &p.Finalizers, stringSlice, compact.WalkStringSlice, compact.EqualStringSlice)
	case "managedFields":
		if p == d.omitFrom {
			d.Skip() // the informer strips them (compact.OmitManagedFields)
			break
		}
		Shared(d, &p.ManagedFields, managedFields, compact.WalkManagedFields, compact.EqualManagedFields)
	default:
		return false
	}
	return true
}

// OwnerReference decodes a metav1.OwnerReference.
func OwnerReference(d *Decoder, p *metav1.OwnerReference) {
	if !d.Object() {
		return
	}
	for name, ok := d.Field(); ok; name, ok = d.Field() {
		switch string(name) {
		case "apiVersion":
			String(d, &p.APIVersion)
		case "kind":
			String(d, &p.Kind)
		case "name":
			String(d, &p.Name)
		case "uid":
			String(d, &p.UID)
		case "controller":
			Pointer(d, &p.Controller, Bool[bool])
		case "blockOwnerDeletion":
			Pointer(d, &p.BlockOwnerDeletion, Bool[bool])
		default:
			d.Skip()
		}
	}
}

// ManagedFieldsEntry decodes a metav1.ManagedFieldsEntry.
func ManagedFieldsEntry(d *Decoder, p *metav1.ManagedFieldsEntry) {
	if !d.Object() {
		return
	}
	for name, ok := d.Field(); ok; name, ok = d.Field() {
		switch string(name) {
		case "manager":
			String(d, &p.Manager)
		case "operation":
			String(d, &p.Operation)
		case "apiVersion":
			String(d, &p.APIVersion)
		case "time":
			Pointer(d, &p.Time, Time)
		case "fieldsType":
			String(d, &p.FieldsType)
		case "fieldsV1":
			Pointer(d, &p.FieldsV1, Unmarshaler[metav1.FieldsV1])
		case "subresource":
			String(d, &p.Subresource)
		default:
			d.Skip()
		}
	}
}

// LabelSelector decodes a metav1.LabelSelector.
func LabelSelector(d *Decoder, p *metav1.LabelSelector) {
	if !d.Object() {
		return
	}
	for name, ok := d.Field(); ok; name, ok = d.Field() {
		switch string(name) {
		case "matchLabels":
			Map(d, &p.MatchLabels, String[string])
		case "matchExpressions":
			Slice(d, &p.MatchExpressions, LabelSelectorRequirement)
		default:
			d.Skip()
		}
	}
}

// LabelSelectorRequirement decodes a metav1.LabelSelectorRequirement.
func LabelSelectorRequirement(d *Decoder, p *metav1.LabelSelectorRequirement) {
	if !d.Object() {
		return
	}
	for name, ok := d.Field(); ok; name, ok = d.Field() {
		switch string(name) {
		case "key":
			String(d, &p.Key)
		case "operator":
			String(d, &p.Operator)
		case "values":
			Slice(d, &p.Values, String[string])
		default:
			d.Skip()
		}
	}
}

// Condition decodes a metav1.Condition.
func Condition(d *Decoder, p *metav1.Condition) {
	if !d.Object() {
		return
	}
	for name, ok := d.Field(); ok; name, ok = d.Field() {
		switch string(name) {
		case "type":
			String(d, &p.Type)
		case "status":
			String(d, &p.Status)
		case "observedGeneration":
			Int(d, &p.ObservedGeneration)
		case "lastTransitionTime":
			Time(d, &p.LastTransitionTime)
		case "reason":
			String(d, &p.Reason)
		case "message":
			String(d, &p.Message)
		default:
			d.Skip()
		}
	}
}

// The decoders of ObjectMeta's slices, maps and pointers (Shared decodes
// through them).
func timePointer(d *Decoder, p **metav1.Time)                { Pointer(d, p, Time) }
func int64Pointer(d *Decoder, p **int64)                     { Pointer(d, p, Int[int64]) }
func stringMap(d *Decoder, p *map[string]string)             { Map(d, p, String[string]) }
func stringSlice(d *Decoder, p *[]string)                    { Slice(d, p, String[string]) }
func ownerReferences(d *Decoder, p *[]metav1.OwnerReference) { Slice(d, p, OwnerReference) }
func managedFields(d *Decoder, p *[]metav1.ManagedFieldsEntry) {
	Slice(d, p, ManagedFieldsEntry)
}
