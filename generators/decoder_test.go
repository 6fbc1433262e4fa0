package generators

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// decodersOf generates the JSON decoders of the types src declares (a
// file of package v1), from the root type root, and returns every
// generated function, joined.
func decodersOf(t *testing.T, src, root string) string {
	t.Helper()
	name := filepath.Join(t.TempDir(), "types.go")
	if err := os.WriteFile(name, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, name, src, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	w := newDecoderWriter(&sourcePackage{Path: "example.com/api/v1", Name: "v1", Files: []*sourceFile{{Name: name, AST: f, Fset: fset}}}, "apiv1")
	w.identFn(root)
	w.drain()
	return strings.Join(append(w.registrations(), w.sortedFuncs()...), "\n")
}

func TestDecodersFollowEncodingJSONsFieldRules(t *testing.T) {
	for _, tt := range []struct {
		name     string
		src      string
		want     []string
		wantNone []string
	}{
		{
			name: "embedded TypeMeta, named ObjectMeta, scalars, tags",
			src: `type Foo struct {
	metav1.TypeMeta ` + "`json:\",inline\"`" + `
	metav1.ObjectMeta ` + "`json:\"metadata,omitempty\"`" + `
	Size    *int32 ` + "`json:\"size,omitempty\"`" + `
	NoTag   string
	Skipped string ` + "`json:\"-\"`" + `
	Dash    string ` + "`json:\"-,\"`" + `
	Bad     string ` + "`json:\"a\\\\b\"`" + `
	hidden  string
	Raw     []byte ` + "`json:\"raw\"`" + `
	Fixed   [2]int ` + "`json:\"fixed\"`" + `
}`,
			want: []string{
				"jsondecode.Register(decodeFoo)",
				"case \"apiVersion\":\n\t\t\tjsondecode.String(d, &p.TypeMeta.APIVersion)",
				"case \"kind\":\n\t\t\tjsondecode.String(d, &p.TypeMeta.Kind)",
				"case \"metadata\":\n\t\t\tjsondecode.ObjectMeta(d, &p.ObjectMeta)",
				"case \"size\":\n\t\t\tdecodePtrToInt32(d, &p.Size)",
				"case \"NoTag\":", "case \"-\":\n\t\t\tjsondecode.String(d, &p.Dash)", "case \"Bad\":",
				"case \"raw\":\n\t\t\tjsondecode.Bytes(d, &p.Raw)", "case \"fixed\":\n\t\t\tjsondecode.Value(d, &p.Fixed)",
			},
			wantNone: []string{"Skipped", "hidden"},
		},
		{
			name: "promoted fields: the shallowest wins, a tagged one over an untagged one, a tie is dropped",
			src: `type Foo struct {
	Inner
	*Ptr
	Name string ` + "`json:\"name\"`" + `
}
type Inner struct {
	Name  string ` + "`json:\"name\"`" + `
	Deep  string ` + "`json:\"deep\"`" + `
	Tie   string ` + "`json:\"tie\"`" + `
	Win   string
}
type Ptr struct {
	Other string ` + "`json:\"other\"`" + `
	Tie   string ` + "`json:\"tie\"`" + `
	Win   string ` + "`json:\"Win\"`" + `
}`,
			want: []string{
				"case \"name\":\n\t\t\tjsondecode.String(d, &p.Name)",
				"case \"deep\":\n\t\t\tjsondecode.String(d, &p.Inner.Deep)",
				"case \"other\":\n\t\t\tif p.Ptr == nil {\n\t\t\t\tp.Ptr = new(apiv1.Ptr)\n\t\t\t}\n\t\t\tjsondecode.String(d, &p.Ptr.Other)",
				"case \"Win\":\n\t\t\tif p.Ptr == nil {",
			},
			wantNone: []string{"case \"tie\"", "p.Inner.Name", "p.Inner.Win"},
		},
		{
			name: "methods encoding/json calls, options only reflection handles",
			src: `type Foo struct {
	When  Stamp ` + "`json:\"when\"`" + `
	Text  Level ` + "`json:\"text\"`" + `
	Quoted Bar ` + "`json:\"quoted\"`" + `
	Keys  map[int]string ` + "`json:\"keys\"`" + `
	Named map[Phase]Phase ` + "`json:\"named\"`" + `
	Names Names ` + "`json:\"names\"`" + `
	Any   interface{} ` + "`json:\"any\"`" + `
	Emb   Embeds ` + "`json:\"emb\"`" + `
}
type Stamp struct{ s string }
func (s *Stamp) UnmarshalJSON(b []byte) error { return nil }
type Level int
func (l *Level) UnmarshalText(b []byte) error { return nil }
type Bar struct {
	N int ` + "`json:\"n,string\"`" + `
}
type Phase string
type Names []string
type Embeds struct {
	other.Thing
}`,
			want: []string{
				"case \"when\":\n\t\t\tjsondecode.Unmarshaler(d, &p.When)",
				"case \"text\":\n\t\t\tjsondecode.Reflective(d, &p.Text)",
				"jsondecode.Reflective(d, p) // decoded by reflection: a field has the ,string option",
				"case \"keys\":\n\t\t\tjsondecode.Value(d, &p.Keys)",
				"func decodeMapOfPhaseToPhase(d *jsondecode.Decoder, p *map[apiv1.Phase]apiv1.Phase) {\n\tjsondecode.Map(d, p, jsondecode.String[apiv1.Phase])",
				"func decodeNames(d *jsondecode.Decoder, p *apiv1.Names) {\n\tdecodeSliceOfString(d, (*[]string)(p))",
				"case \"any\":\n\t\t\tjsondecode.Value(d, &p.Any)",
				"jsondecode.Reflective(d, p) // decoded by reflection: it embeds Thing, declared in another package",
			},
			wantNone: []string{"decodeStamp", "decodeLevel", "decodePhase("},
		},
		{
			name: "a type defined from a named scalar type decodes as its predeclared type, unless its own methods say otherwise",
			src: `type Foo struct {
	Header HTTPHeaderName ` + "`json:\"header\"`" + `
	Alias  AliasName ` + "`json:\"alias\"`" + `
	Own    OwnText ` + "`json:\"own\"`" + `
	Port   PortAlias ` + "`json:\"port\"`" + `
	Inner  Defined ` + "`json:\"inner\"`" + `
}
type HTTPHeaderName HeaderName
type HeaderName string
func (h *HeaderName) UnmarshalText(b []byte) error { return nil }
type AliasName = HTTPHeaderName
type OwnText HeaderName
func (o *OwnText) UnmarshalText(b []byte) error { return nil }
type PortAlias Port
type Port int32
type Defined Bar
type Bar struct {
	N int ` + "`json:\"n\"`" + `
}`,
			want: []string{
				"case \"header\":\n\t\t\tjsondecode.String(d, &p.Header)",
				"case \"alias\":\n\t\t\tjsondecode.String(d, &p.Alias)",
				"case \"own\":\n\t\t\tjsondecode.Reflective(d, &p.Own)",
				"case \"port\":\n\t\t\tjsondecode.Int(d, &p.Port)",
				"jsondecode.Reflective(d, p) // decoded by reflection: apiv1.Defined is defined from another named type",
			},
			wantNone: []string{"decodeHTTPHeaderName", "decodePortAlias"},
		},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := decodersOf(t, walkHeader+tt.src, "Foo")
			for _, w := range tt.want {
				if !strings.Contains(got, w) {
					t.Errorf("generated code lacks %q:\n%s", w, got)
				}
			}
			for _, w := range tt.wantNone {
				if strings.Contains(got, w) {
					t.Errorf("generated code has %q:\n%s", w, got)
				}
			}
		})
	}
}
