package generators

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden output under testdata/fixtures/generated")

// fixtureOptions generates for the fixture module in testdata/fixtures.
func fixtureOptions(t *testing.T) Options {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("testdata", "fixtures"))
	if err != nil {
		t.Fatal(err)
	}
	boilerplate, err := os.ReadFile(filepath.Join(dir, "hack-boilerplate.txt"))
	if err != nil {
		t.Fatal(err)
	}
	return Options{
		Patterns:         []string{"./apis/...", "./api/..."},
		Dir:              dir,
		OutputDir:        "generated",
		ClientsetPackage: "./clientset",
		Boilerplate:      string(boilerplate),
		JSONDecoders:     true,
		ProtoDecoders:    true,
	}
}

func TestGoldenOutputMatchesCheckedInFiles(t *testing.T) {
	out, err := Generate(fixtureOptions(t))
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
		t.Errorf("%s (run go test ./generators -run Golden -update)", d)
	}
	if _, ok := out.Files[filepath.Join(out.Base, "listers", "stable", "v1", "widget_expansion.go")]; ok {
		t.Error("the user's widget_expansion.go is in the output")
	}
}

func TestGenerateIsDeterministic(t *testing.T) {
	first, err := Generate(fixtureOptions(t))
	if err != nil {
		t.Fatal(err)
	}
	for range 3 {
		again, err := Generate(fixtureOptions(t))
		if err != nil {
			t.Fatal(err)
		}
		if len(again.Files) != len(first.Files) {
			t.Fatalf("run produced %d files, first run %d", len(again.Files), len(first.Files))
		}
		for p, content := range first.Files {
			if !bytes.Equal(again.Files[p], content) {
				t.Fatalf("%s differs between runs", p)
			}
		}
	}
}

// TestGeneratedFixturesBuildVetAndPass builds and vets the golden output
// together with the fixture API packages and fake clientset, and runs the
// fixture module's end-to-end tests of the generated factory.
func TestGeneratedFixturesBuildVetAndPass(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a module")
	}
	buildVetTest(t, fixtureOptions(t).Dir, true)
}

// TestInternalPackagesAreSkippedWithANote pins that an internal
// (unversioned) API package matched by ./apis/... (fixture apis/stable,
// whose ObjectMeta has no json tag) gets no informers or listers, which
// would call a clientset accessor that does not exist, and that the
// output says it was skipped.
func TestInternalPackagesAreSkippedWithANote(t *testing.T) {
	out, err := Generate(fixtureOptions(t))
	if err != nil {
		t.Fatal(err)
	}
	for p := range out.Files {
		if strings.Contains(filepath.ToSlash(p), "/stable/stable/") {
			t.Errorf("generated %s for the internal package", p)
		}
	}
	want := "skipped example.com/fixtures/apis/stable: internal (unversioned) API types"
	if len(out.Notes) != 1 || !strings.Contains(out.Notes[0], want) {
		t.Errorf("Notes = %q, want one containing %q", out.Notes, want)
	}
}
