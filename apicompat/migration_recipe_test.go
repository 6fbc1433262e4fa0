package apicompat_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// recipeSection is the section of the migration guide (docs/migration.md)
// whose step 2 ports a project's use of k8s.io/client-go's informers and
// listers.
const recipeSection = "## Porting client-go's informers and listers of k8s.io/api"

// guideRecipe returns the shell blocks of step 2 of the migration guide's
// section recipeSection, in order and unindented, exactly as a reader would
// paste them.
func guideRecipe(guide string) ([]string, error) {
	data, err := os.ReadFile(guide)
	if err != nil {
		return nil, err
	}
	lines := strings.Split(string(data), "\n")
	step, err := guideStep(lines, recipeSection, "2. ")
	if err != nil {
		return nil, fmt.Errorf("%s: %w", guide, err)
	}
	var blocks []string
	var block []string
	in := false
	for _, l := range step {
		trimmed := strings.TrimSpace(l)
		switch {
		case !in && trimmed == "```sh":
			in, block = true, nil
		case in && trimmed == "```":
			in = false
			blocks = append(blocks, strings.Join(block, "\n")+"\n")
		case in:
			block = append(block, strings.TrimPrefix(l, "   "))
		}
	}
	if in || len(blocks) == 0 {
		return nil, fmt.Errorf("%s: step 2 of %q has no complete ```sh block", guide, recipeSection)
	}
	return blocks, nil
}

// guideStep returns the lines of the numbered list item starting with
// marker in the section whose heading is heading: from the marker to the
// next line at the left margin that is not part of the item.
func guideStep(lines []string, heading, marker string) ([]string, error) {
	section := -1
	for i, l := range lines {
		if l == heading {
			section = i
			break
		}
	}
	if section < 0 {
		return nil, fmt.Errorf("no section %q", heading)
	}
	start := -1
	for i := section + 1; i < len(lines) && !strings.HasPrefix(lines[i], "## "); i++ {
		if strings.HasPrefix(lines[i], marker) {
			start = i
			break
		}
	}
	if start < 0 {
		return nil, fmt.Errorf("section %q has no step %q", heading, strings.TrimSpace(marker))
	}
	end := start + 1
	for end < len(lines) && (lines[end] == "" || strings.HasPrefix(lines[end], " ")) {
		end++
	}
	return lines[start:end], nil
}

// TestMigrationRecipeBuilds follows the migration guide's recipe
// (docs/migration.md) for porting a project's use of client-go's informers
// and listers (section recipeSection, step 2) by running its commands as
// written there, in a module holding code written against client-go
// (portedController), and checks that the result builds and that the code
// was ported: it imports our informers, listers and runtime, and none of
// client-go's.
func TestMigrationRecipeBuilds(t *testing.T) {
	k := portedKubernetes(t)
	t.Logf("ran the migration guide's %d command blocks", len(k.recipe))

	src, err := os.ReadFile(filepath.Join(k.dir, "pkg/controller/controller.go"))
	if err != nil {
		t.Fatal(err)
	}
	for _, gone := range []string{`"k8s.io/client-go/informers"`, `"k8s.io/client-go/listers/`, `"k8s.io/client-go/tools/cache"`} {
		if strings.Contains(string(src), gone) {
			t.Errorf("after the recipe, pkg/controller still imports %s", gone)
		}
	}
	for _, want := range []string{`"` + kubegenModule + `/informers"`, `"` + kubegenModule + `/listers/apps/v1"`, `"github.com/informer-gen/informer-gen/runtime/cache"`} {
		if !strings.Contains(string(src), want) {
			t.Errorf("after the recipe, pkg/controller does not import %s", want)
		}
	}
	expansion := filepath.Join(k.dir, "pkg/kube/listers/apps/v1/statefulset_expansion.go")
	if _, err := os.Stat(expansion); err != nil {
		t.Errorf("client-go's lister expansion was not copied: %v", err)
	}
	run(t, k.dir, "go", "build", "-trimpath", "./...")
	run(t, k.dir, "go", "vet", "-trimpath", "./pkg/controller")
}

// TestMigrationGuideHoldsTheRecipe checks, without running it, that the
// migration guide still has the recipe TestMigrationRecipeBuilds runs: the
// generator's block and the import rewrite, in that order. It runs under
// -short, so an edit of docs/migration.md that loses the recipe fails
// quickly.
func TestMigrationGuideHoldsTheRecipe(t *testing.T) {
	blocks, err := guideRecipe(filepath.Join("..", "docs", "migration.md"))
	if err != nil {
		t.Fatal(err)
	}
	if len(blocks) != 2 {
		t.Fatalf("step 2 has %d ```sh blocks, want 2 (generate, then rewrite the imports):\n%s", len(blocks), strings.Join(blocks, "---\n"))
	}
	for i, want := range []string{"cmd/informer-gen", `"k8s.io/client-go/tools/cache"`} {
		if !strings.Contains(blocks[i], want) {
			t.Errorf("block %d of step 2 does not mention %s:\n%s", i+1, want, blocks[i])
		}
	}
	for i, b := range blocks {
		if strings.HasPrefix(b, " ") {
			t.Errorf("block %d of step 2 is indented deeper than its list item (3 spaces):\n%s", i+1, b)
		}
	}
}
