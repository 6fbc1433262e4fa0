package protodecode

import "github.com/informer-gen/informer-gen/runtime/compact"

// The shared forms of the decoders of repeated, map and optional fields:
// informer-gen writes SharedX(d, &p.Field, ..., compactSHAPE, equalSHAPE)
// in place of X(d, &p.Field, ...) for every such field whose walk
// (compactSHAPE) and equality the version's compaction walks have. With
// sharing off (Decode) each is X of the current record; with sharing on
// (DecodeCompact) it decodes the field's consecutive records and shares
// the value as the walk would (shared, share.go).

// SharedMessages is Messages of a repeated message field shared as walk
// shares it.
func SharedMessages[T any](d *Decoder, p *[]T, fn Func[T], walk compact.Walk[[]T], eq compact.Equal[[]T]) {
	shared(d, p, func(d *Decoder, p *[]T) { Messages(d, p, fn) }, walk, eq)
}

// SharedOptMessage is OptMessage of an optional message field shared as
// walk shares it.
func SharedOptMessage[T any](d *Decoder, p **T, fn Func[T], walk compact.Walk[*T], eq compact.Equal[*T]) {
	shared(d, p, func(d *Decoder, p **T) { OptMessage(d, p, fn) }, walk, eq)
}

// SharedStrings is Strings of a repeated string field shared as walk
// shares it.
func SharedStrings[S ~string](d *Decoder, p *[]S, walk compact.Walk[[]S], eq compact.Equal[[]S]) {
	shared(d, p, Strings[S], walk, eq)
}

// SharedInts is Ints of a repeated integer field shared as walk shares
// it.
func SharedInts[I Integer](d *Decoder, p *[]I, walk compact.Walk[[]I], eq compact.Equal[[]I]) {
	shared(d, p, Ints[I], walk, eq)
}

// SharedOptString is OptString of an optional string field shared as
// walk shares it.
func SharedOptString[S ~string](d *Decoder, p **S, walk compact.Walk[*S], eq compact.Equal[*S]) {
	shared(d, p, OptString[S], walk, eq)
}

// SharedOptInt is OptInt of an optional integer field shared as walk
// shares it.
func SharedOptInt[I Integer](d *Decoder, p **I, walk compact.Walk[*I], eq compact.Equal[*I]) {
	shared(d, p, OptInt[I], walk, eq)
}

// SharedOptBool is OptBool of an optional bool field shared as walk
// shares it.
func SharedOptBool[B ~bool](d *Decoder, p **B, walk compact.Walk[*B], eq compact.Equal[*B]) {
	shared(d, p, OptBool[B], walk, eq)
}

// SharedOptFloat64 is OptFloat64 of an optional double field shared as
// walk shares it.
func SharedOptFloat64[F ~float64](d *Decoder, p **F, walk compact.Walk[*F], eq compact.Equal[*F]) {
	shared(d, p, OptFloat64[F], walk, eq)
}

// SharedStringMap is StringMap of a map field of strings shared as walk
// shares it.
func SharedStringMap[K ~string, V ~string, M ~map[K]V](d *Decoder, p *M, walk compact.Walk[M], eq compact.Equal[M]) {
	shared(d, p, StringMap[K, V, M], walk, eq)
}

// SharedBytesMap is BytesMap of a map field of bytes shared as walk
// shares it.
func SharedBytesMap[K ~string, M ~map[K][]byte](d *Decoder, p *M, walk compact.Walk[M], eq compact.Equal[M]) {
	shared(d, p, BytesMap[K, M], walk, eq)
}

// SharedMessageMap is MessageMap of a map field of messages shared as
// walk shares it.
func SharedMessageMap[K ~string, V any, M ~map[K]V](d *Decoder, p *M, fn Func[V], walk compact.Walk[M], eq compact.Equal[M]) {
	shared(d, p, func(d *Decoder, p *M) { MessageMap(d, p, fn) }, walk, eq)
}
