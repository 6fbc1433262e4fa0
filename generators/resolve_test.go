package generators

import (
	"path/filepath"
	"strings"
	"testing"
)

// scratchModule writes files (path -> content) into a new module
// example.com/m and returns its folder.
func scratchModule(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "go.mod"), "module example.com/m\n\ngo 1.26\n")
	for p, content := range files {
		writeFile(t, filepath.Join(dir, filepath.FromSlash(p)), content)
	}
	return dir
}

const scratchRegister = `package v2

import "k8s.io/apimachinery/pkg/runtime/schema"

var SchemeGroupVersion = schema.GroupVersion{Group: "things.example.com", Version: "v2"}

func Resource(resource string) schema.GroupResource { return SchemeGroupVersion.WithResource(resource).GroupResource() }
`

const scratchV1 = `package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

type Thing struct {
	metav1.TypeMeta   ` + "`json:\",inline\"`" + `
	metav1.ObjectMeta ` + "`json:\"metadata\"`" + `
}

type Plain struct{ Name string }

type Internal struct {
	metav1.ObjectMeta
}
`

func TestObjectMetaIsFollowedThroughReferencedTypes(t *testing.T) {
	tests := []struct {
		name    string
		types   string // apis/things/v2/types.go
		wantErr string // "" for success
	}{
		{
			name:  "defined from another package's type",
			types: "package v2\n\nimport v1 \"example.com/m/apis/things/v1\"\n\n// +genclient\ntype Thing v1.Thing\n",
		},
		{
			name:  "alias of another package's type, unnamed import",
			types: "package v2\n\nimport \"example.com/m/apis/things/v1\"\n\n// +genclient\ntype Thing = v1.Thing\n",
		},
		{
			name:  "pointer-embedded local struct embedding another package's",
			types: "package v2\n\nimport v1 \"example.com/m/apis/things/v1\"\n\ntype base struct{ *v1.Thing }\n\n// +genclient\ntype Thing struct{ base }\n",
		},
		{
			name:  "local defined type of a struct declared in a file without tags",
			types: "package v2\n\n// +genclient\ntype Thing localThing\n",
		},
		{
			name:    "defined from a type without ObjectMeta",
			types:   "package v2\n\nimport v1 \"example.com/m/apis/things/v1\"\n\n// +genclient\ntype Thing v1.Plain\n",
			wantErr: "type Thing (types.go:6): +genclient type has no ObjectMeta field, nor through v1.Plain",
		},
		{
			name:    "cycle",
			types:   "package v2\n\n// +genclient\ntype Thing struct{ Other }\n\ntype Other struct{ *Thing }\n",
			wantErr: "nor through Other",
		},
		{
			name:    "unknown package",
			types:   "package v2\n\nimport v1 \"example.com/m/apis/missing/v1\"\n\n// +genclient\ntype Thing v1.Thing\n",
			wantErr: "nor through v1.Thing",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := scratchModule(t, map[string]string{
				"apis/things/v1/types.go":    scratchV1,
				"clientset/clientset.go":     "package versioned\n\ntype Interface interface{ ThingsV2() any }\n",
				"apis/things/v2/register.go": scratchRegister,
				"apis/things/v2/types.go":    tt.types,
				"apis/things/v2/local.go":    "package v2\n\nimport metav1 \"k8s.io/apimachinery/pkg/apis/meta/v1\"\n\ntype localThing struct {\n\tmetav1.ObjectMeta `json:\"metadata\"`\n}\n",
			})
			out, err := Generate(Options{Patterns: []string{"./apis/things/v2"}, Dir: dir, OutputDir: "out", ClientsetPackage: "example.com/m/clientset"})
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("Generate() error = %v, want one containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if _, ok := out.Files[filepath.Join(dir, "out", "listers", "things", "v2", "thing.go")]; !ok {
				t.Fatalf("no lister for Thing; files: %v", out.Paths())
			}
		})
	}
}
