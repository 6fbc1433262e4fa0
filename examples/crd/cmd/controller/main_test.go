package main

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

func TestRunExitCodes(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "no-such-kubeconfig")
	tests := []struct {
		name       string
		args       []string
		want       int
		wantStderr string
	}{
		{"help is not an error", []string{"-h"}, exitOK, "-kubeconfig"},
		{"unknown flag is a usage error", []string{"--no-such-flag"}, exitUsage, "no-such-flag"},
		{"positional argument is a usage error", []string{"extra"}, exitUsage, "unexpected arguments"},
		{"zero workers is a usage error", []string{"--workers=0"}, exitUsage, "--workers"},
		{"negative resync is a usage error", []string{"--resync=-1s"}, exitUsage, "--resync"},
		{"zero qps is a usage error", []string{"--kube-api-qps=0"}, exitUsage, "--kube-api-qps"},
		{"unreadable kubeconfig is a runtime error", []string{"--kubeconfig=" + missing}, exitError, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stderr bytes.Buffer
			if got := run(t.Context(), tt.args, &stderr); got != tt.want {
				t.Errorf("run(%q) = %d, want %d; stderr:\n%s", tt.args, got, tt.want, stderr.String())
			}
			if !strings.Contains(stderr.String(), tt.wantStderr) {
				t.Errorf("stderr does not mention %q:\n%s", tt.wantStderr, stderr.String())
			}
		})
	}
}

// An API server that never answers must not keep the controller from
// shutting down: cancelling the context (what SIGTERM does) while the
// caches are still syncing is a clean exit.
func TestRunExitsCleanlyWhenStoppedBeforeSync(t *testing.T) {
	kubeconfig := filepath.Join(t.TempDir(), "kubeconfig")
	// 127.0.0.1:1 refuses connections, so the informer keeps retrying.
	const cfg = `apiVersion: v1
kind: Config
clusters:
- name: c
  cluster: {server: "http://127.0.0.1:1"}
contexts:
- name: c
  context: {cluster: c, user: u}
users:
- name: u
  user: {}
current-context: c
`
	if err := os.WriteFile(kubeconfig, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 200*time.Millisecond)
	defer cancel()
	var stderr bytes.Buffer
	if got := run(ctx, []string{"--kubeconfig=" + kubeconfig, "--namespaces=a"}, &stderr); got != exitOK {
		t.Fatalf("run = %d, want %d after cancellation; stderr:\n%s", got, exitOK, stderr.String())
	}
}

func TestNamespacesFlagCollectsCommaListsAcrossRepeats(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want []string
	}{
		{"unset means all namespaces", nil, nil},
		{"comma list", []string{"--namespaces=a,b"}, []string{"a", "b"}},
		{"repeats and alias accumulate", []string{"--namespaces=a", "--namespace=b,c"}, []string{"a", "b", "c"}},
		{"blanks and duplicates are dropped", []string{"--namespaces= a, ,b,a,"}, []string{"a", "b"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fs := flag.NewFlagSet("test", flag.ContinueOnError)
			var o options
			o.register(fs)
			if err := fs.Parse(tt.args); err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(o.namespaces, tt.want) {
				t.Errorf("namespaces = %q, want %q", o.namespaces, tt.want)
			}
			if got, want := len(o.factoryOptions()), min(len(tt.want), 1); got != want {
				t.Errorf("%d factory options, want %d", got, want)
			}
		})
	}
}
