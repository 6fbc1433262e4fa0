package generators

import (
	"go/parser"
	"go/token"
	"strings"
	"testing"
)

// protoDecodersOf generates the protobuf decoders of the types src
// declares (a file of package v1 importing metav1, resource and corev1),
// from the root type root, and returns every generated function, joined.
func protoDecodersOf(t *testing.T, src, root string) string {
	t.Helper()
	return protoDecodersSharing(t, src, root, false)
}

// protoDecodersSharing is protoDecodersOf, with the compaction walks of
// root when walks is set (the decoders then share what they share).
func protoDecodersSharing(t *testing.T, src, root string, walks bool) string {
	t.Helper()
	src = "package v1\n\nimport (\n\tmetav1 \"k8s.io/apimachinery/pkg/apis/meta/v1\"\n\t\"k8s.io/apimachinery/pkg/api/resource\"\n\tcorev1 \"k8s.io/api/core/v1\"\n\t\"k8s.io/apimachinery/pkg/types\"\n)\n\n" + src
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "types.go", src, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	pkg := &sourcePackage{Path: "example.com/api/v1", Name: "v1", Files: []*sourceFile{{Name: "types.go", AST: f, Fset: fset}}}
	w := newProtoWriter(pkg, "apiv1")
	if walks {
		ww := newWalkWriter(pkg, "apiv1")
		newCompactionFile(ww, []string{root}, fileHeader{})
		w.walks, w.roots = ww.funcs, []string{root}
	}
	w.named(root)
	w.drain()
	return strings.Join(append(append(w.registrations(), w.compactRegistrations()...), w.sortedFuncs()...), "\n")
}

func TestProtoDecodersShareWhatTheWalksShare(t *testing.T) {
	const types = "type FooSpec struct {\n\tSize int32 `protobuf:\"varint,1,opt,name=size\"`\n}\ntype Item struct {\n\tName string `protobuf:\"bytes,1,opt,name=name\"`\n}\n" +
		"type ResourceName string\ntype ResourceList map[ResourceName]resource.Quantity"
	for _, tt := range []struct {
		name     string
		src      string
		want     []string
		wantNone []string
	}{
		{
			name: "repeated, map and optional fields shared; a kind of strings, numbers, metadata and such structs builds the compact object",
			src: "type Foo struct {\n\tmetav1.ObjectMeta `protobuf:\"bytes,1,opt,name=metadata\"`\n\tSpec FooSpec `protobuf:\"bytes,2,opt,name=spec\"`\n" +
				"\tItems []Item `protobuf:\"bytes,3,rep,name=items\"`\n\tNext *Item `protobuf:\"bytes,4,opt,name=next\"`\n\tArgs []string `protobuf:\"bytes,5,rep,name=args\"`\n" +
				"\tLimits ResourceList `protobuf:\"bytes,6,rep,name=limits,casttype=ResourceList,castkey=ResourceName\"`\n\tLabels map[string]string `protobuf:\"bytes,7,rep,name=labels\"`\n" +
				"\tPriority *int32 `protobuf:\"varint,8,opt,name=priority\"`\n\tName string `protobuf:\"bytes,9,opt,name=name\"`\n\tCreated metav1.Time `protobuf:\"bytes,10,opt,name=created\"`\n}\n" + types,
			want: []string{
				"protodecode.RegisterCompact(unmarshalFoo)",
				"protodecode.Message(d, &p.Spec, unmarshalFooSpec)",
				"protodecode.SharedMessages(d, &p.Items, unmarshalItem, compactSliceOfItem, equalSliceOfItem)",
				"protodecode.SharedOptMessage(d, &p.Next, unmarshalItem, compactPtrToItem, equalPtrToItem)",
				"protodecode.SharedStrings(d, &p.Args, compactSliceOfString, equalSliceOfString)",
				"protodecode.SharedMessageMap(d, &p.Limits, protodecode.Unmarshaled[resource.Quantity], compactResourceList, equalResourceList)",
				"protodecode.SharedStringMap(d, &p.Labels, compactMapOfStringToString, equalMapOfStringToString)",
				"protodecode.SharedOptInt(d, &p.Priority, compactPtrToInt32, equalPtrToInt32)",
			},
		},
		{
			name:     "a Quantity held by value: the kind's decoder does not build the compact object",
			src:      "type Foo struct {\n\tmetav1.ObjectMeta `protobuf:\"bytes,1,opt,name=metadata\"`\n\tSize resource.Quantity `protobuf:\"bytes,2,opt,name=size\"`\n\tItems []Item `protobuf:\"bytes,3,rep,name=items\"`\n}\n" + types,
			want:     []string{"protodecode.SharedMessages(d, &p.Items, unmarshalItem, compactSliceOfItem, equalSliceOfItem)"},
			wantNone: []string{"RegisterCompact"},
		},
		{
			name:     "a by-value struct that does not: nor does the kind's",
			src:      "type Foo struct {\n\tmetav1.ObjectMeta `protobuf:\"bytes,1,opt,name=metadata\"`\n\tSpec Bar `protobuf:\"bytes,2,opt,name=spec\"`\n}\ntype Bar struct {\n\tRaw []byte `protobuf:\"bytes,1,opt,name=raw\"`\n}\n" + types,
			wantNone: []string{"RegisterCompact"},
		},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := protoDecodersSharing(t, tt.src, "Foo", true)
			for _, w := range tt.want {
				if !strings.Contains(got, w) {
					t.Errorf("missing %q in:\n%s", w, got)
				}
			}
			for _, w := range tt.wantNone {
				if strings.Contains(got, w) {
					t.Errorf("unexpected %q in:\n%s", w, got)
				}
			}
		})
	}
}

func TestProtoDecodersFollowTheGoTypeAndTheTagsNumber(t *testing.T) {
	for _, tt := range []struct {
		name     string
		src      string
		want     []string
		wantNone []string
	}{
		{
			name: "scalars by Go type, whatever wire type the tag names; untagged fields left out",
			src: "type Foo struct {\n\tmetav1.TypeMeta `json:\",inline\"`\n\tmetav1.ObjectMeta `protobuf:\"bytes,1,opt,name=metadata\"`\n" +
				"\tPriority *int32 `protobuf:\"bytes,25,opt,name=priority\"`\n\tName string `protobuf:\"bytes,2,opt,name=name\"`\n" +
				"\tOn bool `protobuf:\"varint,3,opt,name=on\"`\n\tRatio *float64 `protobuf:\"fixed64,4,opt,name=ratio\"`\n" +
				"\tUID types.UID `protobuf:\"bytes,5,opt,name=uid,casttype=k8s.io/apimachinery/pkg/types.UID\"`\n\tRaw []byte `protobuf:\"bytes,6,opt,name=raw\"`\n\tNoTag string\n}",
			want: []string{
				"protodecode.Register(unmarshalFoo)",
				"case 1:\n\t\t\tprotodecode.Message(d, &p.ObjectMeta, protodecode.ObjectMeta)",
				"case 2:\n\t\t\tprotodecode.String(d, &p.Name)",
				"case 3:\n\t\t\tprotodecode.Bool(d, &p.On)",
				"case 4:\n\t\t\tprotodecode.OptFloat64(d, &p.Ratio)",
				"case 5:\n\t\t\tprotodecode.String(d, &p.UID)",
				"case 6:\n\t\t\tprotodecode.Bytes(d, &p.Raw)",
				"case 25:\n\t\t\tprotodecode.OptInt(d, &p.Priority)",
			},
			wantNone: []string{"NoTag", "TypeMeta"},
		},
		{
			name: "messages, repeated fields and maps; a named map type; types of other packages",
			src: "type Foo struct {\n\tSpec FooSpec `protobuf:\"bytes,1,opt,name=spec\"`\n\tItems []Item `protobuf:\"bytes,2,rep,name=items\"`\n" +
				"\tNext *Item `protobuf:\"bytes,3,opt,name=next\"`\n\tArgs []string `protobuf:\"bytes,4,rep,name=args\"`\n\tGroups []int64 `protobuf:\"varint,5,rep,name=groups\"`\n" +
				"\tLimits ResourceList `protobuf:\"bytes,6,rep,name=limits,casttype=ResourceList,castkey=ResourceName\"`\n\tData map[string][]byte `protobuf:\"bytes,7,rep,name=data\"`\n" +
				"\tPolicy corev1.PullPolicy `protobuf:\"bytes,9,opt,name=policy,casttype=k8s.io/api/core/v1.PullPolicy\"`\n}\n" +
				"type FooSpec struct {\n\tSize int32 `protobuf:\"varint,1,opt,name=size\"`\n}\ntype Item struct {\n\tName string `protobuf:\"bytes,1,opt,name=name\"`\n}\n" +
				"type ResourceName string\ntype ResourceList map[ResourceName]resource.Quantity",
			want: []string{
				"case 1:\n\t\t\tprotodecode.Message(d, &p.Spec, unmarshalFooSpec)",
				"case 2:\n\t\t\tprotodecode.Messages(d, &p.Items, unmarshalItem)",
				"case 3:\n\t\t\tprotodecode.OptMessage(d, &p.Next, unmarshalItem)",
				"case 4:\n\t\t\tprotodecode.Strings(d, &p.Args)",
				"case 5:\n\t\t\tprotodecode.Ints(d, &p.Groups)",
				"case 6:\n\t\t\tprotodecode.MessageMap(d, &p.Limits, protodecode.Unmarshaled[resource.Quantity])",
				"case 7:\n\t\t\tprotodecode.BytesMap(d, &p.Data)",
				"case 9:\n\t\t\tprotodecode.String(d, &p.Policy)",
				"func unmarshalFooSpec(", "func unmarshalItem(",
			},
		},
		{
			name: "a field the generator does not decode: the struct decodes by its Unmarshal",
			src:  "type Foo struct {\n\tName string `protobuf:\"bytes,1,opt,name=name\"`\n\tOdd map[int32]string `protobuf:\"bytes,2,rep,name=odd\"`\n}",
			want: []string{"protodecode.Unmarshaled(d, p) // decoded by its Unmarshal: the generator does not decode field Odd"},
		},
		{
			name: "a message of another k8s.io/api package: the struct decodes by its Unmarshal",
			src:  "type Foo struct {\n\tName string `protobuf:\"bytes,1,opt,name=name\"`\n\tTemplate corev1.PodTemplateSpec `protobuf:\"bytes,8,opt,name=template\"`\n}",
			want: []string{"protodecode.Unmarshaled(d, p) // decoded by its Unmarshal: the generator does not decode field Template"},
		},
		{
			name: "a named string of another k8s.io/api package its tag does not cast: the struct decodes by its Unmarshal",
			src:  "type Foo struct {\n\tName corev1.ResourceName `protobuf:\"bytes,1,opt,name=name\"`\n}",
			want: []string{"protodecode.Unmarshaled(d, p) // decoded by its Unmarshal: the generator does not decode field Name"},
		},
		{
			name: "a map of another k8s.io/api package, cast with a key: the struct decodes by its Unmarshal",
			src:  "type Foo struct {\n\tPodFixed corev1.ResourceList `protobuf:\"bytes,1,rep,name=podFixed,casttype=k8s.io/api/core/v1.ResourceList,castkey=k8s.io/api/core/v1.ResourceName\"`\n}",
			want: []string{"protodecode.Unmarshaled(d, p) // decoded by its Unmarshal: the generator does not decode field PodFixed"},
		},
		{
			name: "no protobuf tag at all: decoded by its Unmarshal",
			src:  "type Foo struct {\n\tName string `json:\"name\"`\n}",
			want: []string{"protodecode.Unmarshaled(d, p) // decoded by its Unmarshal: no field has a protobuf tag"},
		},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := protoDecodersOf(t, tt.src, "Foo")
			for _, w := range tt.want {
				if !strings.Contains(got, w) {
					t.Errorf("missing %q in:\n%s", w, got)
				}
			}
			for _, w := range tt.wantNone {
				if strings.Contains(got, w) {
					t.Errorf("unexpected %q in:\n%s", w, got)
				}
			}
		})
	}
}
