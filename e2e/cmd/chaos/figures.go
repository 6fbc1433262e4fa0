package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"runtime/debug"
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
	fmt.Fprintf(&b, "Run of %s, commit %s, %d cores: `go run ./cmd/chaos -duration %v -seed %d -together %d -population %d -rate %g`.\n\n",
		time.Now().UTC().Format("2006-01-02 15:04 MST"), o.commit, runtime.NumCPU(), o.duration, res.Seed, o.together, o.population, o.rate)
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

// builtFrom is the commit the running code was built from: the one the
// build stamped (go build), else the work tree's HEAD now, at the start
// of the run (go run stamps none), "+dirty" when files were modified.
func builtFrom() string {
	if info, ok := debug.ReadBuildInfo(); ok {
		var rev, modified string
		for _, s := range info.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
			case "vcs.modified":
				modified = s.Value
			}
		}
		if len(rev) >= 7 {
			if modified == "true" {
				return rev[:7] + "+dirty"
			}
			return rev[:7]
		}
	}
	head, _ := exec.Command("git", "rev-parse", "--short", "HEAD").Output()
	return strings.TrimSpace(string(head))
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
