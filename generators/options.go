package generators

import (
	"errors"
	"fmt"
	"path"
	"sort"
	"strings"
)

// Options configures one generator run. The zero value is not valid: set at
// least Patterns, OutputDir and ClientsetPackage (OutputPackage is derived
// from OutputDir's module when empty); with WalksOnly, Patterns.
type Options struct {
	// Patterns are the Go package patterns of the API packages, as for
	// `go list`: import paths, relative directories ("./apis/...").
	Patterns []string
	// Dir is the directory relative patterns, paths and the Go module are
	// resolved from; empty means the process's working directory.
	Dir string

	// OutputDir is the base directory of the generated code.
	OutputDir string
	// OutputPackage is the import path of OutputDir. When empty it is
	// derived from the go.mod enclosing OutputDir.
	OutputPackage string
	// InformersSubdir and ListersSubdir name the folders under OutputDir
	// holding informers and listers ("informers" and "listers" when empty).
	InformersSubdir string
	ListersSubdir   string
	// SingleDirectory puts informers directly in InformersSubdir instead of
	// InformersSubdir/externalversions.
	SingleDirectory bool

	// ClientsetPackage is the import path of the versioned clientset (the
	// client-gen output). A path starting with "./" or "../" is resolved
	// against Dir's module.
	ClientsetPackage string

	// Boilerplate is the license header put on top of every file, with
	// "YEAR" already replaced; it may be empty.
	Boilerplate string

	// PluralExceptions maps a type name to its plural where the English
	// rules of gengo's namer get it wrong, e.g. "Endpoints": "Endpoints".
	PluralExceptions map[string]string

	// ListersPackage, when set, is the import path of listers written by
	// another run (upstream informer-gen's --listers-package): this run
	// writes only the informers, under OutputDir itself (in
	// "externalversions" unless SingleDirectory), and they import the
	// listers from ListersPackage. InformersSubdir and ListersSubdir do
	// not apply.
	ListersPackage string
	// ListersOnly makes the run write only the listers, into OutputDir
	// itself, as upstream lister-gen; it needs no ClientsetPackage.
	ListersOnly bool

	// WalksOnly makes the run write only the compaction walks of the
	// input packages' object types (the structs with an ObjectMeta field),
	// for API packages that have no clientset (a kubebuilder project's
	// api/v1): zz_generated.compaction.go, registering the walks from init.
	// With OutputDir empty it goes into each input package itself;
	// otherwise into OutputDir/GROUP/VERSION, with OutputDir's own
	// zz_generated.compaction.go importing them all. It needs no
	// ClientsetPackage, and takes none of the informer and lister layout
	// options.
	WalksOnly bool

	// LintRules are upstream's tag-checking lint rules (LintRules lists
	// them) applied to every input package's tags before generating; a
	// package that breaks one is an error.
	LintRules []string

	// JSONDecoders writes, beside each version's compaction walks, the
	// JSON decoders of its types (zz_generated.decoders.go, package
	// runtime/jsondecode; docs/decoders.md), through which the informers
	// of types without protobuf list and watch (runtime/jsonwatch), and
	// the informers of types with protobuf decode a JSON watch stream (a
	// client configured for JSON; protowatch.Watcher's DecodeJSON).
	// informer-gen's command line sets it unless --json-decoders=false.
	JSONDecoders bool

	// ProtoDecoders writes, beside each version's informers, the protobuf
	// decoders of its types that decode themselves from protobuf (the
	// types of k8s.io/api; zz_generated.protodecoders.go, package
	// runtime/protodecode), through which their informers decode watch
	// events (runtime/protowatch). informer-gen's command line sets it
	// unless --proto-decoders=false.
	ProtoDecoders bool
}

const (
	defaultInformersSubdir = "informers"
	defaultListersSubdir   = "listers"
)

// DefaultPluralExceptions is the plural exception list client-gen uses by
// default, so that informers call the clientset's methods by their names.
var DefaultPluralExceptions = []string{"Endpoints:Endpoints"}

// ParsePluralExceptions parses "Type:Plural" entries.
func ParsePluralExceptions(entries []string) (map[string]string, error) {
	out := make(map[string]string, len(entries))
	for _, e := range entries {
		e = strings.TrimSpace(e)
		if e == "" {
			continue
		}
		typ, plural, ok := strings.Cut(e, ":")
		if !ok || !isGoIdentifier(typ) || !isGoIdentifier(plural) {
			return nil, fmt.Errorf("--plural-exceptions: %q is not Type:Plural (two Go identifiers)", e)
		}
		out[typ] = plural
	}
	return out, nil
}

// UsageError is a mistake in the options themselves (a missing setting, a
// malformed one, or settings that contradict each other), as opposed to a
// problem with the packages and files they name. A command reports it as
// bad usage. It is an immutable value, safe to share.
type UsageError struct{ Err error }

// Error returns the underlying error's text.
func (e *UsageError) Error() string { return e.Err.Error() }

// Unwrap returns the underlying error.
func (e *UsageError) Unwrap() error { return e.Err }

// validateSubdirs fills in the default subfolders and checks them.
func (o *Options) validateSubdirs() []error {
	var errs []error
	if o.InformersSubdir == "" {
		o.InformersSubdir = defaultInformersSubdir
	}
	if o.ListersSubdir == "" {
		o.ListersSubdir = defaultListersSubdir
	}
	for flag, sub := range map[string]string{"--informers-subdir": o.InformersSubdir, "--listers-subdir": o.ListersSubdir} {
		if path.IsAbs(sub) || strings.Contains(sub, "..") || strings.ContainsAny(sub, `\`) {
			errs = append(errs, fmt.Errorf("%s: %q must be a relative folder inside --output-dir", flag, sub))
		}
	}
	if o.InformersSubdir == o.ListersSubdir {
		errs = append(errs, fmt.Errorf("--informers-subdir and --listers-subdir are both %q", o.InformersSubdir))
	}
	return errs
}

// validate checks o and fills in defaults. Empty patterns (a trailing comma
// in --input-dirs) are dropped. Its errors are *UsageError.
func (o *Options) validate() error {
	var errs []error
	patterns := o.Patterns[:0:0]
	for _, p := range o.Patterns {
		if p = strings.TrimSpace(p); p != "" {
			patterns = append(patterns, p)
		}
	}
	o.Patterns = patterns
	if len(o.Patterns) == 0 {
		errs = append(errs, errors.New("no input packages: pass Go package patterns as arguments or with --input-dirs"))
	}
	if o.OutputDir == "" && !o.WalksOnly {
		errs = append(errs, errors.New("--output-dir must be specified"))
	}
	errs = append(errs, o.validateWalksOnly()...)
	if o.ListersOnly && o.ListersPackage != "" {
		errs = append(errs, errors.New("--listers-package names listers another run writes, and lister-gen writes the listers: pass one or the other"))
	}
	if o.ClientsetPackage == "" && !o.ListersOnly && !o.WalksOnly {
		errs = append(errs, errors.New("--versioned-clientset-package must be specified (the import path of the client-gen clientset)"))
	}
	errs = append(errs, o.validateSubdirs()...)
	if err := ValidateLintRules(o.LintRules); err != nil {
		errs = append(errs, err)
	}
	if len(errs) == 0 {
		return nil
	}
	sort.Slice(errs, func(i, j int) bool { return errs[i].Error() < errs[j].Error() })
	return &UsageError{errors.Join(errs...)}
}

// validateWalksOnly refuses, with WalksOnly, the options of informers and
// listers, which that mode does not write.
func (o *Options) validateWalksOnly() []error {
	if !o.WalksOnly {
		return nil
	}
	var errs []error
	refuse := func(flag string, set bool) {
		if set {
			errs = append(errs, fmt.Errorf("--walks-only writes only the compaction walks: %s does not apply", flag))
		}
	}
	refuse("--versioned-clientset-package", o.ClientsetPackage != "")
	refuse("--listers-package", o.ListersPackage != "")
	refuse("--single-directory", o.SingleDirectory)
	refuse("--informers-subdir", o.InformersSubdir != "" && o.InformersSubdir != defaultInformersSubdir)
	refuse("--listers-subdir", o.ListersSubdir != "" && o.ListersSubdir != defaultListersSubdir)
	if o.OutputPackage != "" && o.OutputDir == "" {
		errs = append(errs, errors.New("--walks-only without --output-dir writes into each input package: --output-pkg (the import path of --output-dir) does not apply"))
	}
	if o.ListersOnly {
		errs = append(errs, errors.New("--walks-only writes only the compaction walks, lister-gen only listers: run the walks-only mode as informer-gen"))
	}
	return errs
}
