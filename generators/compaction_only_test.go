package generators

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// kubebuilderOptions generates walks only for patterns of the
// kubebuilder-shaped module in testdata/kubebuilder, into outputDir ("":
// into each package).
func kubebuilderOptions(t *testing.T, outputDir string, patterns ...string) Options {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("testdata", "kubebuilder"))
	if err != nil {
		t.Fatal(err)
	}
	boilerplate, err := os.ReadFile(filepath.Join(dir, "hack-boilerplate.txt"))
	if err != nil {
		t.Fatal(err)
	}
	return Options{Patterns: patterns, Dir: dir, OutputDir: outputDir, Boilerplate: string(boilerplate), WalksOnly: true}
}

func TestWalksOnlyOutputMatchesCheckedInFiles(t *testing.T) {
	for _, tt := range []struct {
		name      string
		opts      Options
		wantFiles []string
	}{
		{
			name:      "into the API package itself",
			opts:      kubebuilderOptions(t, "", "./api/v1"),
			wantFiles: []string{"api/v1/zz_generated.compaction.go"},
		},
		{
			name:      "into GROUP/VERSION under --output-dir, and a package importing them all",
			opts:      kubebuilderOptions(t, "walks", "./api/v1beta1"),
			wantFiles: []string{"batch/v1beta1/zz_generated.compaction.go", "zz_generated.compaction.go"},
		},
	} {
		t.Run(tt.name, func(t *testing.T) {
			out, err := Generate(tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, p := range out.Paths() {
				got = append(got, out.rel(p))
			}
			if strings.Join(got, " ") != strings.Join(tt.wantFiles, " ") {
				t.Errorf("files = %q, want %q", got, tt.wantFiles)
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
				t.Errorf("%s (run go test ./generators -run WalksOnlyOutput -update)", d)
			}
		})
	}
}

func TestWalksOnlyRegistersObjectTypesOnly(t *testing.T) {
	out, err := Generate(kubebuilderOptions(t, "walks", "./api/v1beta1"))
	if err != nil {
		t.Fatal(err)
	}
	src := string(out.Files[filepath.Join(out.Base, "batch", "v1beta1", compactionFileName)])
	for _, want := range []string{
		"compact.Register(compactSchedule)", // ObjectMeta through an embedded struct, +kubebuilder:object:root
		"compact.Register(compactShift)",    // ObjectMeta, no marker
		`batchv1beta1 "example.com/kubebuilder/api/v1beta1"`,
	} {
		if !strings.Contains(src, want) {
			t.Errorf("generated walks lack %q:\n%s", want, src)
		}
	}
	for _, unwanted := range []string{"compact.Register(compactScheduleList)", "compact.Register(compactWindow)"} {
		if strings.Contains(src, unwanted) {
			t.Errorf("generated walks have %q", unwanted)
		}
	}
	all := string(out.Files[filepath.Join(out.Base, compactionFileName)])
	if !strings.Contains(all, "package walks") || !strings.Contains(all, `_ "example.com/kubebuilder/walks/batch/v1beta1"`) {
		t.Errorf("the package importing every version's walks is wrong:\n%s", all)
	}
}

// tempModule writes a module example.com/tmp with the files given (path:
// content) and returns its folder.
func tempModule(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	files["go.mod"] = "module example.com/tmp\n\ngo 1.26.0\n"
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestWalksOnlyRefusesBadInputNamingIt(t *testing.T) {
	mod := tempModule(t, map[string]string{
		"enums/enums.go":   "package enums\n\n// Phase is a phase.\ntype Phase string\n",
		"colide/types.go":  "package colide\n\ntype ObjectMeta struct{ Name string }\n\ntype Widget struct{ ObjectMeta ObjectMeta }\n\nfunc compactWidget() {}\n",
		"objects/types.go": "package objects\n\ntype ObjectMeta struct{ Name string }\n\ntype Widget struct{ ObjectMeta ObjectMeta }\n",
	})
	for _, tt := range []struct {
		name      string
		opts      Options
		wantUsage bool
		want      []string
	}{
		{
			name: "a package named explicitly without object types",
			opts: Options{Dir: mod, Patterns: []string{"./enums", "./objects"}},
			want: []string{"input package example.com/tmp/enums: no object type found"},
		},
		{
			name: "only packages without object types",
			opts: Options{Dir: mod, Patterns: []string{"./enums/..."}},
			want: []string{"--walks-only: no object type", "example.com/tmp/enums"},
		},
		{
			name: "an unknown package",
			opts: Options{Dir: mod, Patterns: []string{"./nothere"}},
			want: []string{"nothere"},
		},
		{
			name: "a generated function colliding with the package's own",
			opts: Options{Dir: mod, Patterns: []string{"./colide"}},
			want: []string{"package example.com/tmp/colide: types.go declares compactWidget", "--output-dir"},
		},
		{
			name:      "informer flags",
			opts:      Options{Dir: mod, Patterns: []string{"./objects"}, ClientsetPackage: "k8s.io/client-go/kubernetes", SingleDirectory: true},
			wantUsage: true,
			want:      []string{"--versioned-clientset-package does not apply", "--single-directory does not apply"},
		},
		{
			name:      "an output package without an output folder",
			opts:      Options{Dir: mod, Patterns: []string{"./objects"}, OutputPackage: "example.com/tmp/walks"},
			wantUsage: true,
			want:      []string{"--output-pkg (the import path of --output-dir) does not apply"},
		},
		{
			name:      "as lister-gen",
			opts:      Options{Dir: mod, Patterns: []string{"./objects"}, ListersOnly: true},
			wantUsage: true,
			want:      []string{"run the walks-only mode as informer-gen"},
		},
	} {
		t.Run(tt.name, func(t *testing.T) {
			tt.opts.WalksOnly = true
			_, err := Generate(tt.opts)
			if err == nil {
				t.Fatal("Generate succeeded")
			}
			if usage := errors.As(err, new(*UsageError)); usage != tt.wantUsage {
				t.Errorf("usage error = %v, want %v: %v", usage, tt.wantUsage, err)
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error lacks %q: %v", w, err)
				}
			}
		})
	}
}

func TestWalksOnlySkipsPackagesWithoutObjectsMatchedByAWildcard(t *testing.T) {
	mod := tempModule(t, map[string]string{
		"api/enums/enums.go": "package enums\n\n// Phase is a phase.\ntype Phase string\n",
		"api/v1/types.go":    "package v1\n\ntype ObjectMeta struct{ Name string }\n\ntype Widget struct{ ObjectMeta ObjectMeta }\n",
	})
	out, err := Generate(Options{Dir: mod, Patterns: []string{"./api/..."}, WalksOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	if got := out.Paths(); len(got) != 1 || got[0] != filepath.Join(mod, "api", "v1", compactionFileName) {
		t.Errorf("files = %q, want only api/v1's walks", got)
	}
	if len(out.Notes) != 1 || !strings.Contains(out.Notes[0], "skipped example.com/tmp/api/enums") {
		t.Errorf("notes = %q, want the enums package skipped", out.Notes)
	}
}

// TestWalksOnlyOutputBuildsVetsAndCompacts builds and vets the
// kubebuilder-shaped module with its generated walks, and runs its tests:
// importing the packages registers the walks, and compacting through them
// keeps each object and shares what repeats.
func TestWalksOnlyOutputBuildsVetsAndCompacts(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a module")
	}
	buildVetTest(t, kubebuilderOptions(t, "").Dir, false)
}
