package generators

import (
	"path/filepath"
	"strings"
	"testing"
)

func TestMatchesAnyFollowsGoListPatterns(t *testing.T) {
	dir := filepath.FromSlash("/src/m")
	pkgDir := filepath.FromSlash("/src/m/pkg/generated/clientset/versioned")
	const pkgPath = "example.com/m/pkg/generated/clientset/versioned"
	tests := []struct {
		patterns []string
		want     bool
	}{
		{[]string{"./..."}, true},
		{[]string{"./pkg/..."}, true},
		{[]string{"./pkg/generated/clientset/versioned"}, true},
		{[]string{"./pkg/generated/clientset/versioned/..."}, true},
		{[]string{"./apis/..."}, false},
		{[]string{"./pkg/generated/clientset"}, false},
		{[]string{"./pkg/gen"}, false},
		{[]string{"./pkg/gen..."}, true},
		{[]string{"example.com/m/..."}, true},
		{[]string{pkgPath}, true},
		{[]string{"example.com/m/apis/...", "example.com/m/pkg/generated/clientset/versioned/..."}, true},
		{[]string{"example.com/m/pkg/generated/clientset"}, false},
		{[]string{"../m/pkg/..."}, true},
	}
	for _, tt := range tests {
		if got := matchesAny(dir, tt.patterns, pkgPath, pkgDir); got != tt.want {
			t.Errorf("matchesAny(%q) = %v, want %v", tt.patterns, got, tt.want)
		}
	}
}

func TestUnmarshalersAreTheTypesWithGoToProtobufsUnmarshal(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		want      []string
	}{
		{"go-to-protobuf's methods (generated.pb.go)", "func (m *Pod) Unmarshal(dAtA []byte) error {\n\tl := len(dAtA)\n}\nfunc (m *PodList) Unmarshal(dAtA []byte) error {\n}\n", []string{"Pod", "PodList"}},
		{"a hand-written Unmarshal of another shape", "func (w *Widget) Unmarshal(data []byte) error {\n}\n", nil},
		{"a JSON unmarshaler", "func (m *Widget) UnmarshalJSON(dAtA []byte) error {\n}\n", nil},
		{"the method in a comment", "// func (m *Pod) Unmarshal(dAtA []byte) error {\n", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, m := range unmarshalMethod.FindAllStringSubmatch(tc.src, -1) {
				got = append(got, m[1])
			}
			if strings.Join(got, ",") != strings.Join(tc.want, ",") {
				t.Errorf("unmarshalers %q, want %q", got, tc.want)
			}
		})
	}
}

func TestDeclaresTypeFindsTheFilesThatDeclareNamedTypes(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		want      bool
	}{
		{"a type declaration", "package v1\n\ntype Hostname string\n", true},
		{"a type block", "package v1\n\ntype (\n\tKind string\n)\n", true},
		{"a tab after the keyword", "package v1\ntype\tKind string\n", true},
		{"an indented declaration (not gofmt'd, or in a function)", "package v1\nfunc f() {\n\ttype local int\n}\n", true},
		{"the first line", "type X int", true},
		{"the word in comments and identifiers only (generated.pb.go)", "package v1\n// the type of a field\nvar typeName = \"type X\"\nfunc (m *X) Unmarshal(dAtA []byte) error {\n\twireType := 0\n}\n", false},
		{"a longer identifier starting a line", "package v1\nvar x = 1 +\n\ttypeCount\ntypes := 1\n", false},
		{"the keyword ending the file", "package v1\ntype", false},
		{"no type at all", "package v1\n\nconst A = 1\n", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := declaresType([]byte(tc.src)); got != tc.want {
				t.Errorf("declaresType = %v, want %v", got, tc.want)
			}
		})
	}
}
