package protodecode

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/informer-gen/informer-gen/runtime/compact"
)

// The decoders of the types of k8s.io/apimachinery's meta/v1 that hold
// the strings of every object (its metadata), written here as the
// generated ones are: each field as go-to-protobuf's Unmarshal of the type
// decodes it, strings interned. The others are decoded by their own
// Unmarshal (Unmarshaled).

// ObjectMeta decodes a metav1.ObjectMeta; its UID and resourceVersion
// are not interned (no other object has them). Decoding into the compact
// object, its slices, maps and pointers are shared as the compaction
// walk's ObjectMeta shares them, and once its name and namespace are
// decoded (fields 1 to 3, which servers write first) the previous
// version of the object can be asked for.
func ObjectMeta(d *Decoder, p *metav1.ObjectMeta) {
	for d.Next() {
		if d.Field() > 3 {
			d.metaReady(&p.Name, &p.GenerateName, &p.Namespace)
		}
		switch d.Field() {
		case 1:
			String(d, &p.Name)
		case 2:
			String(d, &p.GenerateName)
		case 3:
			String(d, &p.Namespace)
		case 4:
			//lint:ignore SA1019 decoded as ObjectMeta.Unmarshal decodes it
			String(d, &p.SelfLink)
		case 5:
			Own(d, &p.UID)
		case 6:
			Own(d, &p.ResourceVersion)
		default:
			objectMetaRest(d, p)
		}
	}
	d.metaReady(&p.Name, &p.GenerateName, &p.Namespace)
}

// objectMetaRest decodes the fields of a metav1.ObjectMeta that are not
// plain strings.
func objectMetaRest(d *Decoder, p *metav1.ObjectMeta) {
	switch d.Field() {
	case 7:
		Int(d, &p.Generation)
	case 8:
		Message(d, &p.CreationTimestamp, Unmarshaled[metav1.Time])
	case 9:
		SharedOptMessage(d, &p.DeletionTimestamp, Unmarshaled[metav1.Time], compact.WalkMetaTimePointer, compact.EqualMetaTimePointer)
	case 10:
		SharedOptInt(d, &p.DeletionGracePeriodSeconds, compact.WalkInt64Pointer, compact.EqualInt64Pointer)
	case 11:
		SharedStringMap(d, &p.Labels, compact.WalkStringMap, compact.EqualStringMap)
	case 12:
		SharedStringMap(d, &p.Annotations, compact.WalkStringMap, compact.EqualStringMap)
	case 13:
		SharedMessages(d, &p.OwnerReferences, OwnerReference, compact.WalkOwnerReferences, compact.EqualOwnerReferences)
	case 14:
		SharedStrings(d, &p.Finalizers, compact.WalkStringSlice, compact.EqualStringSlice)
	case 17:
		if p == d.omitFrom {
			d.Skip()
			return
		}
		SharedMessages(d, &p.ManagedFields, ManagedFieldsEntry, compact.WalkManagedFields, compact.EqualManagedFields)
	default:
		d.Skip()
	}
}

// OwnerReference decodes a metav1.OwnerReference.
func OwnerReference(d *Decoder, p *metav1.OwnerReference) {
	for d.Next() {
		switch d.Field() {
		case 1:
			String(d, &p.Kind)
		case 3:
			String(d, &p.Name)
		case 4:
			String(d, &p.UID)
		case 5:
			String(d, &p.APIVersion)
		case 6:
			OptBool(d, &p.Controller)
		case 7:
			OptBool(d, &p.BlockOwnerDeletion)
		default:
			d.Skip()
		}
	}
}

// ManagedFieldsEntry decodes a metav1.ManagedFieldsEntry.
func ManagedFieldsEntry(d *Decoder, p *metav1.ManagedFieldsEntry) {
	for d.Next() {
		switch d.Field() {
		case 1:
			String(d, &p.Manager)
		case 2:
			String(d, &p.Operation)
		case 3:
			String(d, &p.APIVersion)
		case 4:
			OptMessage(d, &p.Time, Unmarshaled[metav1.Time])
		case 6:
			String(d, &p.FieldsType)
		case 7:
			OptMessage(d, &p.FieldsV1, Unmarshaled[metav1.FieldsV1])
		case 8:
			String(d, &p.Subresource)
		default:
			d.Skip()
		}
	}
}

// LabelSelector decodes a metav1.LabelSelector.
func LabelSelector(d *Decoder, p *metav1.LabelSelector) {
	for d.Next() {
		switch d.Field() {
		case 1:
			StringMap(d, &p.MatchLabels)
		case 2:
			Messages(d, &p.MatchExpressions, LabelSelectorRequirement)
		default:
			d.Skip()
		}
	}
}

// LabelSelectorRequirement decodes a metav1.LabelSelectorRequirement.
func LabelSelectorRequirement(d *Decoder, p *metav1.LabelSelectorRequirement) {
	for d.Next() {
		switch d.Field() {
		case 1:
			String(d, &p.Key)
		case 2:
			String(d, &p.Operator)
		case 3:
			Strings(d, &p.Values)
		default:
			d.Skip()
		}
	}
}

// Condition decodes a metav1.Condition.
func Condition(d *Decoder, p *metav1.Condition) {
	for d.Next() {
		switch d.Field() {
		case 1:
			String(d, &p.Type)
		case 2:
			String(d, &p.Status)
		case 3:
			Int(d, &p.ObservedGeneration)
		case 4:
			Message(d, &p.LastTransitionTime, Unmarshaled[metav1.Time])
		case 5:
			String(d, &p.Reason)
		case 6:
			String(d, &p.Message)
		default:
			d.Skip()
		}
	}
}
