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
