package main

import (
	"bytes"
	"io"
	"strings"
	"sync"
	"testing"

	"github.com/go-logr/logr/funcr"
	"k8s.io/klog/v2"
)

// captureKlog routes klog's output to the returned function's lines until
// the test ends, and resets -v then.
func captureKlog(t *testing.T) func() []string {
	var mu sync.Mutex
	var lines []string
	klog.SetLogger(funcr.New(func(prefix, args string) {
		mu.Lock()
		defer mu.Unlock()
		lines = append(lines, args)
	}, funcr.Options{Verbosity: 10}))
	t.Cleanup(func() {
		run([]string{"-v=0", "--help"}, io.Discard, io.Discard)
		klog.ClearLogger()
	})
	return func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), lines...)
	}
}

func TestIgnoredFlagsLogOnceAtVerbosityTwo(t *testing.T) {
	tests := []struct {
		verbosity string
		want      []string // texts each logged exactly once; none logged when empty
	}{
		{verbosity: "0"},
		{verbosity: "1"},
		{verbosity: "2", want: []string{
			"--listers-package is ignored: informer-gen writes the listers itself",
			"--internal-clientset-package is ignored: informer-gen generates external versions only",
			"Completed successfully.",
		}},
	}
	for _, tt := range tests {
		t.Run("v="+tt.verbosity, func(t *testing.T) {
			logged := captureKlog(t)
			dir := module(t, map[string]string{"apis/bad/v1/register.go": register, "apis/bad/v1/types.go": goodTypes})
			t.Chdir(dir)
			var stdout, stderr bytes.Buffer
			args := []string{"-v", tt.verbosity, "--output-dir", "./out", "--versioned-clientset-package", "example.com/bad/clientset",
				"--listers-package", "example.com/bad/out/listers", "--internal-clientset-package", "example.com/bad/internal", "./apis/..."}
			if code := run(args, &stdout, &stderr); code != 0 {
				t.Fatalf("exit status %d; stderr:\n%s", code, stderr.String())
			}
			lines := logged()
			if len(tt.want) == 0 && len(lines) > 0 {
				t.Errorf("logged at -v=%s: %q", tt.verbosity, lines)
			}
			for _, want := range tt.want {
				if n := countContaining(lines, want); n != 1 {
					t.Errorf("%q logged %d times, want once; log: %q", want, n, lines)
				}
			}
			if strings.Contains(stderr.String(), "is ignored") {
				t.Errorf("stderr explains ignored flags outside the log:\n%s", stderr.String())
			}
		})
	}
}

func countContaining(lines []string, s string) int {
	n := 0
	for _, l := range lines {
		if strings.Contains(l, s) {
			n++
		}
	}
	return n
}
