package generators

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The sample-controller test runs the generator over API types we did not
// write: k8s.io/sample-controller's v1alpha1 package, with its own
// client-gen clientset, from the nested module testdata/samplecontroller.
// v0.36.3 is the newest sample-controller the module proxy serves (v0.37.x
// is refused); the nested module builds it with k8s.io/client-go and
// k8s.io/api v0.37.2, the newest supported minor (versions/ tests the
// oldest, v0.34, too).
const (
	sampleControllerModule    = "k8s.io/sample-controller"
	sampleControllerVersion   = "v0.36.3"
	sampleControllerAPI       = sampleControllerModule + "/pkg/apis/samplecontroller/v1alpha1"
	sampleControllerClientset = sampleControllerModule + "/pkg/generated/clientset/versioned"
)

// sampleControllerDir is the nested module of the sample-controller test.
func sampleControllerDir(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("testdata", "samplecontroller"))
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// sampleControllerOptions resolves k8s.io/sample-controller in the nested
// module (it must be the pinned version, downloaded into the module cache
// when missing, not a replacement) and returns the options generating its informers and listers
// into the module's generated/ folder.
func sampleControllerOptions(t *testing.T) Options {
	t.Helper()
	if testing.Short() {
		t.Skip("downloads and reads k8s.io/sample-controller from the module cache")
	}
	dir := sampleControllerDir(t)
	// `go list -m` reports a module's directory only when the module is
	// already in the module cache; on a new machine it is not, so fetch it
	// first (a no-op when it is there).
	goCommand(t, dir, "mod", "download", sampleControllerModule)
	var mod struct {
		Path, Version, Dir string
		Replace            *struct{ Path, Version, Dir string }
	}
	if err := json.Unmarshal(goCommand(t, dir, "list", "-m", "-json", sampleControllerModule), &mod); err != nil {
		t.Fatalf("go list -m -json %s: %v", sampleControllerModule, err)
	}
	if mod.Version != sampleControllerVersion || mod.Replace != nil {
		t.Fatalf("%s resolves to version %q (replace %+v), want %s from the module proxy", sampleControllerModule, mod.Version, mod.Replace, sampleControllerVersion)
	}
	apiDir := filepath.Join(mod.Dir, filepath.FromSlash(strings.TrimPrefix(sampleControllerAPI, sampleControllerModule+"/")))
	if _, err := os.Stat(filepath.Join(apiDir, "types.go")); err != nil {
		t.Fatalf("%s is not in the module cache: %v (run go mod download in %s)", sampleControllerAPI, err, dir)
	}
	return Options{
		Patterns:         []string{sampleControllerAPI},
		Dir:              dir,
		OutputDir:        "generated",
		ClientsetPackage: sampleControllerClientset,
		PluralExceptions: map[string]string{"Endpoints": "Endpoints"},
		JSONDecoders:     true, // informer-gen's default
		ProtoDecoders:    true, // informer-gen's default
	}
}

// TestSampleControllerOutputMatchesCheckedInFiles generates for
// sample-controller's API and compares the result with
// testdata/samplecontroller/generated (rewritten with -update). It also
// pins the file set: one informer and one lister for Foo, the group and
// version interfaces, the factory and the generic informer.
func TestSampleControllerOutputMatchesCheckedInFiles(t *testing.T) {
	out, err := Generate(sampleControllerOptions(t))
	if err != nil {
		t.Fatal(err)
	}
	if *update {
		if _, _, err := out.Write(); err != nil {
			t.Fatal(err)
		}
	}
	diffs, err := out.Verify()
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range diffs {
		t.Errorf("%s (run go test ./generators -run SampleController -update)", d)
	}

	want := map[string]string{
		"informers/externalversions/factory.go":                                           "func NewSharedInformerFactory(client versioned.Interface",
		"informers/externalversions/generic.go":                                           `case samplecontrollerv1alpha1.SchemeGroupVersion.WithResource("foos")`,
		"informers/externalversions/metadata.go":                                          "func ForMetadata(f SharedInformerFactory, resource schema.GroupVersionResource) (metadata.Informer, error)",
		"informers/externalversions/internalinterfaces/factory_interfaces.go":             "type SharedInformerFactory interface",
		"informers/externalversions/samplecontroller/interface.go":                        "V1alpha1() v1alpha1.Interface",
		"informers/externalversions/samplecontroller/v1alpha1/interface.go":               "Foos() TypedFooInformer",
		"informers/externalversions/samplecontroller/v1alpha1/foo.go":                     "client.SamplecontrollerV1alpha1().Foos(namespace).Watch(",
		"informers/externalversions/samplecontroller/v1alpha1/zz_generated.decoders.go":   "jsondecode.Register(decodeFooList)",
		"listers/samplecontroller/v1alpha1/foo.go":                                        "type FooLister interface",
		"listers/samplecontroller/v1alpha1/expansion_generated.go":                        "type FooNamespaceListerExpansion interface",
		"informers/externalversions/samplecontroller/v1alpha1/zz_generated.compaction.go": "compact.Register(compactFoo)",
	}
	if len(out.Files) != len(want) {
		var got []string
		for p := range out.Files {
			got = append(got, p)
		}
		t.Errorf("generated %d files, want %d: %v", len(out.Files), len(want), got)
	}
	for rel, text := range want {
		content, ok := out.Files[filepath.Join(out.Base, filepath.FromSlash(rel))]
		if !ok {
			t.Errorf("%s was not generated", rel)
			continue
		}
		if !strings.Contains(string(content), text) {
			t.Errorf("%s does not contain %q", rel, text)
		}
	}
}

// TestSampleControllerOutputBuildsVetsAndRuns builds and vets the checked-in
// output (equal to a fresh run, see the test above) together with
// sample-controller's clientset, and runs the nested module's test of the
// generated factory on sample-controller's fake clientset.
func TestSampleControllerOutputBuildsVetsAndRuns(t *testing.T) {
	buildVetTest(t, sampleControllerOptions(t).Dir, true)
}
