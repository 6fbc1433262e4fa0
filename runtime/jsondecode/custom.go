package jsondecode

import (
	"encoding/json"
	"reflect"
	"sync"

	sigsjson "sigs.k8s.io/json"
)

// Unmarshaler decodes the next value with the UnmarshalJSON method of the
// type at p, handed the value as it is in the input (null too, as
// encoding/json hands it to a non-pointer's method).
func Unmarshaler[T any, PT interface {
	*T
	json.Unmarshaler
}](d *Decoder, p *T) {
	raw := d.Raw()
	if d.err != nil {
		return
	}
	if err := PT(p).UnmarshalJSON(raw); err != nil {
		d.fail(err)
	}
}

// registry maps a Go type T to its registered Func[T] (Register).
var registry sync.Map

// Register makes fn the decoder of type T for Value and For: generated
// code registers the decoder of every type it generates one for, so that
// the decoders generated for another package (an apps/v1 type holding a
// core/v1 PodTemplateSpec) use it.
func Register[T any](fn Func[T]) {
	registry.Store(reflect.TypeFor[T](), fn)
}

// For returns the registered decoder of T.
func For[T any]() (Func[T], bool) {
	fn, ok := registry.Load(reflect.TypeFor[T]())
	if !ok {
		return nil, false
	}
	return fn.(Func[T]), true
}

// Value decodes a value of a type the generated code of its package did
// not generate a decoder for (it is declared elsewhere, or needs what
// only reflection does: an interface, a ",string" field): with the
// registered decoder of T when there is one, else with sigs.k8s.io/json
// on the value as it is in the input.
func Value[T any](d *Decoder, p *T) {
	if fn, ok := For[T](); ok {
		fn(d, p)
		return
	}
	Reflective(d, p)
}

// Reflective decodes the next value into p with sigs.k8s.io/json, handed
// the value as it is in the input: for what only reflection decodes as
// encoding/json does (an UnmarshalText method, an interface).
func Reflective[T any](d *Decoder, p *T) {
	raw := d.Raw()
	if d.err != nil {
		return
	}
	if err := reflective(raw, p); err != nil {
		d.fail(err)
	}
}

// reflective is apimachinery's JSON decoding.
func reflective(data []byte, p any) error {
	return sigsjson.UnmarshalCaseSensitivePreserveInts(data, p)
}
