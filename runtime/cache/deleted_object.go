package cache

// DeletedObject is what a TypedResourceEventHandler's OnDelete receives:
// the deleted object and whether its final state is known.
//
// When the informer observed the deletion, OptionalObj is the object as it
// was deleted and FinalStateUnknown is nil. When the object vanished
// without the deletion being observed (it was missing from a relist, or it
// was re-created with a new UID under the same name and this client missed
// the delete), FinalStateUnknown is the tombstone and OptionalObj is the
// last state this client knew, which may be stale, or nil if the tombstone
// held no object of type T.
//
// Its methods work in every case. GetName and GetNamespace make it usable
// with klog.KObj directly. DeletedObject is a value; it is safe to share
// between goroutines as long as nobody mutates OptionalObj.
type DeletedObject[T Object] struct {
	// OptionalObj is the deleted object: up to date when FinalStateUnknown
	// is nil, possibly stale or nil otherwise.
	OptionalObj T
	// FinalStateUnknown is nil when OptionalObj is the object's final
	// state, and the tombstone (with the store key) otherwise.
	FinalStateUnknown *DeletedFinalStateUnknown
}

// GetObjectName returns the deleted object's namespace and name.
func (d DeletedObject[T]) GetObjectName() ObjectName {
	if d.FinalStateUnknown != nil {
		n, err := ParseObjectName(d.FinalStateUnknown.Key)
		if err != nil {
			return ObjectName{Name: d.FinalStateUnknown.Key}
		}
		return n
	}
	var zero T
	if d.OptionalObj == zero {
		return ObjectName{}
	}
	return ObjectName{Namespace: d.OptionalObj.GetNamespace(), Name: d.OptionalObj.GetName()}
}

// GetName returns the deleted object's name.
func (d DeletedObject[T]) GetName() string { return d.GetObjectName().Name }

// GetNamespace returns the deleted object's namespace.
func (d DeletedObject[T]) GetNamespace() string { return d.GetObjectName().Namespace }

// GetKey returns the key under which the object was cached (see
// MetaNamespaceKeyFunc).
func (d DeletedObject[T]) GetKey() string {
	if d.FinalStateUnknown != nil {
		return d.FinalStateUnknown.Key
	}
	return d.GetObjectName().String()
}
