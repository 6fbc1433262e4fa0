package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestGenclientPackagesFindsTaggedPackagesLikeKubeCodegen(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"core/v1/types.go":          "package v1\n\n// +genclient\ntype Pod struct{}\n",
		"core/v1/doc.go":            "package v1\n",
		"rbac/v1/types.go":          "package v1\n\n  //   +genclient:nonNamespaced\ntype ClusterRole struct{}\n",
		"meta/v1/types.go":          "package v1\n\nvar s = \"+genclient\" // not a tag\n",
		"apps/v1/types_test.go":     "package v1\n\n// +genclient\n",
		"apps/v1/types.go":          "package v1\n",
		"storage/v1/README.md":      "// +genclient\n",
		"storage/v1beta1/types.go":  "package v1beta1\n/*\n// +genclient\n*/\n",
		"storage/v1alpha1/types.go": "package v1alpha1\n// +k8s:deepcopy-gen=package\n",
	}
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := genclientPackages("k8s.io/api", dir)
	if err != nil {
		t.Fatal(err)
	}
	// storage/v1beta1 counts: kube_codegen.sh's grep does not parse Go
	// comments either, and it ignores neither test files' packages nor
	// directories; we skip test files, which are not part of the package.
	want := []string{"k8s.io/api/core/v1", "k8s.io/api/rbac/v1", "k8s.io/api/storage/v1beta1"}
	if !slices.Equal(got, want) {
		t.Errorf("genclientPackages = %v, want %v", got, want)
	}
}

func TestGeneratorSectionComparesOursWithTheSumOfBothUpstreamRuns(t *testing.T) {
	r := &generatorResults{
		rounds: 2, packages: 3, codegenVersion: "v0.37.2", apiVersion: "v0.37.2",
		informerWall: series{600, 700}, listerWall: series{400, 300}, oursWall: series{100, 500},
		informerCPU: series{1, 1}, listerCPU: series{1, 1}, oursCPU: series{0.5, 0.5},
		informerRSS: series{100, 300}, listerRSS: series{200, 100}, oursRSS: series{20, 30},
		upstreamFiles: 10, oursFiles: 9,
	}
	if got, want := r.upstreamWall(), (series{1000, 1000}); !slices.Equal(got, want) {
		t.Errorf("upstreamWall = %v, want %v", got, want)
	}
	if got, want := r.upstreamRSS(), (series{200, 300}); !slices.Equal(got, want) {
		t.Errorf("upstreamRSS = %v, want %v (the larger process per round)", got, want)
	}
	var b strings.Builder
	writeGeneratorSection(&b, r)
	out := b.String()
	for _, want := range []string{
		"| Wall time | ms | 650.0 (600.0–700.0) | 350.0 (300.0–400.0) | 1000 (1000–1000) | 300.0 (100.0–500.0) | 0.300 (0.100–0.500) |",
		"| Peak RSS | MiB | 200.0 (100.0–300.0) | 150.0 (100.0–200.0) | 250.0 (200.0–300.0) | 25.00 (20.00–30.00) | 0.100 (0.100–0.100) |",
		"| 0.300 | yes |",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("section lacks %q:\n%s", want, out)
		}
	}
	r.oursWall = series{400, 400}
	b.Reset()
	writeGeneratorSection(&b, r)
	if !strings.Contains(b.String(), "| 0.400 | no |") {
		t.Errorf("a 0.40 ratio is reported as meeting the ≤ 1/3 goal:\n%s", b.String())
	}
}
