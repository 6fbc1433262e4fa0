package generators

import (
	"strings"
	"testing"
)

func TestClientsetPackageIsChecked(t *testing.T) {
	tests := []struct {
		name      string
		types     string // apis/things/v2/types.go, "" for a Thing with all verbs
		clientset string // clientset/clientset.go, "" for none
		flag      string // --versioned-clientset-package
		wantErr   string // "" for success
	}{
		{
			name:      "accessor declared",
			clientset: "package versioned\n\ntype Interface interface {\n\tDiscovery() any\n\tThingsV2() any\n}\n",
			flag:      "./clientset",
		},
		{
			name:      "accessor in an embedded local interface",
			clientset: "package versioned\n\ntype Interface interface{ groups }\n\ntype groups interface{ ThingsV2() any }\n",
			flag:      "example.com/m/clientset",
		},
		{
			name:      "embeds an interface of another package: cannot tell, accepted",
			clientset: "package versioned\n\nimport \"io\"\n\ntype Interface interface{ io.Reader }\n",
			flag:      "./clientset",
		},
		{
			name:    "misspelled package",
			flag:    "example.com/m/clientsets",
			wantErr: "--versioned-clientset-package example.com/m/clientsets: ",
		},
		{
			name:    "misspelled relative folder",
			flag:    "./clientsets",
			wantErr: "--versioned-clientset-package ./clientsets (example.com/m/clientsets): ",
		},
		{
			name:  "listers only need no clientset",
			types: "package v2\n\nimport metav1 \"k8s.io/apimachinery/pkg/apis/meta/v1\"\n\n// +genclient\n// +genclient:onlyVerbs=get,list\ntype Thing struct {\n\tmetav1.ObjectMeta `json:\"metadata\"`\n}\n",
			flag:  "example.com/m/none",
		},
		{
			name:      "no Interface",
			clientset: "package versioned\n\ntype Clientset struct{}\n",
			flag:      "./clientset",
			wantErr:   "--versioned-clientset-package ./clientset (example.com/m/clientset): the package declares no Interface type",
		},
		{
			name:      "accessor missing",
			clientset: "package versioned\n\ntype Interface interface {\n\tThingsV1() any\n\tOtherV2() any\n}\n",
			flag:      "./clientset",
			wantErr:   "--versioned-clientset-package ./clientset (example.com/m/clientset): its Interface lacks ThingsV2(), which the informers of things/v2 call",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			files := map[string]string{
				"apis/things/v2/register.go": scratchRegister,
				"apis/things/v2/types.go":    "package v2\n\nimport metav1 \"k8s.io/apimachinery/pkg/apis/meta/v1\"\n\n// +genclient\ntype Thing struct {\n\tmetav1.ObjectMeta `json:\"metadata\"`\n}\n",
			}
			if tt.types != "" {
				files["apis/things/v2/types.go"] = tt.types
			}
			if tt.clientset != "" {
				files["clientset/clientset.go"] = tt.clientset
			}
			dir := scratchModule(t, files)
			_, err := Generate(Options{Patterns: []string{"./apis/..."}, Dir: dir, OutputDir: "out", ClientsetPackage: tt.flag})
			if tt.wantErr == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("Generate() error = %v, want one containing %q", err, tt.wantErr)
			}
		})
	}
}

func TestMisspelledClientsetInARequiredModuleIsNamedSo(t *testing.T) {
	for _, flag := range []string{"example.com/fixtures/clientsets", "k8s.io/apimachinery/pkg/client/versioned"} {
		opts := fixtureOptions(t)
		opts.ClientsetPackage = flag
		_, err := Generate(opts)
		if want := "--versioned-clientset-package " + flag + ": no such package in the modules go.mod requires; is the path misspelled?"; err == nil || err.Error() != want {
			t.Errorf("Generate() error = %v, want %q", err, want)
		}
	}
}
