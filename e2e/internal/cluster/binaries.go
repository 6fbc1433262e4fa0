package cluster

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// Binaries are the paths of the control-plane executables.
type Binaries struct {
	KubeAPIServer string
	Etcd          string
}

// RepoRoot returns the root of the informer-gen repository, found by
// walking up from the working directory to the directory holding
// hack/kube-binaries.sh.
func RepoRoot() (string, error) {
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
			return "", errors.New("cluster: hack/kube-binaries.sh not found above the working directory")
		}
		dir = parent
	}
}

// EnsureBinaries builds kube-apiserver and etcd with hack/kube-binaries.sh
// when they are missing or stale and returns their paths. The script
// serialises concurrent callers, so several test binaries may call it at
// once. Build progress is written to os.Stderr.
func EnsureBinaries(ctx context.Context) (Binaries, error) {
	root, err := RepoRoot()
	if err != nil {
		return Binaries{}, err
	}
	cmd := exec.CommandContext(ctx, filepath.Join(root, "hack", "kube-binaries.sh"), "kube-apiserver", "etcd")
	cmd.Dir = root
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		return Binaries{}, fmt.Errorf("cluster: hack/kube-binaries.sh: %w", err)
	}
	var b Binaries
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		name, path, ok := strings.Cut(sc.Text(), "=")
		if !ok {
			continue
		}
		switch name {
		case "kube-apiserver":
			b.KubeAPIServer = path
		case "etcd":
			b.Etcd = path
		}
	}
	if b.KubeAPIServer == "" || b.Etcd == "" {
		return Binaries{}, fmt.Errorf("cluster: unexpected hack/kube-binaries.sh output %q", out)
	}
	return b, nil
}
