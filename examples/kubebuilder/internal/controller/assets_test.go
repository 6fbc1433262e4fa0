/*
Copyright The informer-gen Authors.

Licensed under the Apache License, Version 2.0 (the "License");
you may not use this file except in compliance with the License.
You may obtain a copy of the License at

    http://www.apache.org/licenses/LICENSE-2.0

Unless required by applicable law or agreed to in writing, software
distributed under the License is distributed on an "AS IS" BASIS,
WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
See the License for the specific language governing permissions and
limitations under the License.
*/

package controller

// This file is informer-gen's, not kubebuilder's: where kubebuilder's
// scaffold downloads kube-apiserver and etcd with setup-envtest, the
// example uses the ones this repository builds (hack/kube-binaries.sh), as
// controllerruntime/crtest does.

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// kubebuilderAssets returns a folder for KUBEBUILDER_ASSETS: "" and the
// variable's value when it is set, else a new folder (to remove) with
// links named kube-apiserver and etcd to what hack/kube-binaries.sh printed.
func kubebuilderAssets() (created string, err error) {
	if os.Getenv("KUBEBUILDER_ASSETS") != "" {
		return "", nil
	}
	root, err := repoRoot()
	if err != nil {
		return "", err
	}
	cmd := exec.Command(filepath.Join(root, "hack", "kube-binaries.sh"), "kube-apiserver", "etcd")
	cmd.Dir = root
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("hack/kube-binaries.sh: %w", err)
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
			return dir, err
		}
		linked++
	}
	if linked != 2 {
		return dir, fmt.Errorf("hack/kube-binaries.sh printed %q, want kube-apiserver=PATH and etcd=PATH", out)
	}
	return dir, os.Setenv("KUBEBUILDER_ASSETS", dir)
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
			return "", errors.New("hack/kube-binaries.sh not found above the working directory")
		}
		dir = parent
	}
}
