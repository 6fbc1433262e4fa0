package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// kubebuilderTypes is an API package as kubebuilder scaffolds it: no
// +genclient, no clientset.
const kubebuilderTypes = `package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// +kubebuilder:object:root=true
type Widget struct {
	metav1.TypeMeta   ` + "`json:\",inline\"`" + `
	metav1.ObjectMeta ` + "`json:\"metadata,omitempty\"`" + `
	Color string
}
`

func TestWalksOnlyWritesIntoThePackageAsGoGenerateRunsIt(t *testing.T) {
	dir := module(t, map[string]string{"api/v1/types.go": kubebuilderTypes, "api/v1/groupversion_info.go": "// +groupName=bad.example.com\npackage v1\n"})
	// go generate runs the command in the package's folder.
	t.Chdir(filepath.Join(dir, "api", "v1"))
	var stdout, stderr bytes.Buffer
	if code := run([]string{"--walks-only", "--verify-only", "."}, &stdout, &stderr); code != 1 || !strings.Contains(stdout.String(), "missing: zz_generated.compaction.go") {
		t.Fatalf("--verify-only before generating: exit %d, want 1 listing the missing file; stdout:\n%s\nstderr:\n%s", code, stdout.String(), stderr.String())
	}
	if code := run([]string{"--walks-only", "."}, &stdout, &stderr); code != 0 {
		t.Fatalf("generate: exit %d; stderr:\n%s", code, stderr.String())
	}
	b, err := os.ReadFile("zz_generated.compaction.go")
	if err != nil || !strings.Contains(string(b), "compact.Register(compactWidget)") {
		t.Fatalf("zz_generated.compaction.go (err %v) does not register Widget's walk:\n%s", err, b)
	}
	stdout.Reset()
	if code := run([]string{"--walks-only", "--verify-only", "."}, &stdout, &stderr); code != 0 {
		t.Fatalf("--verify-only after generating: exit %d; stdout:\n%s", code, stdout.String())
	}
	if _, err := os.Stat(".informer-gen.manifest"); err == nil {
		t.Error("a manifest was written into the API package")
	}
}

func TestWalksOnlyRefusesInformerFlagsAsBadUsage(t *testing.T) {
	dir := module(t, map[string]string{"api/v1/types.go": kubebuilderTypes})
	t.Chdir(dir)
	for _, tt := range []struct {
		name string
		args []string
		want string
	}{
		{"clientset", []string{"--walks-only", "--versioned-clientset-package", "example.com/bad/clientset", "./api/..."}, "--versioned-clientset-package does not apply"},
		{"single directory", []string{"--walks-only", "--output-dir", "walks", "--single-directory", "./api/..."}, "--single-directory does not apply"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			before := snapshot(t, dir)
			var stdout, stderr bytes.Buffer
			if code := run(tt.args, &stdout, &stderr); code != 2 || !strings.Contains(stderr.String(), tt.want) {
				t.Fatalf("exit %d, want 2 with %q; stderr:\n%s", code, tt.want, stderr.String())
			}
			if after := snapshot(t, dir); len(after) != len(before) {
				t.Errorf("files changed: %d before, %d after", len(before), len(after))
			}
		})
	}
}
