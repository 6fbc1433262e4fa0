package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/informer-gen/informer-gen/bench/internal/dataset"
)

// writeReport keeps the scalebench section of the file it replaces, once,
// byte for byte, and writes none when the old file had none.
func TestWriteReportCarriesOverTheScalebenchSection(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "benchmarks.md")
	block := preservedStart + "\n## Real kube-apiserver: memory at scale\n\n| a | b |\n|---|---|\n| 1 | 2 |\n" + preservedEnd + "\n" +
		routesStart + "\n## Real kube-apiserver: custom resources\n" + routesEnd + "\n"
	old := "# old report\n\nstale numbers\n\n" + block + "\n## Method\n\nold method\n"
	if err := os.WriteFile(path, []byte(old), 0o644); err != nil {
		t.Fatal(err)
	}
	res := newResults(dataset.Small, 1)
	for range 2 { // a second rewrite must not duplicate the block
		if err := writeReport(path, res); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(got), block); n != 1 {
		t.Fatalf("the new report holds the section %d times, want 1:\n%s", n, got)
	}
	if strings.Contains(string(got), "stale numbers") {
		t.Errorf("the new report kept text outside the markers")
	}

	fresh := filepath.Join(dir, "fresh.md")
	if err := writeReport(fresh, res); err != nil {
		t.Fatal(err)
	}
	got, err = os.ReadFile(fresh)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(got), preservedStart) {
		t.Errorf("a report written without an old file has a scalebench section")
	}
}

func TestMarkedBlock(t *testing.T) {
	for _, tc := range []struct{ doc, want string }{
		{"a\n" + preservedStart + "\nx\n" + preservedEnd + "\nb\n", preservedStart + "\nx\n" + preservedEnd + "\n"},
		{"no markers", ""},
		{preservedStart + "\nunterminated\n", ""},
		{preservedEnd + "\n" + preservedStart + "\n", ""},
	} {
		if got := markedBlock([]byte(tc.doc), preservedStart, preservedEnd); got != tc.want {
			t.Errorf("markedBlock(%q) = %q, want %q", tc.doc, got, tc.want)
		}
	}
}
