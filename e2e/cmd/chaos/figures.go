package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"time"

	"github.com/informer-gen/informer-gen/e2e/internal/chaos"
)

// The figures section of docs/chaos.md lies between these lines.
const (
	beginFigures = "<!-- BEGIN chaos figures (written by e2e/cmd/chaos) -->"
	endFigures   = "<!-- END chaos figures -->"
)

// figures is the section's body: how the run was made, the table, the
// violations.
func figures(res *chaos.Result, o options) string {
	var b strings.Builder
	commit, _ := exec.Command("git", "rev-parse", "--short", "HEAD").Output()
	fmt.Fprintf(&b, "Run of %s, commit %s, %d cores: `go run ./cmd/chaos -duration %v -seed %d -together %d -population %d -rate %g`.\n\n",
		time.Now().UTC().Format("2006-01-02 15:04 MST"), strings.TrimSpace(string(commit)), runtime.NumCPU(), o.duration, res.Seed, o.together, o.population, o.rate)
	b.WriteString(res.Markdown())
	if len(res.Violations) == 0 {
		b.WriteString("\nEvery invariant held.\n")
	} else {
		b.WriteString("\nViolations:\n\n")
		for _, v := range res.Violations {
			fmt.Fprintf(&b, "- %s\n", v)
		}
	}
	return b.String()
}

// writeFigures replaces the text between the figure markers of path.
func writeFigures(path, body string) error {
	raw, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	begin := bytes.Index(raw, []byte(beginFigures))
	end := bytes.Index(raw, []byte(endFigures))
	if begin < 0 || end < begin {
		return fmt.Errorf("%s: no %q ... %q section to write the figures in", path, beginFigures, endFigures)
	}
	var out bytes.Buffer
	out.Write(raw[:begin+len(beginFigures)])
	out.WriteString("\n" + body)
	out.Write(raw[end:])
	return os.WriteFile(path, out.Bytes(), 0o644)
}
