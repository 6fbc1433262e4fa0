package generators

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

func writeFile(t *testing.T, p, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestWriteReplacesChangedRemovesStaleKeepsUserFiles(t *testing.T) {
	base := t.TempDir()
	root := filepath.Join(base, "listers")
	gen := generatedMarker + "\n\npackage v1\n"
	writeFile(t, filepath.Join(root, "v1", "same.go"), gen+"// same\n")
	writeFile(t, filepath.Join(root, "v1", "changed.go"), gen+"// old\n")
	writeFile(t, filepath.Join(root, "old", "stale.go"), gen)
	writeFile(t, filepath.Join(root, "v1", "widget_expansion.go"), "package v1\n")
	sameInfo, _ := os.Stat(filepath.Join(root, "v1", "same.go"))

	out := &Output{Base: base, Roots: []string{root}, Files: map[string][]byte{
		filepath.Join(root, "v1", "same.go"):    []byte(gen + "// same\n"),
		filepath.Join(root, "v1", "changed.go"): []byte(gen + "// new\n"),
		filepath.Join(root, "v2", "new.go"):     []byte(gen),
	}}
	diffs, err := out.Verify()
	if err != nil {
		t.Fatal(err)
	}
	want := []Difference{{"listers/old/stale.go", "stale"}, {"listers/v1/changed.go", "differs"}, {"listers/v2/new.go", "missing"}}
	if !reflect.DeepEqual(diffs, want) {
		t.Fatalf("Verify() = %v, want %v", diffs, want)
	}

	written, removed, err := out.Write()
	if err != nil || written != 2 || removed != 1 {
		t.Fatalf("Write() = %d, %d, %v; want 2 written, 1 removed", written, removed, err)
	}
	if diffs, err := out.Verify(); err != nil || len(diffs) != 0 {
		t.Fatalf("Verify() after Write = %v, %v", diffs, err)
	}
	if _, err := os.Stat(filepath.Join(root, "v1", "widget_expansion.go")); err != nil {
		t.Fatalf("user file removed: %v", err)
	}
	if _, err := os.Stat(filepath.Join(root, "old")); !os.IsNotExist(err) {
		t.Fatalf("emptied stale folder still there: %v", err)
	}
	if info, _ := os.Stat(filepath.Join(root, "v1", "same.go")); !info.ModTime().Equal(sameInfo.ModTime()) {
		t.Fatal("unchanged file was rewritten")
	}
	entries, _ := os.ReadDir(filepath.Join(root, "v1"))
	for _, e := range entries {
		if filepath.Ext(e.Name()) != ".go" {
			t.Errorf("temporary file left behind: %s", e.Name())
		}
	}
}

func TestWriteFailureLeavesOutputUntouched(t *testing.T) {
	base := t.TempDir()
	root := filepath.Join(base, "informers")
	gen := generatedMarker + "\n\npackage x\n"
	writeFile(t, filepath.Join(root, "a.go"), gen+"// old\n")
	// A regular file where a folder must be created makes the second
	// write fail after the first temporary file was written.
	writeFile(t, filepath.Join(root, "blocked"), "not a folder")
	out := &Output{Base: base, Roots: []string{root}, Files: map[string][]byte{
		filepath.Join(root, "a.go"):            []byte(gen + "// new\n"),
		filepath.Join(root, "blocked", "b.go"): []byte(gen),
	}}
	if _, _, err := out.Write(); err == nil {
		t.Fatal("Write() succeeded")
	}
	got, _ := os.ReadFile(filepath.Join(root, "a.go"))
	if string(got) != gen+"// old\n" {
		t.Fatalf("a.go changed by a failed Write: %q", got)
	}
	entries, _ := os.ReadDir(root)
	if len(entries) != 2 {
		t.Fatalf("output folder holds %d entries after a failed Write, want 2", len(entries))
	}
}
