package generators

import (
	"fmt"
	"path/filepath"
)

// layout is where generated packages go. A tree with no folder ("") is
// not written by the run (upstream's split informer-gen and lister-gen).
type layout struct {
	informersDir, informersPkg string
	listersDir, listersPkg     string
}

// roots are the folders of the trees the run writes.
func (l layout) roots() []string {
	var roots []string
	for _, dir := range []string{l.informersDir, l.listersDir} {
		if dir != "" {
			roots = append(roots, dir)
		}
	}
	return roots
}

// checkLayout refuses output folders that overlap each other or hold an
// input: the generator owns its folders (it removes files it wrote there
// earlier), so they must not contain anything else it reads. inputs are
// the input packages and the clientset (entries without a folder are
// skipped). The error is a *UsageError naming the flags to change.
func checkLayout(out layout, inputs []inputFolder) error {
	inf, lis := out.informersDir, out.listersDir
	switch {
	case inf == "" || lis == "":
	case inf == lis:
		return &UsageError{fmt.Errorf("informers and listers would both go to %s; give --informers-subdir and --listers-subdir distinct folders", inf)}
	case within(lis, inf):
		return &UsageError{fmt.Errorf("the informers folder %s (from --output-dir, --informers-subdir and --single-directory) contains the listers folder %s; give them folders that do not contain each other (--informers-subdir . with --single-directory makes --output-dir itself the informers folder)", inf, lis)}
	case within(inf, lis):
		return &UsageError{fmt.Errorf("the listers folder %s (--listers-subdir) contains the informers folder %s; give them folders that do not contain each other", lis, inf)}
	}
	for _, root := range out.roots() {
		for _, in := range inputs {
			if in.dir != "" && (in.dir == root || within(in.dir, root)) {
				return &UsageError{fmt.Errorf("the output folder %s would contain %s (%s); informer-gen owns its output folders, so choose an --output-dir that holds no input", root, in.what, in.dir)}
			}
		}
	}
	return nil
}

// inputFolder is the folder of something the generator reads.
type inputFolder struct {
	what string // "input package example.com/apis/v1"
	dir  string
}

// absDir returns dir made absolute and cleaned, for comparisons.
func absDir(dir string) string {
	if a, err := filepath.Abs(dir); err == nil {
		return a
	}
	return filepath.Clean(dir)
}
