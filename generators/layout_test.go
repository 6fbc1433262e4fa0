package generators

import (
	"errors"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestOverlappingOutputLayoutsAreRefused(t *testing.T) {
	tests := []struct {
		name   string
		change func(o *Options)
		want   string
	}{
		{
			name:   "informers folder is the output folder holding listers",
			change: func(o *Options) { o.SingleDirectory, o.InformersSubdir = true, "." },
			want:   "contains the listers folder",
		},
		{
			name:   "listers inside informers",
			change: func(o *Options) { o.ListersSubdir = "informers/externalversions/listers" },
			want:   "contains the listers folder",
		},
		{
			name: "informers inside listers",
			change: func(o *Options) {
				o.SingleDirectory, o.InformersSubdir, o.ListersSubdir = true, "listers/informers", "listers"
			},
			want: "the listers folder",
		},
		{
			name:   "same folder",
			change: func(o *Options) { o.SingleDirectory, o.InformersSubdir, o.ListersSubdir = true, "gen", "gen/." },
			want:   "would both go to",
		},
		{
			name:   "informers folder holds an input package",
			change: func(o *Options) { o.OutputDir, o.SingleDirectory, o.InformersSubdir = "apis", true, "stable" },
			want:   "would contain input package example.com/fixtures/apis/stable",
		},
		{
			name:   "informers folder holds the clientset",
			change: func(o *Options) { o.OutputDir, o.SingleDirectory, o.InformersSubdir = ".", true, "clientset" },
			want:   "would contain the clientset example.com/fixtures/clientset",
		},
		{
			name:   "listers folder is an input package",
			change: func(o *Options) { o.OutputDir, o.ListersSubdir = "apis/stable", "v1" },
			want:   "input package example.com/fixtures/apis/stable/v1",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opts := fixtureOptions(t)
			tt.change(&opts)
			_, err := Generate(opts)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("Generate() error = %v, want one containing %q", err, tt.want)
			}
			if !errors.As(err, new(*UsageError)) {
				t.Errorf("error %v is not a *UsageError", err)
			}
		})
	}
}

func TestGenerateRecordsItsFilesInAManifestPerRoot(t *testing.T) {
	opts := fixtureOptions(t)
	opts.OutputDir = t.TempDir()
	opts.OutputPackage = "example.com/fixtures/out"
	out, err := Generate(opts)
	if err != nil {
		t.Fatal(err)
	}
	files, _ := out.all()
	for _, root := range out.Roots {
		m, ok := files[filepath.Join(root, manifestName)]
		if !ok {
			t.Fatalf("no manifest for %s", root)
		}
		for p := range out.Files {
			if rootOf(p, out.Roots) != root {
				continue
			}
			rel, _ := filepath.Rel(root, p)
			if !strings.Contains(string(m), "\n"+filepath.ToSlash(rel)+"\n") {
				t.Errorf("manifest of %s does not list %s", root, rel)
			}
		}
	}
}

func TestOutputWithoutManifestNotesUnlistedGeneratedFiles(t *testing.T) {
	opts := fixtureOptions(t)
	opts.OutputDir = t.TempDir()
	opts.OutputPackage = "example.com/fixtures/out"
	gen := generatedMarker + "\n\npackage v1\n"
	writeFile(t, filepath.Join(opts.OutputDir, "listers", "gone", "v1", "old.go"), gen)
	writeFile(t, filepath.Join(opts.OutputDir, "listers", "stable", "v1", "widget.go"), gen)
	writeFile(t, filepath.Join(opts.OutputDir, "listers", "stable", "v1", "user.go"), "package v1\n")
	out, err := Generate(opts)
	if err != nil {
		t.Fatal(err)
	}
	want := "listers has no " + manifestName + " yet, so these files with informer-gen's header, which this run does not generate, are left alone: listers/gone/v1/old.go; delete the ones that are stale"
	if got := manifestNotes(out.Notes); !reflect.DeepEqual(got, []string{want}) {
		t.Fatalf("Notes = %q, want [%q]", got, want)
	}
	if _, _, err := out.Write(); err != nil {
		t.Fatal(err)
	}
	if again, err := Generate(opts); err != nil || len(manifestNotes(again.Notes)) != 0 {
		t.Fatalf("after writing a manifest: Notes = %q, %v; want none about manifests", again.Notes, err)
	}
}

// manifestNotes returns the notes about missing manifests.
func manifestNotes(notes []string) []string {
	var out []string
	for _, n := range notes {
		if strings.Contains(n, manifestName) {
			out = append(out, n)
		}
	}
	return out
}
