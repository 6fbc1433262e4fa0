package crd_test

import (
	"testing"

	sigsjson "sigs.k8s.io/json"

	stablev1 "github.com/informer-gen/informer-gen/examples/crd/apis/stable/v1"
	_ "github.com/informer-gen/informer-gen/examples/crd/pkg/generated/informers/externalversions/stable/v1" // registers the generated decoders
	"github.com/informer-gen/informer-gen/runtime/compact"
	"github.com/informer-gen/informer-gen/runtime/jsondecode"
	"github.com/informer-gen/informer-gen/runtime/jsondecode/jsondecodetest"
)

func TestGeneratedDecodersAgreeWithSigsJSONOnRandomObjects(t *testing.T) {
	jsondecodetest.Random(t, jsondecodetest.Registered[stablev1.Widget](t), 500)
	jsondecodetest.Random(t, jsondecodetest.Registered[stablev1.Gadget](t), 500)
	jsondecodetest.Random(t, jsondecodetest.Registered[stablev1.WidgetList](t), 100)
}

func TestGeneratedDecodersAgreeWithSigsJSONOnWidgets(t *testing.T) {
	fn := jsondecodetest.Registered[stablev1.Widget](t)
	for _, b := range widgetJSON(t, 50) {
		jsondecodetest.Same(t, fn, b)
	}
}

func FuzzWidgetDecoder(f *testing.F) {
	seeds := append(jsondecodetest.Seeds[stablev1.Widget](20), widgetJSON(f, 5)...)
	seeds = append(seeds, []byte(`{"spec":{"tags":["a"],"tags":["b","c"],"size":1.5},"status":{"phase":null}}`))
	jsondecodetest.Fuzz(f, jsondecodetest.Registered[stablev1.Widget](f), seeds)
}

func FuzzGadgetDecoder(f *testing.F) {
	jsondecodetest.Fuzz(f, jsondecodetest.Registered[stablev1.Gadget](f), jsondecodetest.Seeds[stablev1.Gadget](20))
}

// BenchmarkDecodeWidget decodes Widgets, each from its own bytes, with
// sigs.k8s.io/json and with the generated decoder (interning in a
// table), each followed by the compaction walk as an informer does; the
// time is the benchmark's wall time (bench/decoding's BenchmarkDecodePod
// measures thread CPU):
//
//	go test -run '^$' -bench DecodeWidget -benchmem .
func BenchmarkDecodeWidget(b *testing.B) {
	widgets := widgetJSON(b, 100)
	fn := jsondecodetest.Registered[stablev1.Widget](b)
	for _, c := range []struct {
		name   string
		decode func(data []byte, w *stablev1.Widget, tab *compact.Table) error
	}{
		{"sigs.k8s.io-json+walk", func(data []byte, w *stablev1.Widget, _ *compact.Table) error {
			return sigsjson.UnmarshalCaseSensitivePreserveInts(data, w)
		}},
		{"generated+intern+walk", func(data []byte, w *stablev1.Widget, tab *compact.Table) error {
			return jsondecode.Unmarshal(data, w, fn, tab)
		}},
	} {
		b.Run(c.name, func(b *testing.B) {
			tab := compact.NewTable()
			for i := 0; b.Loop(); i++ {
				w := new(stablev1.Widget)
				if err := c.decode(widgets[i%len(widgets)], w, tab); err != nil {
					b.Fatal(err)
				}
				tab.Object(w)
			}
		})
	}
}
