package jsondecodetest

import (
	"time"

	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/intstr"
	"sigs.k8s.io/randfill"
)

// quantities are the Quantity values random objects hold.
var quantities = []string{"0", "1", "100m", "1.5", "128Mi", "2Gi", "1e3", "500k"}

// rawValues are the raw JSON values RawExtension and FieldsV1 hold.
var rawValues = []string{`{"a":1}`, `[1,"x",null]`, `{"f:spec":{".":{},"f:replicas":{}}}`}

// fillFuncs fill the apimachinery types with values their JSON encoding
// accepts and decodes.
var fillFuncs = []any{
	func(q *resource.Quantity, c randfill.Continue) {
		*q = resource.MustParse(quantities[c.Intn(len(quantities))])
	},
	func(v *intstr.IntOrString, c randfill.Continue) {
		if c.Bool() {
			*v = intstr.FromInt32(c.Int31())
		} else {
			*v = intstr.FromString(c.String(8))
		}
	},
	func(r *runtime.RawExtension, c randfill.Continue) {
		*r = runtime.RawExtension{}
		if c.Bool() {
			r.Raw = []byte(rawValues[c.Intn(len(rawValues))])
		}
	},
	func(f *metav1.FieldsV1, c randfill.Continue) {
		f.Raw = []byte(rawValues[c.Intn(len(rawValues))])
	},
	func(t *metav1.Time, c randfill.Continue) {
		*t = metav1.NewTime(time.Unix(c.Int63n(4e9), 0))
	},
	func(v *any, c randfill.Continue) {
		values := []any{nil, c.Int63(), c.Float64(), c.String(5), map[string]any{c.String(3): c.Int63()}, []any{c.Bool(), "x"}}
		*v = values[c.Intn(len(values))]
	},
	func(t *metav1.MicroTime, c randfill.Continue) {
		*t = metav1.NewMicroTime(time.Unix(c.Int63n(4e9), c.Int63n(1e9)).Truncate(time.Microsecond))
	},
}

// edgeCases are inputs every decoder meets: null and wrong kinds at the
// top and inside, duplicate members (the last wins, objects merge),
// escapes, invalid UTF-8 and unpaired surrogates, numbers out of range,
// trailing data.
var edgeCases = [][]byte{
	[]byte(`null`), []byte(`{}`), []byte(`[]`), []byte(`"x"`), []byte(`1`), []byte(``), []byte(` {} `),
	[]byte(`{} x`), []byte(`{}{}`), []byte(`{"metadata":null}`), []byte(`{"metadata":{"name":1}}`),
	[]byte(`{"metadata":{"name":"a","name":"b"}}`),
	[]byte(`{"metadata":{"labels":{"a":"1"}},"metadata":{"labels":{"b":"2"}}}`),
	[]byte(`{"metadata":{"labels":{"a":"1"},"labels":null}}`),
	[]byte(`{"metadata":{"name":"\u00e9\ud83d\ude00\ud800x\"\\\/\b\f\n\r\t"}}`),
	[]byte("{\"metadata\":{\"name\":\"\xff\xfe\"}}"),
	[]byte(`{"Metadata":{"Name":"case"},"kind":"K","apiVersion":"v","unknown":{"deep":[1,{"x":null}]}}`),
	[]byte(`{"metadata":{"generation":1.0}}`), []byte(`{"metadata":{"generation":1e3}}`),
	[]byte(`{"metadata":{"generation":9223372036854775808}}`), []byte(`{"metadata":{"generation":-0}}`),
	[]byte(`{"metadata":{"creationTimestamp":null,"deletionTimestamp":null}}`),
	[]byte(`{"metadata":{"creationTimestamp":"2026-01-02T03:04:05Z"}}`),
	[]byte(`{"metadata":{"creationTimestamp":"yesterday"}}`),
	[]byte(`{"metadata":{"ownerReferences":[{"uid":"u"},{"controller":true}]}}`),
	[]byte(`{"metadata":{"ownerReferences":[{"uid":"u","name":"a"},{"controller":true}],"ownerReferences":[{"kind":"K"}]}}`),
	[]byte(`{"metadata":{"finalizers":[]}}`), []byte(`{"metadata":{"finalizers":[null,"a"]}}`),
	[]byte(`{"metadata":{"managedFields":[{"fieldsV1":{"f:a":{}},"time":null}]}}`),
	[]byte(`{"metadata":{"name":"a"},"metadata":7}`), []byte(`{"metadata":{"name":"a"}`), []byte(`{"metadata":{"name":"a"}}}`),
	[]byte(`{"spec":{"replicas":null},"status":{}}`), []byte(`{"spec":[],"status":"x"}`),
}
