package protodecode

import (
	"reflect"
	"sync"
)

// registry maps a Go type T to its registered Func[T] (Register).
var registry sync.Map

// Register makes fn the decoder of type T for For: generated code
// registers the decoder of every type it generates one for.
func Register[T any](fn Func[T]) {
	registry.Store(reflect.TypeFor[T](), fn)
}

// For returns the registered decoder of T: the generated informers of
// protobuf types hand it to their protowatch.Watcher.
func For[T any]() (Func[T], bool) {
	fn, ok := registry.Load(reflect.TypeFor[T]())
	if !ok {
		return nil, false
	}
	return fn.(Func[T]), true
}

// Value decodes a message of a type of another package (a core/v1
// PodTemplateSpec in an apps/v1 Deployment) with its registered decoder
// when there is one, else with its own Unmarshal (Unmarshaled).
func Value[T any, PT Unmarshaler[T]](d *Decoder, p *T) {
	if fn, ok := For[T](); ok {
		fn(d, p)
		return
	}
	Unmarshaled[T, PT](d, p)
}

// compacting holds the types whose generated decoders, sharing, build
// the compact object (RegisterCompact).
var compacting sync.Map

// RegisterCompact records that fn, the generated decoder of T, shares
// every part of a T that T's generated compaction walk shares, so that
// with sharing on (DecodeCompact) it builds the compact object:
// informer-gen's generated code calls it from init for the informer
// kinds of which that holds.
func RegisterCompact[T any](fn Func[T]) { compacting.Store(reflect.TypeFor[T](), true) }

// Compacts reports whether T's registered decoder builds the compact
// object (RegisterCompact).
func Compacts[T any]() bool {
	_, ok := compacting.Load(reflect.TypeFor[T]())
	return ok
}
