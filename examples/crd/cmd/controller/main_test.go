package main

import (
	"bytes"
	"context"
	"flag"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/informer-gen/informer-gen/shard"
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

// --shard i/n gives the Widget informer the i-th of n equal parts of the
// UID hash space; anything but i/n with 0 <= i < n is refused, naming it.
func TestShardFlagSelectsAStaticPart(t *testing.T) {
	tests := []struct {
		arg     string
		wantErr string
		wantOpt int
	}{
		{"", "", 0},
		{"--shard=1/3", "", 1},
		{"--shard=3/3", "part 3 of 3", 0},
		{"--shard=1", `want i/n, such as 0/3, got "1"`, 0},
		{"--shard=1/3x", `want i/n, such as 0/3, got "1/3x"`, 0},
	}
	for _, tt := range tests {
		t.Run(tt.arg, func(t *testing.T) {
			fs := flag.NewFlagSet("test", flag.ContinueOnError)
			fs.SetOutput(io.Discard)
			var o options
			o.register(fs)
			var args []string
			if tt.arg != "" {
				args = []string{tt.arg}
			}
			err := fs.Parse(args)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error %v, want one containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := len(o.factoryOptions()); got != tt.wantOpt {
				t.Errorf("%d factory options, want %d", got, tt.wantOpt)
			}
			if tt.wantOpt == 1 {
				want, _ := shard.Part(shard.UID, 1, 3)
				if o.shard == nil || o.shard.String() != want.String() {
					t.Errorf("shard %v, want the second third %v", o.shard, want)
				}
			}
		})
	}
}
