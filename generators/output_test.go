package generators

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
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

// tree returns every file (with its content) and folder under dir, by
// path relative to dir; folders map to "/".
func tree(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		if d.IsDir() {
			out[filepath.ToSlash(rel)] = "/"
			return nil
		}
		b, err := os.ReadFile(p)
		out[filepath.ToSlash(rel)] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestWriteReplacesChangedRemovesStaleKeepsUserFiles(t *testing.T) {
	base := t.TempDir()
	root := filepath.Join(base, "listers")
	gen := generatedMarker + "\n\npackage v1\n"
	writeFile(t, filepath.Join(root, "v1", "same.go"), gen+"// same\n")
	writeFile(t, filepath.Join(root, "v1", "changed.go"), gen+"// old\n")
	writeFile(t, filepath.Join(root, "old", "stale.go"), gen)
	writeFile(t, filepath.Join(root, "v1", "widget_expansion.go"), "package v1\n")
	writeFile(t, filepath.Join(root, manifestName), manifestHeader+"old/stale.go\nv1/changed.go\nv1/same.go\n")
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
	want := []Difference{{"listers/" + manifestName, "differs"}, {"listers/old/stale.go", "stale"}, {"listers/v1/changed.go", "differs"}, {"listers/v2/new.go", "missing"}}
	if !reflect.DeepEqual(diffs, want) {
		t.Fatalf("Verify() = %v, want %v", diffs, want)
	}

	written, removed, err := out.Write()
	if err != nil || written != 3 || removed != 1 {
		t.Fatalf("Write() = %d, %d, %v; want 3 written (with the manifest), 1 removed", written, removed, err)
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
	manifest, _ := os.ReadFile(filepath.Join(root, manifestName))
	if want := manifestHeader + "v1/changed.go\nv1/same.go\nv2/new.go\n"; string(manifest) != want {
		t.Fatalf("manifest = %q, want %q", manifest, want)
	}
	entries, _ := os.ReadDir(filepath.Join(root, "v1"))
	for _, e := range entries {
		if filepath.Ext(e.Name()) != ".go" {
			t.Errorf("temporary file left behind: %s", e.Name())
		}
	}
}

// TestStaleRemovalSparesFilesThisOutputDidNotWrite pins that only files the
// manifest lists are ever removed: files with informer-gen's header that
// upstream informer-gen (or a copy of another output) put under the same
// folders are left alone, as is everything when there is no manifest yet.
func TestStaleRemovalSparesFilesThisOutputDidNotWrite(t *testing.T) {
	gen := generatedMarker + "\n\npackage v1\n"
	tests := []struct {
		name      string
		manifest  string // "" for none
		wantStale []string
	}{
		{name: "no manifest", manifest: ""},
		{name: "manifest lists the stale file", manifest: manifestHeader + "old/v1/stale.go\n", wantStale: []string{"informers/old/v1/stale.go"}},
		{name: "manifest escaping its folder is not followed", manifest: manifestHeader + "../sibling/x.go\n/abs.go\nold/v1/stale.go\n", wantStale: []string{"informers/old/v1/stale.go"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			base := t.TempDir()
			root := filepath.Join(base, "informers")
			writeFile(t, filepath.Join(root, "old", "v1", "stale.go"), gen)
			// A copy of an upstream-generated tree inside the root and
			// next to it: same header, never written by this output.
			writeFile(t, filepath.Join(root, "upstream-copy", "v1", "widget.go"), gen)
			writeFile(t, filepath.Join(root, "upstream.go"), gen)
			writeFile(t, filepath.Join(base, "sibling", "x.go"), gen)
			if tt.manifest != "" {
				writeFile(t, filepath.Join(root, manifestName), tt.manifest)
			}
			out := &Output{Base: base, Roots: []string{root}, Files: map[string][]byte{
				filepath.Join(root, "new", "v1", "widget.go"): []byte(gen),
			}}
			diffs, err := out.Verify()
			if err != nil {
				t.Fatal(err)
			}
			var stale []string
			for _, d := range diffs {
				if d.Kind == "stale" {
					stale = append(stale, d.Path)
				}
			}
			if !reflect.DeepEqual(stale, tt.wantStale) {
				t.Fatalf("stale = %v, want %v", stale, tt.wantStale)
			}
			if _, _, err := out.Write(); err != nil {
				t.Fatal(err)
			}
			for _, p := range []string{"informers/upstream-copy/v1/widget.go", "informers/upstream.go", "sibling/x.go"} {
				if _, err := os.Stat(filepath.Join(base, p)); err != nil {
					t.Errorf("%s removed: %v", p, err)
				}
			}
			_, err = os.Stat(filepath.Join(root, "old", "v1", "stale.go"))
			if removed := errors.Is(err, fs.ErrNotExist); removed != (len(tt.wantStale) > 0) {
				t.Errorf("stale.go removed: %v, want %v", removed, len(tt.wantStale) > 0)
			}
		})
	}
}

func TestWriteFailureLeavesOutputUntouched(t *testing.T) {
	gen := generatedMarker + "\n\npackage x\n"
	tests := []struct {
		name string
		// prepare adds the obstacle under root.
		prepare func(t *testing.T, root string)
		wantErr string
	}{
		{
			name:    "file where a folder must be",
			prepare: func(t *testing.T, root string) { writeFile(t, filepath.Join(root, "blocked"), "not a folder") },
			wantErr: filepath.Join("blocked", "b.go"),
		},
		{
			name: "folder where a file must be",
			prepare: func(t *testing.T, root string) {
				if err := os.MkdirAll(filepath.Join(root, "c.go", "inner"), 0o755); err != nil {
					t.Fatal(err)
				}
			},
			wantErr: filepath.Join("informers", "c.go") + " is a folder",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			base := t.TempDir()
			root := filepath.Join(base, "informers")
			writeFile(t, filepath.Join(root, "a.go"), gen+"// old\n")
			writeFile(t, filepath.Join(root, "gone.go"), gen)
			writeFile(t, filepath.Join(root, manifestName), manifestHeader+"a.go\ngone.go\n")
			tt.prepare(t, root)
			before := tree(t, base)
			out := &Output{Base: base, Roots: []string{root}, Files: map[string][]byte{
				filepath.Join(root, "a.go"):              []byte(gen + "// new\n"),
				filepath.Join(root, "blocked", "b.go"):   []byte(gen),
				filepath.Join(root, "c.go"):              []byte(gen),
				filepath.Join(root, "new", "v1", "d.go"): []byte(gen),
			}}
			_, _, err := out.Write()
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) || !strings.Contains(err.Error(), "nothing was changed") {
				t.Fatalf("Write() error = %v, want one naming %s and saying nothing was changed", err, tt.wantErr)
			}
			if after := tree(t, base); !reflect.DeepEqual(after, before) {
				t.Fatalf("a failed Write changed the output:\nbefore %v\nafter  %v", before, after)
			}
		})
	}
}

// TestWriteRollsBackWhenAMoveFails fails the n-th rename of Write, for
// every n, and checks each time that the output is exactly as before.
func TestWriteRollsBackWhenAMoveFails(t *testing.T) {
	gen := generatedMarker + "\n\npackage x\n"
	for n := 1; ; n++ {
		base := t.TempDir()
		root := filepath.Join(base, "informers")
		writeFile(t, filepath.Join(root, "a.go"), gen+"// old\n")
		writeFile(t, filepath.Join(root, "v1", "b.go"), gen+"// old\n")
		writeFile(t, filepath.Join(root, "stale", "gone.go"), gen)
		writeFile(t, filepath.Join(root, manifestName), manifestHeader+"a.go\nstale/gone.go\nv1/b.go\n")
		before := tree(t, base)
		calls := 0
		out := &Output{Base: base, Roots: []string{root}, Files: map[string][]byte{
			filepath.Join(root, "a.go"):            []byte(gen + "// new\n"),
			filepath.Join(root, "v1", "b.go"):      []byte(gen + "// new\n"),
			filepath.Join(root, "v2", "c.go"):      []byte(gen),
			filepath.Join(root, "v2", "d", "e.go"): []byte(gen),
		}}
		out.rename = func(from, to string) error {
			calls++
			if calls == n {
				return errors.New("injected failure")
			}
			return os.Rename(from, to)
		}
		_, _, err := out.Write()
		if err == nil {
			if n == 1 {
				t.Fatal("Write renamed nothing")
			}
			break // every rename up to the last one was failed once
		}
		if !strings.Contains(err.Error(), "injected failure") || !strings.Contains(err.Error(), "nothing was changed") {
			t.Fatalf("rename %d failing: error %v", n, err)
		}
		if after := tree(t, base); !reflect.DeepEqual(after, before) {
			t.Fatalf("rename %d failing changed the output:\nbefore %v\nafter  %v", n, before, after)
		}
	}
}
