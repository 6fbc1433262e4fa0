package generators

import (
	"go/parser"
	"go/token"
	"strings"
	"testing"
)

// walkOf generates the walks of the types src declares, from the root
// type root, and returns every generated function, joined.
func walkOf(t *testing.T, src, root string) string {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "types.go", src, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	w := newWalkWriter(&sourcePackage{Path: "example.com/api/v1", Name: "v1", Files: []*sourceFile{{Name: "types.go", AST: f, Fset: fset}}}, "apiv1")
	code := []string{w.root(root)}
	if update, ok := w.rootUpdate(root); ok {
		code = append(code, update)
	}
	code = append(code, w.registrations()...)
	code = append(code, w.sortedFuncs()...)
	var imports []string
	for _, i := range w.importList(code) {
		imports = append(imports, "import "+i.Alias+" "+i.Path)
	}
	return strings.Join(append(imports, code...), "\n")
}

const walkHeader = `package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/runtime"
	other "example.com/other"
)
`

func TestCompactionWalksFollowTheShapeOfEachField(t *testing.T) {
	for _, tt := range []struct {
		name     string
		src      string
		want     []string
		wantNone []string
	}{
		{
			name: "strings, scalars, embedded metadata",
			src: `type Foo struct {
	metav1.TypeMeta
	metav1.ObjectMeta
	Name string
	Size *int32
	On   bool
}`,
			want: []string{
				"compact.Register(compactFoo)",
				"compact.TypeMeta(t, &p.TypeMeta, h)", "compact.ObjectMeta(t, &p.ObjectMeta, h)",
				"compact.String(t, &p.Name, h)", "compactPtrToInt32(t, &p.Size, h)", "compact.Bool[bool](t, &p.On, h)",
				"compact.Pointer(t, p, compact.Scalar[int32], compact.Eq[int32], h)",
				"compact.EqualObjectMeta(&a.ObjectMeta, &b.ObjectMeta)",
			},
		},
		{
			name: "slices, maps of quantities and defined types share through helpers",
			src: `type ResourceList map[ResourceName]resource.Quantity
type ResourceName string
type Foo struct {
	Items     []Item
	Resources ResourceList
}
type Item struct{ Args []string }`,
			want: []string{
				"compactSliceOfItem(t, &p.Items, h)", "compact.Slice(t, p, compactItem, equalItem, h)",
				"compactResourceList(t, &p.Resources, h)",
				"compactMapOfResourceNameToResourceQuantity(t, (*map[apiv1.ResourceName]resource.Quantity)(p), h)",
				"compact.Map(t, p, compactResourceName, compact.QuantityValue, compact.EqualQuantity, h)",
				"compact.String(t, (*string)(p), h)", "compact.RegisterWalk(compactItem, equalItem)",
			},
		},
		{
			name: "a field opted out makes its struct opaque",
			src: `type Foo struct {
	// +informer-gen:compact=false
	Secret string
	Name   string
}`,
			want:     []string{"h.Opaque() // Secret", "compact.String(t, &p.Name, h)", "func equalFoo(a, b *apiv1.Foo) bool {\n\treturn false\n}"},
			wantNone: []string{"&p.Secret"},
		},
		{
			name:     "a type opted out is opaque",
			src:      "// +informer-gen:compact=false\ntype Foo struct{ Name string }",
			want:     []string{"h.Opaque() // +informer-gen:compact=false"},
			wantNone: []string{"&p.Name"},
		},
		{
			name:     "unexported fields make their struct opaque",
			src:      "type Foo struct{ name string; Name string }",
			want:     []string{"h.Opaque() // name", "return false"},
			wantNone: []string{"&p.name"},
		},
		{
			name:     "a package named only on the way to a known walk is not imported",
			src:      "type Foo struct{ Data runtime.RawExtension }",
			want:     []string{"compact.RawExtension(t, &p.Data, h)"},
			wantNone: []string{"import runtime "},
		},
		{
			name: "types of other packages go through the registry, aliases are their target",
			src: `type Bar = other.Bar
type Foo struct {
	B Bar
	T other.Thing
}`,
			want:     []string{"compact.Value[other.Bar](t, &p.B, h)", "compact.Value[other.Thing](t, &p.T, h)", "compact.EqualValue[other.Thing](&a.T, &b.T)"},
			wantNone: []string{"RegisterWalk(compactBar"},
		},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := walkOf(t, walkHeader+tt.src, "Foo")
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

func TestUpdateWalksTakeEqualFieldsAndDescendIntoValueStructs(t *testing.T) {
	for _, tt := range []struct {
		name     string
		src      string
		want     []string
		wantNone []string
	}{
		{
			name: "metadata, strings, defined strings; scalars and times have nothing to share",
			src: `type Phase string
type Foo struct {
	metav1.TypeMeta
	metav1.ObjectMeta
	Name  string
	Phase Phase
	Size  int32
	On    bool
	At    metav1.Time
}`,
			want: []string{
				"compact.RegisterUpdate(updateFoo)",
				"func updateFoo(t *compact.Table, p, old *apiv1.Foo) {\n\tif p == old {\n\t\treturn\n\t}",
				"compact.TypeMetaFrom(t, &p.TypeMeta, &old.TypeMeta)", "compact.ObjectMetaFrom(t, &p.ObjectMeta, &old.ObjectMeta)",
				"compact.StringFrom(t, &p.Name, &old.Name)", "compact.StringOfFrom(t, &p.Phase, &old.Phase)",
			},
			wantNone: []string{"&p.Size, &old", "&p.On, &old", "&p.At, &old"},
		},
		{
			name: "struct fields held by value get their own update walk; slices, maps and pointers are compared whole",
			src: `type Foo struct {
	Spec  FooSpec
	Items []Item
	Ref   *Item
	Tags  map[string]string
}
type FooSpec struct{ Image string }
type Item struct{ Args []string }`,
			want: []string{
				"updateFooSpec(t, &p.Spec, &old.Spec)", "func updateFooSpec(t *compact.Table, p, old *apiv1.FooSpec) {",
				"compact.StringFrom(t, &p.Image, &old.Image)",
				"compact.From(t, &p.Items, &old.Items, compactSliceOfItem, equalSliceOfItem)",
				"compact.From(t, &p.Ref, &old.Ref, compactPtrToItem, equalPtrToItem)",
				"compact.From(t, &p.Tags, &old.Tags, compactMapOfStringToString, equalMapOfStringToString)",
			},
			wantNone: []string{"func updateItem("},
		},
		{
			name: "opted-out fields and types are left alone",
			src: `type Foo struct {
	// +informer-gen:compact=false
	Secret string
	Sealed Sealed
	Name   string
}
// +informer-gen:compact=false
type Sealed struct{ Key string }`,
			want:     []string{"compact.StringFrom(t, &p.Name, &old.Name)"},
			wantNone: []string{"&p.Secret, &old", "updateSealed"},
		},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := walkOf(t, walkHeader+tt.src, "Foo")
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

func TestCompactionWalksAreDeterministic(t *testing.T) {
	src := walkHeader + `type Foo struct {
	A []Item
	B map[string]Item
	C *Item
}
type Item struct{ X, Y string }`
	first := walkOf(t, src, "Foo")
	for range 5 {
		if got := walkOf(t, src, "Foo"); got != first {
			t.Fatalf("two runs differ:\n%s\n----\n%s", first, got)
		}
	}
}
