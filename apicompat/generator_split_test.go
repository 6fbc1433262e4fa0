package apicompat_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// writeModule writes files (path -> content) under dir.
func writeModule(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for p, content := range files {
		p = filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// filesUnder lists the files under dir, relative to it, sorted.
func filesUnder(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		out = append(out, filepath.ToSlash(rel))
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(out)
	return out
}

// TestSplitInvocationsWriteUpstreamsFiles runs upstream's informer-gen and
// lister-gen invocations, unchanged but for the output folder's name,
// with upstream's binaries and with ours (as informer-gen and linked as
// lister-gen): ours must write every file upstream writes, at the same
// path. The files ours adds are logged.
func TestSplitInvocationsWriteUpstreamsFiles(t *testing.T) {
	gens := buildGenerators(t)
	for _, single := range []bool{false, true} {
		name := "externalversions"
		if single {
			name = "single-directory"
		}
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			writeModule(t, dir, map[string]string{
				"go.mod":                  "module example.com/m\n\ngo 1.26\n",
				"apis/things/v1/doc.go":   "// +k8s:deepcopy-gen=package\n// +groupName=things.example.com\npackage v1\n",
				"apis/things/v1/types.go": lintFixtureTypes,
				"clientset/clientset.go":  "package versioned\n\ntype Interface interface{ ThingsV1() any }\n",
			})
			trees := map[string]map[string]string{
				"upstream": {"informer-gen": gens.upstream["informer-gen"], "lister-gen": gens.upstream["lister-gen"]},
				"ours":     {"informer-gen": gens.ours, "lister-gen": gens.oursAsListerGen},
			}
			for tree, bins := range trees {
				informerArgs := []string{"--output-dir", filepath.Join(dir, tree, "informers"), "--output-pkg", "example.com/m/" + tree + "/informers",
					"--versioned-clientset-package", "example.com/m/clientset", "--listers-package", "example.com/m/" + tree + "/listers", "--lint-rules=known-tags-only,require-explicit-disablement"}
				if single {
					informerArgs = append(informerArgs, "--single-directory")
				}
				listerArgs := []string{"--output-dir", filepath.Join(dir, tree, "listers"), "--output-pkg", "example.com/m/" + tree + "/listers", "--lint-rules=known-tags-only,require-explicit-disablement"}
				for _, inv := range []struct {
					bin  string
					args []string
				}{{bins["informer-gen"], informerArgs}, {bins["lister-gen"], listerArgs}} {
					if code, out := exitOf(t, dir, inv.bin, append(inv.args, "./apis/...")...); code != 0 {
						t.Fatalf("%s %s: exit %d\n%s", tree, filepath.Base(inv.bin), code, out)
					}
				}
			}
			upstream, ours := filesUnder(t, filepath.Join(dir, "upstream")), filesUnder(t, filepath.Join(dir, "ours"))
			if len(upstream) < 8 {
				t.Fatalf("upstream wrote only %v", upstream)
			}
			var added []string
			for _, f := range ours {
				if !slices.Contains(upstream, f) {
					added = append(added, f)
				}
			}
			for _, f := range upstream {
				if !slices.Contains(ours, f) {
					t.Errorf("ours wrote no %s, which upstream's split invocations write", f)
				}
			}
			t.Logf("upstream's %d files are all written by ours; ours adds %v", len(upstream), added)
		})
	}
}
