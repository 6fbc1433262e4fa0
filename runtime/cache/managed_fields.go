package cache

import (
	"reflect"

	"github.com/informer-gen/informer-gen/runtime/compact"
)

// StripManagedFields is a TransformFunc that clears metadata.managedFields
// of every object entering an informer, before the cache and the handlers
// see it (runtime/factory applies it by default). managedFields record
// which field manager owns which field (server-side apply) and are often
// most of an object's size; controllers rarely read them.
//
// Objects without object metadata pass through unchanged. The object is
// modified in place, as a TransformFunc may: only the field of its own
// metadata is cleared, no map, slice or pointer it holds is written.
// That is why, unlike any other transform, it leaves the informer's
// generated decoders handing objects over already compact
// (SharedIndexInformerOptions.Decoded): clearing the field of an object
// the decoder compacted changes no part it shares. Safe for concurrent
// use.
func StripManagedFields(obj any) (any, error) {
	compact.StripManagedFields(obj)
	return obj, nil
}

// stripManagedFieldsCode identifies StripManagedFields among transforms:
// the entry of its code, read once.
var stripManagedFieldsCode = reflect.ValueOf(StripManagedFields).Pointer()

// decodedCompactionAllows reports whether an informer with transform t
// can take objects its decoder compacted (compact.Decoded): with no
// transform, or with StripManagedFields alone. Any other transform must
// see an object before it is compacted: it may write a part compaction
// shares with other objects. Read at construction, not per object.
func decodedCompactionAllows(t TransformFunc) bool {
	return t == nil || reflect.ValueOf(t).Pointer() == stripManagedFieldsCode
}
