package apicompat_test

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// generators are the binaries the flag tests compare: upstream's
// informer-gen and lister-gen (code-generator v0.37.2, this module's
// tools) and ours.
type generators struct {
	upstream map[string]string // "informer-gen", "lister-gen" -> binary
	ours     string
	// oursAsListerGen is ours linked under the name lister-gen, which
	// makes it write only listers, as upstream lister-gen.
	oursAsListerGen string
}

// buildGenerators builds the three binaries into a test folder. go build
// downloads code-generator and its requirements (pinned in go.sum) into
// an empty module cache itself.
func buildGenerators(t *testing.T) generators {
	t.Helper()
	if testing.Short() {
		t.Skip("builds upstream's generators with the go command")
	}
	bin := t.TempDir()
	run(t, ".", "go", "build", "-o", bin+string(filepath.Separator),
		"k8s.io/code-generator/cmd/informer-gen", "k8s.io/code-generator/cmd/lister-gen")
	run(t, ".", "go", "build", "-o", filepath.Join(bin, "ours"), "github.com/informer-gen/informer-gen/cmd/informer-gen")
	asListerGen := filepath.Join(bin, "ours-as", "lister-gen")
	if err := os.MkdirAll(filepath.Dir(asListerGen), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(bin, "ours"), asListerGen); err != nil {
		t.Fatal(err)
	}
	return generators{
		upstream:        map[string]string{"informer-gen": filepath.Join(bin, "informer-gen"), "lister-gen": filepath.Join(bin, "lister-gen")},
		ours:            filepath.Join(bin, "ours"),
		oursAsListerGen: asListerGen,
	}
}

// exitOf runs name with args in dir and returns its exit status and
// standard error.
func exitOf(t *testing.T, dir, name string, args ...string) (int, string) {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off")
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stderr, &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return 0, stderr.String()
	case errors.As(err, &exit):
		return exit.ExitCode(), stderr.String()
	}
	t.Fatalf("%s %s: %v", name, strings.Join(args, " "), err)
	return 0, ""
}

// helpFlag is one flag of a pflag usage listing.
type helpFlag struct {
	name, shorthand, typ string // typ "" for a boolean
}

// usageLine matches a flag line of pflag's usage: "  -v, --v Level   usage"
// or "      --logtostderr   usage" (pflag 1.1 adds "[=true|false]" to
// booleans).
var usageLine = regexp.MustCompile(`^\s+(?:-(\w), )?--([\w-]+)(?:\[=[^\]]*\])?(?: (\w+))?(?:\s{2,}|$)`)

// helpFlags lists the flags --help of binary prints.
func helpFlags(t *testing.T, binary string) []helpFlag {
	t.Helper()
	code, out := exitOf(t, t.TempDir(), binary, "--help")
	if code != 0 {
		t.Fatalf("%s --help: exit status %d\n%s", binary, code, out)
	}
	var flags []helpFlag
	for _, line := range strings.Split(out, "\n") {
		if m := usageLine.FindStringSubmatch(line); m != nil {
			flags = append(flags, helpFlag{name: m[2], shorthand: m[1], typ: m[3]})
		}
	}
	return flags
}

// sampleValues are values of each flag type of upstream's usage, valid
// for that type.
var sampleValues = map[string]string{
	"string": "x", "strings": "a,b", "uint": "1", "Level": "2",
	"severity": "ERROR", "traceLocation": "main.go:1", "moduleSpec": "gen*=3",
}

// TestOursAcceptsEveryUpstreamGeneratorFlag lists the flags --help of
// upstream's informer-gen and lister-gen prints and fails on one that
// ours lacks (by name and shorthand), naming it, or refuses a value of
// the flag's type that upstream accepts. docs/generator-flags.md says what
// each one does in ours.
func TestOursAcceptsEveryUpstreamGeneratorFlag(t *testing.T) {
	gens := buildGenerators(t)
	ours := map[string]helpFlag{}
	for _, f := range helpFlags(t, gens.ours) {
		ours[f.name] = f
	}
	for _, cmd := range []string{"informer-gen", "lister-gen"} {
		upstream := helpFlags(t, gens.upstream[cmd])
		names := map[string]bool{}
		for _, f := range upstream {
			names[f.name] = true
		}
		// The listing is read right: it has the flags every version has.
		for _, must := range []string{"output-dir", "output-pkg", "go-header-file", "lint-rules", "v", "vmodule"} {
			if !names[must] {
				t.Fatalf("upstream %s --help lists no --%s; is the usage parsed right? flags: %v", cmd, must, upstream)
			}
		}
		for _, f := range upstream {
			t.Run(cmd+"/--"+f.name, func(t *testing.T) {
				checkFlagAccepted(t, gens, cmd, f, ours[f.name])
			})
		}
	}
}

// checkFlagAccepted fails when ours lacks upstream's flag f of command
// cmd, or refuses a value upstream accepts.
func checkFlagAccepted(t *testing.T, gens generators, cmd string, f, our helpFlag) {
	if our.name == "" {
		t.Fatalf("ours lacks upstream %s's flag --%s", cmd, f.name)
	}
	if our.shorthand != f.shorthand {
		t.Errorf("upstream %s's --%s has shorthand %q, ours %q", cmd, f.name, f.shorthand, our.shorthand)
	}
	arg := "--" + f.name
	if f.typ != "" {
		value, ok := sampleValues[f.typ]
		if !ok {
			t.Fatalf("no sample value for upstream %s's --%s of type %s; add one to sampleValues", cmd, f.name, f.typ)
		}
		arg += "=" + value
	}
	// --help ends both commands after parsing, before anything is read.
	if code, out := exitOf(t, t.TempDir(), gens.upstream[cmd], arg, "--help"); code != 0 {
		t.Fatalf("upstream %s refuses %s (sample value wrong?): exit %d\n%s", cmd, arg, code, out)
	}
	if code, out := exitOf(t, t.TempDir(), gens.ours, arg, "--help"); code != 0 {
		t.Errorf("ours refuses upstream %s's %s: exit %d\n%s", cmd, arg, code, out)
	}
}
