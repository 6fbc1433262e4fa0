package controller

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

// TestMain sets KUBEBUILDER_ASSETS, when unset, to a folder holding the
// kube-apiserver and etcd hack/kube-binaries.sh builds (or finds), as a
// kubebuilder project's Makefile does with setup-envtest; -short skips the
// package's tests, which start kube-apiserver.
func TestMain(m *testing.M) {
	flag.Parse()
	if testing.Short() {
		fmt.Println("skipping the example's envtest tests in -short mode: they start kube-apiserver")
		os.Exit(0)
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
		return "", fmt.Errorf("example: hack/kube-binaries.sh: %w", err)
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
		return "", fmt.Errorf("example: hack/kube-binaries.sh printed %q, want kube-apiserver=PATH and etcd=PATH", out)
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
			return "", errors.New("example: hack/kube-binaries.sh not found above the working directory")
		}
		dir = parent
	}
}
