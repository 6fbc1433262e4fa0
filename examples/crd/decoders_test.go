package crd_test

import (
	"testing"

	stablev1 "github.com/informer-gen/informer-gen/examples/crd/apis/stable/v1"
	_ "github.com/informer-gen/informer-gen/examples/crd/pkg/generated/informers/externalversions/stable/v1" // registers the generated decoders
	"github.com/informer-gen/informer-gen/runtime/jsondecode"
	"github.com/informer-gen/informer-gen/runtime/jsondecode/jsondecodetest"
)

// decoder returns the decoder informer-gen generated for T.
func decoder[T any](tb testing.TB) jsondecode.Func[T] {
	tb.Helper()
	fn, ok := jsondecode.For[T]()
	if !ok {
		tb.Fatalf("no generated JSON decoder registered for %T", *new(T))
	}
	return fn
}

func TestGeneratedDecodersAgreeWithSigsJSONOnRandomObjects(t *testing.T) {
	jsondecodetest.Random(t, decoder[stablev1.Widget](t), 500)
	jsondecodetest.Random(t, decoder[stablev1.Gadget](t), 500)
	jsondecodetest.Random(t, decoder[stablev1.WidgetList](t), 100)
}

func TestGeneratedDecodersAgreeWithSigsJSONOnWidgets(t *testing.T) {
	fn := decoder[stablev1.Widget](t)
	for _, b := range widgetJSON(t, 50) {
		jsondecodetest.Same(t, fn, b)
	}
}

func FuzzWidgetDecoder(f *testing.F) {
	seeds := append(jsondecodetest.Seeds[stablev1.Widget](20), widgetJSON(f, 5)...)
	seeds = append(seeds, []byte(`{"spec":{"tags":["a"],"tags":["b","c"],"size":1.5},"status":{"phase":null}}`))
	jsondecodetest.Fuzz(f, decoder[stablev1.Widget](f), seeds)
}

func FuzzGadgetDecoder(f *testing.F) {
	jsondecodetest.Fuzz(f, decoder[stablev1.Gadget](f), jsondecodetest.Seeds[stablev1.Gadget](20))
}
