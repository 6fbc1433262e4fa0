package jsondecode_test

import (
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"

	"github.com/informer-gen/informer-gen/runtime/jsondecode"
	"github.com/informer-gen/informer-gen/runtime/jsondecode/jsondecodetest"
)

// shapes holds one field of every shape a generated decoder decodes, with
// the decoder informer-gen would write for it.
type shapes struct {
	S   string                       `json:"s"`
	B   bool                         `json:"b"`
	I8  int8                         `json:"i8"`
	U16 uint16                       `json:"u16"`
	F32 float32                      `json:"f32"`
	F64 float64                      `json:"f64"`
	Raw []byte                       `json:"raw"`
	P   *int64                       `json:"p"`
	M   map[string]int32             `json:"m"`
	L   []shapes                     `json:"l"`
	PS  *shapes                      `json:"ps"`
	Q   resource.Quantity            `json:"q"`
	IS  *intstr.IntOrString          `json:"is"`
	Any any                          `json:"any"`
	T   metav1.Time                  `json:"t"`
	Sel *metav1.LabelSelector        `json:"sel"`
	QM  map[string]resource.Quantity `json:"qm"`
	IV  intstr.IntOrString           `json:"iv"`
	MT  *metav1.MicroTime            `json:"mt"`
}

func decodeShapes(d *jsondecode.Decoder, p *shapes) {
	if !d.Object() {
		return
	}
	for name, ok := d.Field(); ok; name, ok = d.Field() {
		if !decodeScalars(d, p, name) && !decodeComposites(d, p, name) {
			d.Skip()
		}
	}
}

func decodeScalars(d *jsondecode.Decoder, p *shapes, name []byte) bool {
	switch string(name) {
	case "s":
		jsondecode.String(d, &p.S)
	case "b":
		jsondecode.Bool(d, &p.B)
	case "i8":
		jsondecode.Int(d, &p.I8)
	case "u16":
		jsondecode.Uint(d, &p.U16)
	case "f32":
		jsondecode.Float32(d, &p.F32)
	case "f64":
		jsondecode.Float64(d, &p.F64)
	case "raw":
		jsondecode.Bytes(d, &p.Raw)
	case "q":
		jsondecode.Unmarshaler(d, &p.Q)
	case "t":
		jsondecode.Time(d, &p.T)
	case "any":
		jsondecode.Reflective(d, &p.Any)
	case "iv":
		jsondecode.IntOrString(d, &p.IV)
	default:
		return false
	}
	return true
}

func decodeComposites(d *jsondecode.Decoder, p *shapes, name []byte) bool {
	switch string(name) {
	case "p":
		jsondecode.Pointer(d, &p.P, jsondecode.Int[int64])
	case "m":
		jsondecode.Map(d, &p.M, jsondecode.Int[int32])
	case "l":
		jsondecode.Slice(d, &p.L, decodeShapes)
	case "ps":
		jsondecode.Pointer(d, &p.PS, decodeShapes)
	case "is":
		jsondecode.Pointer(d, &p.IS, jsondecode.IntOrString)
	case "sel":
		jsondecode.Pointer(d, &p.Sel, jsondecode.Value[metav1.LabelSelector])
	case "mt":
		jsondecode.Pointer(d, &p.MT, jsondecode.MicroTime)
	case "qm":
		jsondecode.Map(d, &p.QM, jsondecode.Unmarshaler[resource.Quantity])
	default:
		return false
	}
	return true
}

// shapeCases are inputs on which the decoders of every shape must agree
// with sigs.k8s.io/json, accepted or not.
var shapeCases = []string{
	`{"s":"a","b":true,"i8":-128,"u16":65535,"f32":1.5,"f64":-2e-3,"raw":"aGVsbG8=","p":7}`,
	`{"i8":128}`, `{"u16":-1}`, `{"u16":1.0}`, `{"f32":1e39}`, `{"f64":1e309}`, `{"i8":"1"}`, `{"b":"true"}`, `{"b":1}`,
	`{"s":1}`, `{"s":true}`, `{"s":{}}`, `{"s":[]}`, `{"s":null,"b":null,"i8":null,"f64":null}`,
	`{"raw":"aGVs\nbG8="}`, `{"raw":"!!"}`, `{"raw":[1,2,255]}`, `{"raw":[256]}`, `{"raw":null}`, `{"raw":""}`, `{"raw":{}}`,
	`{"p":null}`, `{"p":1,"p":null}`, `{"p":1,"p":2}`,
	`{"m":{"a":1,"b":2},"m":{"c":3}}`, `{"m":{"a":1},"m":null}`, `{"m":{}}`, `{"m":[]}`, `{"m":{"a":"x"}}`, `{"m":{"a":null}}`,
	`{"l":[{"s":"a","i8":1},{"s":"b"}],"l":[{"i8":2}]}`, `{"l":[]}`, `{"l":null}`, `{"l":[null]}`, `{"l":{}}`, `{"l":[1]}`,
	`{"ps":{"s":"a"},"ps":{"b":true}}`, `{"ps":{"s":"a"},"ps":null}`,
	`{"q":"100m"}`, `{"q":null}`, `{"q":"1x"}`, `{"q":1}`, `{"qm":{"cpu":"1","memory":"2Gi"}}`,
	`{"is":1}`, `{"is":"a"}`, `{"is":null}`, `{"is":true}`, `{"iv":"a","iv":null}`, `{"iv":7,"iv":"x"}`, `{"iv":1.5}`, `{"iv":[]}`,
	`{"mt":"2026-01-02T03:04:05.123456Z"}`, `{"mt":"2026-01-02T03:04:05Z"}`, `{"mt":null}`, `{"mt":"2026-01-02T03:04:05.123456+02:00"}`,
	`{"any":{"a":[1,2.5,"x",null,true,{"b":9223372036854775807}]}}`, `{"any":1e400}`, `{"any":null}`,
	`{"t":"2026-01-02T03:04:05Z"}`, `{"t":null}`, `{"t":"2026-01-02"}`, `{"t":5}`,
	`{"sel":{"matchLabels":{"a":"b"},"matchExpressions":[{"key":"k","operator":"In","values":["v"]}]}}`, `{"sel":{"matchLabels":1}}`,
	`{"s":"\ud800"}`, `{"s":"\ud800\udc00"}`, `{"s":"\udc00\ud800"}`, `{"s":"a\u0000b"}`, "{\"s\":\"\xc3\"}", "{\"s\":\"\xed\xa0\x80\"}",
	`{"S":"upper"}`, `{"s":"a","s":"b"}`, `{"s":"a" , "b" : true }`, `{"s":"a",}`, `{"s"}`, `{,}`, `{"s":01}`, `{"f64":.5}`, `{"f64":-}`,
}

func TestDecodersAgreeWithSigsJSONOnEveryShape(t *testing.T) {
	for _, c := range shapeCases {
		t.Run(c, func(t *testing.T) { jsondecodetest.Same(t, decodeShapes, []byte(c)) })
	}
}

func TestDecodersAgreeWithSigsJSONOnEdgeCases(t *testing.T) {
	for _, c := range jsondecodetest.Seeds[metav1.ObjectMeta](0) {
		jsondecodetest.Same(t, decodeShapes, c)
		jsondecodetest.Same(t, jsondecode.ObjectMeta, c)
	}
}

func TestMetaDecodersAgreeWithSigsJSONOnRandomObjects(t *testing.T) {
	jsondecodetest.Random(t, jsondecode.ObjectMeta, 300)
	jsondecodetest.Random(t, jsondecode.TypeMeta, 50)
	jsondecodetest.Random(t, jsondecode.LabelSelector, 100)
	jsondecodetest.Random(t, jsondecode.Condition, 100)
	jsondecodetest.Random(t, decodeShapes, 300)
}

func FuzzShapes(f *testing.F) {
	seeds := jsondecodetest.Seeds[shapes](20)
	for _, c := range shapeCases {
		seeds = append(seeds, []byte(c))
	}
	jsondecodetest.Fuzz(f, decodeShapes, seeds)
}

func FuzzObjectMeta(f *testing.F) {
	jsondecodetest.Fuzz(f, jsondecode.ObjectMeta, jsondecodetest.Seeds[metav1.ObjectMeta](20))
}

func TestDecodersAgreeWithSigsJSONOnNestingLimits(t *testing.T) {
	for _, depth := range []int{9998, 9999, 10000, 10001} {
		nested := strings.Repeat("[", depth) + strings.Repeat("]", depth)
		for _, doc := range []string{`{"any":` + nested + `}`, `{"unknown":` + nested + `}`, `{"l":` + nested + `}`} {
			jsondecodetest.Same(t, decodeShapes, []byte(doc))
		}
	}
}

func TestStringsWithAndWithoutEscapesDecodeAlike(t *testing.T) {
	for _, s := range []string{"", "a", "abcdefgh", "abcdefghi", `abcdefg\\`, `\\abcdefgh`, `abcdefgh\"`, "abcdefg\u00e9", "\u00e9abcdefgh", "abcdefgh\x7f", "abc\xffdefgh", `a\u0041bcdefghijklmnop`} {
		jsondecodetest.Same(t, decodeShapes, []byte(`{"s":"`+s+`","m":{"`+s+`":1}}`))
	}
}
