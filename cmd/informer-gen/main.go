// Command informer-gen writes typed informers, listers and a shared
// informer factory for Kubernetes API types, on the informer-gen runtime,
// in one invocation.
//
// Usage:
//
//	informer-gen [flags] PACKAGE-PATTERN...
//
// For example, under //go:generate in a module's root:
//
//	//go:generate go run github.com/informer-gen/informer-gen/cmd/informer-gen --output-dir ./pkg/generated --versioned-clientset-package ./pkg/generated/clientset/versioned ./apis/...
//
// Informers go to OUTPUT-DIR/informers/externalversions (OUTPUT-DIR/informers
// with --single-directory), listers to OUTPUT-DIR/listers/GROUP/VERSION.
// The two folders must not contain each other, an input package or the
// clientset. Writing is all or nothing: when any file cannot be written or
// moved into place, the output is left exactly as it was. Each folder gets a
// .informer-gen.manifest listing the files generated there; a file it lists
// that a later run no longer generates is stale and removed. Nothing else is
// ever removed, not even files with informer-gen's (and upstream's) "Code
// generated" header.
//
// With --walks-only only the compaction walks are written, for API
// packages that have no clientset (a kubebuilder project's api/v1):
// zz_generated.compaction.go in each input package, or with --output-dir
// in OUTPUT-DIR/GROUP/VERSION, registering the walks of the package's
// object types from init, so that importing the package registers them:
//
//	//go:generate go run github.com/informer-gen/informer-gen/cmd/informer-gen --walks-only .
//
// With --verify-only nothing is written: the files that differ from the
// generated ones, are missing, or are stale are listed and the exit status
// is 1 when there is any.
//
// Internal (unversioned) API packages, whose ObjectMeta has no json tag,
// are skipped with a note on standard error.
//
// Every flag of code-generator v0.37's informer-gen and lister-gen is
// accepted: --lint-rules applies the same tag checks to every input
// package, klog's flags configure the log (-v=2 logs the flags accepted
// but ignored). Upstream's split invocations work unchanged: with
// --listers-package, --output-dir is the informers folder and only
// informers are written; run under the name lister-gen (a link or a copy
// of the binary), only listers are written, into --output-dir.
// docs/generator-flags.md lists how each flag is treated.
//
// Exit status: 0 on success; 2 on bad usage (an unknown or malformed flag,
// a missing required flag, flags that contradict each other or an output
// layout that overlaps the inputs), with the cause and, for flag syntax
// errors, the usage on standard error; 1 when the inputs are wrong (a
// package that does not exist or cannot be generated for, an unreadable
// header file, a clientset lacking what the informers call), when writing
// fails, or when --verify-only finds differences.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/pflag"
	"k8s.io/klog/v2"

	"github.com/informer-gen/informer-gen/generators"
)

func main() {
	status := runAs(strings.TrimSuffix(filepath.Base(os.Args[0]), ".exe"), os.Args[1:], os.Stdout, os.Stderr)
	klog.Flush()
	os.Exit(status)
}

// flags are the command-line flags.
type flags struct {
	inputDirs        []string
	outputDir        string
	outputPkg        string
	informersSubdir  string
	listersSubdir    string
	singleDirectory  bool
	clientset        string
	headerFile       string
	pluralExceptions []string
	verifyOnly       bool
	verbose          int
	lintRules        []string
	jsonDecoders     bool
	protoDecoders    bool
	listersOnly      bool // run as lister-gen
	walksOnly        bool
	help             bool
	legacyHeader     string

	// Upstream flags that do not apply here.
	listersPackage    string
	internalClientset string
	buildTag          string
}

func newFlagSet(f *flags, stderr io.Writer) *pflag.FlagSet {
	fs := pflag.NewFlagSet("informer-gen", pflag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringSliceVar(&f.inputDirs, "input-dirs", nil, "comma-separated Go package patterns (the gengo v1 flag); same as positional arguments")
	fs.StringVar(&f.outputDir, "output-dir", "", "base directory of the generated code")
	fs.StringVar(&f.outputPkg, "output-pkg", "", "Go import path of --output-dir (default: derived from the enclosing go.mod)")
	fs.StringVar(&f.outputPkg, "output-package", "", "alias of --output-pkg")
	fs.StringVar(&f.informersSubdir, "informers-subdir", "informers", "folder under --output-dir for informers")
	fs.StringVar(&f.listersSubdir, "listers-subdir", "listers", "folder under --output-dir for listers")
	fs.BoolVar(&f.singleDirectory, "single-directory", false, "put informers in the informers folder itself, without the \"externalversions\" subfolder")
	fs.StringVar(&f.clientset, "versioned-clientset-package", "", "Go import path (or ./relative folder) of the client-gen clientset; it must export Interface")
	fs.StringVar(&f.headerFile, "go-header-file", "", "file with the boilerplate header of generated files; \"YEAR\" is replaced by the current year")
	fs.StringSliceVar(&f.pluralExceptions, "plural-exceptions", generators.DefaultPluralExceptions, "comma-separated Type:Plural exceptions to the pluralizer")
	fs.BoolVar(&f.verifyOnly, "verify-only", false, "write nothing; list the files that differ, are missing or are stale, and exit 1 if any")
	fs.BoolVar(&f.walksOnly, "walks-only", false, "write only the compaction walks of the input packages' object types (structs with ObjectMeta), for API packages without a clientset: into each package itself, or with --output-dir into OUTPUT-DIR/GROUP/VERSION plus OUTPUT-DIR's package importing them all")
	addKlogFlags(fs, &f.verbose)
	fs.BoolVar(&f.jsonDecoders, "json-decoders", true, "write each version's JSON decoders (zz_generated.decoders.go, package runtime/jsondecode), through which the informers of types without protobuf decode their lists and watch streams (runtime/jsonwatch) and those of types with protobuf their JSON watch streams (a client configured for JSON); --json-decoders=false leaves them out (informers then decode through the typed clients)")
	fs.BoolVar(&f.protoDecoders, "proto-decoders", true, "write each version's protobuf decoders (zz_generated.protodecoders.go, package runtime/protodecode) of its types with go-to-protobuf struct tags (k8s.io/api's), with which their informers decode watch events into interned objects (runtime/protowatch); --proto-decoders=false leaves them out (informers then decode watch events with the types' Unmarshal)")
	fs.StringSliceVar(&f.lintRules, "lint-rules", nil, "comma-separated list of tag-checking lint rules to enable, as code-generator v0.37's; supports: "+strings.Join(generators.LintRules, ","))
	// --help has no -h: gengo v1 generators took -h for --go-header-file,
	// and "-h FILE" must not print help and exit 0 under go generate, so
	// -h is a hidden flag that is refused with an explanation.
	fs.BoolVar(&f.help, "help", false, "print this help")
	fs.StringVarP(&f.legacyHeader, "gengo-v1-go-header-file", "h", "", "refused")
	_ = fs.MarkHidden("gengo-v1-go-header-file")

	fs.StringVar(&f.listersPackage, "listers-package", "", "Go import path of listers another run writes (upstream informer-gen's meaning): only informers are written, under --output-dir itself (in externalversions/ unless --single-directory), importing these listers")
	fs.StringVar(&f.internalClientset, "internal-clientset-package", "", "ignored: informer-gen generates external versions only")
	fs.StringVar(&f.buildTag, "build-tag", "", "ignored: generated files carry no build tag")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "Usage: informer-gen [flags] PACKAGE-PATTERN...\n\nFlags:\n%s", fs.FlagUsages())
	}
	return fs
}

// upstreamFlagHints explain flags of upstream informer-gen (gengo v1 and
// v2) that informer-gen does not have, by the text of pflag's error.
var upstreamFlagHints = []struct{ flag, hint string }{
	{"--output-base", "informer-gen has no --output-base: use --output-dir, the folder that will hold informers/ and listers/"},
	{"'i' in -i", "informer-gen has no -i: use --input-dirs or list the packages as arguments"},
	{"'o' in -o", "informer-gen has no -o: use --output-dir"},
	{"'p' in -p", "informer-gen has no -p: use --output-pkg (the import path of --output-dir)"},
	{"'h' in -h", "informer-gen has no -h: use --go-header-file for the boilerplate header, --help for help"},
	{"--output-file-base", "informer-gen has no --output-file-base: file names follow the type names"},
}

// flagError reports a command-line syntax error with its cause, a hint
// when the flag is upstream's, and the usage.
func flagError(fs *pflag.FlagSet, err error, stderr io.Writer) {
	fmt.Fprintf(stderr, "informer-gen: %v\n", err)
	for _, h := range upstreamFlagHints {
		if strings.Contains(err.Error(), h.flag) {
			fmt.Fprintf(stderr, "informer-gen: %s\n", h.hint)
		}
	}
	fs.Usage()
}

// checkNesting refuses an upstream-style --output-dir naming the informers
// folder itself, which would nest informers/informers/externalversions,
// unless --informers-subdir was given explicitly.
func checkNesting(fs *pflag.FlagSet, f *flags) error {
	if f.outputDir == "" || f.listersOnly || f.walksOnly || f.listersPackage != "" || fs.Changed("informers-subdir") || filepath.Base(filepath.Clean(f.outputDir)) != f.informersSubdir {
		return nil
	}
	nested := filepath.Join(f.outputDir, f.informersSubdir)
	if !f.singleDirectory {
		nested = filepath.Join(nested, "externalversions")
	}
	parent := filepath.Dir(filepath.Clean(f.outputDir))
	return fmt.Errorf("--output-dir %s already ends in the informers folder: informer-gen's --output-dir is the folder holding both %s/ and %s/ (upstream informer-gen's is the informers folder itself, with --listers-package), so informers would go to %s; pass --output-dir %s (listers then go to %s), or --listers-package to write only the informers there as upstream informer-gen does, or pass --informers-subdir explicitly if that nesting is wanted",
		f.outputDir, f.informersSubdir, f.listersSubdir, nested, parent, filepath.Join(parent, f.listersSubdir))
}

// run is the whole command; it returns the exit status: 0 on success, 1 when
// generation failed or --verify-only found differences, 2 on bad usage.
func run(args []string, stdout, stderr io.Writer) int {
	return runAs("informer-gen", args, stdout, stderr)
}

// runAs is run under the command name name: as "lister-gen" (the binary
// installed or linked under that name) it writes only the listers, into
// --output-dir itself, as upstream lister-gen.
func runAs(name string, args []string, stdout, stderr io.Writer) int {
	f := flags{listersOnly: name == "lister-gen"}
	fs := newFlagSet(&f, stderr)
	if status, done := parseFlags(fs, &f, args, stderr); done {
		return status
	}
	opts, status := options(fs, &f, stderr)
	if status != 0 {
		return status
	}
	start := time.Now()
	out, err := generators.Generate(opts)
	if err != nil {
		fmt.Fprintf(stderr, "informer-gen: %v\n", err)
		if errors.As(err, new(*generators.UsageError)) {
			return 2
		}
		return 1
	}
	generated := time.Since(start)
	for _, note := range out.Notes {
		fmt.Fprintf(stderr, "informer-gen: note: %s\n", note)
	}
	if f.verifyOnly {
		status = verify(out, f.verbose, generated, stdout, stderr)
	} else {
		status = write(out, f.verbose, start, generated, stderr)
	}
	if status == 0 {
		klog.V(2).Info("Completed successfully.")
	}
	return status
}

// parseFlags parses args into f; done is true when the command ends there
// (help, a syntax error or a refused flag), with its exit status.
func parseFlags(fs *pflag.FlagSet, f *flags, args []string, stderr io.Writer) (status int, done bool) {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			return 0, true
		}
		flagError(fs, err, stderr)
		return 2, true
	}
	if f.help {
		fs.Usage()
		return 0, true
	}
	if fs.Changed("gengo-v1-go-header-file") {
		flagError(fs, errors.New("unknown shorthand flag: 'h' in -h"), stderr)
		return 2, true
	}
	explainIgnored(fs)
	return 0, false
}

// options returns the generator's options from the parsed flags, or the
// exit status of a flag value that is refused.
func options(fs *pflag.FlagSet, f *flags, stderr io.Writer) (generators.Options, int) {
	plural, err := generators.ParsePluralExceptions(f.pluralExceptions)
	if err != nil {
		fmt.Fprintf(stderr, "informer-gen: %v\n", err)
		return generators.Options{}, 2
	}
	if err := checkNesting(fs, f); err != nil {
		fmt.Fprintf(stderr, "informer-gen: %v\n", err)
		return generators.Options{}, 2
	}
	boilerplate, err := readHeader(f.headerFile)
	if err != nil {
		fmt.Fprintf(stderr, "informer-gen: --go-header-file: %v\n", err)
		return generators.Options{}, 1
	}
	return generators.Options{
		Patterns:         append(fs.Args(), f.inputDirs...),
		OutputDir:        f.outputDir,
		OutputPackage:    f.outputPkg,
		InformersSubdir:  f.informersSubdir,
		ListersSubdir:    f.listersSubdir,
		SingleDirectory:  f.singleDirectory,
		ClientsetPackage: f.clientset,
		Boilerplate:      boilerplate,
		PluralExceptions: plural,
		LintRules:        f.lintRules,
		JSONDecoders:     f.jsonDecoders,
		ProtoDecoders:    f.protoDecoders,
		ListersPackage:   f.listersPackage,
		ListersOnly:      f.listersOnly,
		WalksOnly:        f.walksOnly,
	}, 0
}

// verify lists the differences between out and the disk on stdout; the
// status is 1 when there is any.
func verify(out *generators.Output, verbose int, generated time.Duration, stdout, stderr io.Writer) int {
	diffs, err := out.Verify()
	if err != nil {
		fmt.Fprintf(stderr, "informer-gen: %v\n", err)
		return 1
	}
	for _, d := range diffs {
		fmt.Fprintln(stdout, d)
	}
	if len(diffs) > 0 {
		fmt.Fprintf(stderr, "informer-gen: %d generated file(s) under %s are out of date; run informer-gen without --verify-only\n", len(diffs), out.Base)
		return 1
	}
	if verbose > 0 {
		fmt.Fprintf(stderr, "informer-gen: %d files up to date (generated in %v)\n", len(out.Files), generated.Round(time.Millisecond))
	}
	return 0
}

// write writes out, and with verbose a summary timed from start.
func write(out *generators.Output, verbose int, start time.Time, generated time.Duration, stderr io.Writer) int {
	written, removed, err := out.Write()
	if err != nil {
		fmt.Fprintf(stderr, "informer-gen: %v\n", err)
		return 1
	}
	if verbose > 0 {
		fmt.Fprintf(stderr, "informer-gen: %d files generated in %v; %d written, %d stale removed, in %v\n",
			len(out.Files), generated.Round(time.Millisecond), written, removed, time.Since(start).Round(time.Millisecond))
	}
	return 0
}

// ignoredFlags are the upstream flags informer-gen accepts and ignores
// (docs/generator-flags.md says why).
var ignoredFlags = []string{"internal-clientset-package", "build-tag"}

// explainIgnored logs once at -v=2, for each ignored flag passed, why it
// has no effect, instead of failing on it.
func explainIgnored(fs *pflag.FlagSet) {
	for _, name := range ignoredFlags {
		if fs.Changed(name) {
			klog.V(2).Infof("--%s is ignored: %s", name, strings.TrimPrefix(fs.Lookup(name).Usage, "ignored: "))
		}
	}
}

// readHeader reads the boilerplate file, replacing YEAR by the current year.
func readHeader(file string) (string, error) {
	if file == "" {
		return "", nil
	}
	b, err := os.ReadFile(file)
	if err != nil {
		return "", err
	}
	return strings.ReplaceAll(string(b), "YEAR", strconv.Itoa(time.Now().UTC().Year())), nil
}
