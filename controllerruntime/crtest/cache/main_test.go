package cache_test

// This file is informer-gen's, not controller-runtime's: it points envtest
// at the repository's kube-apiserver and etcd before the copied suite
// (cache_suite_test.go) starts them.

import (
	"bufio"
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// mutatingSpecs are the specs of the suite that change objects in the
// cache on purpose (through UnsafeDisableDeepCopy reads), to show that
// such reads are not copies. Compacted cached objects share their parts,
// so informer-gen's informer forbids that even there, and its mutation
// detector, on in test binaries while compaction is on, panics on it. The
// suite skips them unless KUBE_CACHE_MUTATION_DETECTOR=false turns the
// detector off, when they pass.
const mutatingSpecs = "should be able to change object in informer cache"

// TestMain sets KUBEBUILDER_ASSETS, when unset, to a folder holding the
// kube-apiserver and etcd that hack/kube-binaries.sh builds (or finds),
// skips mutatingSpecs while the mutation detector is on, and runs the
// suite; -short skips it all, as it starts kube-apiserver.
func TestMain(m *testing.M) {
	flag.Parse()
	if testing.Short() {
		fmt.Println("skipping controller-runtime's pkg/cache suite in -short mode: it starts kube-apiserver")
		os.Exit(0)
	}
	if os.Getenv("KUBE_CACHE_MUTATION_DETECTOR") != "false" {
		if err := flag.Set("ginkgo.skip", mutatingSpecs); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}
	if os.Getenv("KUBEBUILDER_ASSETS") == "" {
		assets, err := kubebuilderAssets()
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		defer os.RemoveAll(assets)
		os.Setenv("KUBEBUILDER_ASSETS", assets)
	}
	code := m.Run()
	os.Exit(code)
}

// kubebuilderAssets runs hack/kube-binaries.sh and returns a new folder
// with links named kube-apiserver and etcd to what it printed.
func kubebuilderAssets() (string, error) {
	root, err := repoRoot()
	if err != nil {
		return "", err
	}
	cmd := exec.Command(filepath.Join(root, "hack", "kube-binaries.sh"), "kube-apiserver", "etcd")
	cmd.Dir = root
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("crtest: hack/kube-binaries.sh: %w", err)
	}
	dir, err := os.MkdirTemp("", "kubebuilder-assets")
	if err != nil {
		return "", err
	}
	linked := 0
	for sc := bufio.NewScanner(bytes.NewReader(out)); sc.Scan(); {
		name, path, ok := strings.Cut(sc.Text(), "=")
		if !ok || (name != "kube-apiserver" && name != "etcd") {
			continue
		}
		if err := os.Symlink(path, filepath.Join(dir, name)); err != nil {
			return "", err
		}
		linked++
	}
	if linked != 2 {
		return "", fmt.Errorf("crtest: hack/kube-binaries.sh printed %q, want kube-apiserver=PATH and etcd=PATH", out)
	}
	return dir, nil
}

// repoRoot is the folder above the working directory that holds
// hack/kube-binaries.sh.
func repoRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "hack", "kube-binaries.sh")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("crtest: hack/kube-binaries.sh not found above the working directory")
		}
		dir = parent
	}
}
