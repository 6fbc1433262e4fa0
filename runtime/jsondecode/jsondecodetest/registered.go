package jsondecodetest

import (
	"testing"

	"github.com/informer-gen/informer-gen/runtime/jsondecode"
)

// Registered returns the JSON decoder informer-gen generated for T, which
// importing T's generated informers package registers (jsondecode.For);
// the test fails when none is registered.
func Registered[T any](tb testing.TB) jsondecode.Func[T] {
	tb.Helper()
	fn, ok := jsondecode.For[T]()
	if !ok {
		tb.Fatalf("no generated JSON decoder registered for %T", *new(T))
	}
	return fn
}
