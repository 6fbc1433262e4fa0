package generators

import (
	"go/parser"
	"go/token"
	"path"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/informer-gen/informer-gen/templates"
)

// TestFixedImportNamesAreTheNamesGeneratedFilesImportFixedPackagesUnder
// checks the names read from the templates against the golden output:
// every import of a package outside the fixture module (apimachinery,
// client-go, the runtime), and of the clientset and internalinterfaces,
// is under a name fixedImportNames found, and every name it found is
// used.
func TestFixedImportNamesAreTheNamesGeneratedFilesImportFixedPackagesUnder(t *testing.T) {
	reserved, err := fixedImportNames(templates.Source())
	if err != nil {
		t.Fatal(err)
	}
	out, err := Generate(fixtureOptions(t))
	if err != nil {
		t.Fatal(err)
	}
	const module = "example.com/fixtures/"
	fixed := func(p string) bool {
		return !strings.HasPrefix(p, module) || p == module+"clientset" || strings.HasSuffix(p, "/internalinterfaces")
	}
	used := map[string]bool{}
	for _, name := range out.Paths() {
		f, err := parser.ParseFile(token.NewFileSet(), name, out.Files[name], parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, spec := range f.Imports {
			p, _ := strconv.Unquote(spec.Path.Value)
			alias := path.Base(p)
			if spec.Name != nil {
				alias = spec.Name.Name
			}
			used[alias] = true
			if fixed(p) && !reserved[alias] {
				t.Errorf("%s imports %s as %s, a name fixedImportNames did not find", name, p, alias)
			}
		}
	}
	var unused []string
	for name := range reserved {
		if !used[name] {
			unused = append(unused, name)
		}
	}
	sort.Strings(unused)
	if len(unused) > 0 {
		t.Errorf("fixedImportNames found %q, which no generated file imports", unused)
	}
}

func TestGeneratedImportNamesGetASuffixWhereATemplateUsesTheName(t *testing.T) {
	reserved, err := fixedImportNames(templates.Source())
	if err != nil {
		t.Fatal(err)
	}
	b := &modelBuilder{reserved: reserved}
	for _, tt := range []struct{ name, suffix, want string }{
		{"cache", "informers", "cacheinformers"},           // runtime/cache
		{"metav1", "api", "metav1api"},                     // apimachinery's meta/v1
		{"versioned", "informers", "versionedinformers"},   // the clientset
		{"metadata", "informers", "metadatainformers"},     // runtime/metadata
		{"metadataclient", "api", "metadataclientapi"},     // client-go's metadata
		{"apps", "informers", "apps"},                      // free
		{"appsv1", "api", "appsv1"},                        // free
		{"internalinterfaces", "x", "internalinterfacesx"}, // the factory's interfaces
	} {
		if got := b.alias(tt.name, tt.suffix); got != tt.want {
			t.Errorf("alias(%q, %q) = %q, want %q", tt.name, tt.suffix, got, tt.want)
		}
	}
}

func TestImportNameOfATemplateImportLine(t *testing.T) {
	for _, tt := range []struct {
		line, want, wantErr string
	}{
		{line: `"k8s.io/apimachinery/pkg/runtime"`, want: "runtime"},
		{line: `metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"`, want: "metav1"},
		{line: `versioned "{{.ClientsetPkg}}"`, want: "versioned"},
		{line: `"gopkg.in/yaml.v3"`, wantErr: `"yaml.v3" is not a package name; name the import`},
		{line: `metav1 k8s.io/apimachinery`, wantErr: `import line "metav1 k8s.io/apimachinery"`},
	} {
		got, err := importName(tt.line)
		switch {
		case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
			t.Errorf("importName(%s) error = %v, want one containing %q", tt.line, err, tt.wantErr)
		case tt.wantErr == "" && (err != nil || got != tt.want):
			t.Errorf("importName(%s) = %q, %v; want %q", tt.line, got, err, tt.want)
		}
	}
}
