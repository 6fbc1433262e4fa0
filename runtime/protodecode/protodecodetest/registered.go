package protodecodetest

import (
	"testing"

	"github.com/informer-gen/informer-gen/runtime/protodecode"
)

// Registered returns the protobuf decoder informer-gen generated for T,
// which importing T's generated informers package registers
// (protodecode.For); the test fails when none is registered.
func Registered[T any](tb testing.TB) protodecode.Func[T] {
	tb.Helper()
	fn, ok := protodecode.For[T]()
	if !ok {
		tb.Fatalf("no generated protobuf decoder registered for %T", *new(T))
	}
	return fn
}
