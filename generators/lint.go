package generators

import (
	"errors"
	"fmt"
	"path"
	"regexp"
	"slices"
	"strings"

	"k8s.io/gengo/v2/codetags"
)

// The tag-checking lint rules of code-generator v0.37's --lint-rules
// (k8s.io/code-generator/pkg/apidefinitions), which informer-gen and
// lister-gen apply to every input package before generating.
const (
	// LintKnownTagsOnly refuses a package tag of the +k8s:*-gen family
	// that no Kubernetes generator knows (a misspelt generator name).
	LintKnownTagsOnly = "known-tags-only"
	// LintExplicitDisablement requires a package that looks like an API
	// version package to enable or explicitly disable the generators such
	// packages usually need (deepcopy-gen for versioned types;
	// conversion-gen, defaulter-gen and validation-gen for per-version
	// internals).
	LintExplicitDisablement = "require-explicit-disablement"
)

// LintRules are the rules --lint-rules accepts, in upstream's order.
var LintRules = []string{LintKnownTagsOnly, LintExplicitDisablement}

// ValidateLintRules refuses a rule LintRules lacks, with upstream's message.
func ValidateLintRules(rules []string) error {
	for _, r := range rules {
		if !slices.Contains(LintRules, r) {
			return fmt.Errorf("unrecognized rule in --lint-rules: %s", r)
		}
	}
	return nil
}

// generatorTag is one generator's activation tag with the shape of its
// value, as upstream's error messages describe it.
type generatorTag struct{ name, hint string }

var (
	deepcopyTag   = generatorTag{"k8s:deepcopy-gen", "package or false"}
	conversionTag = generatorTag{"k8s:conversion-gen", "peer-package or false"}
	defaulterTag  = generatorTag{"k8s:defaulter-gen", "TypeMeta or false"}
	validationTag = generatorTag{"k8s:validation-gen", "TypeMeta or false"}
)

// knownGeneratorTags are the tags of Kubernetes' generators, sorted: the
// activation, input and auxiliary tags of code-generator v0.37's
// apidefinitions specs.
var knownGeneratorTags = []string{
	"genclient", "genclient:method", "genclient:noStatus", "genclient:noVerbs",
	"genclient:nonNamespaced", "genclient:onlyVerbs", "genclient:readonly", "genclient:skipVerbs",
	"groupGoName",
	"k8s:applyconfiguration-gen", "k8s:client-gen",
	"k8s:conversion-gen", "k8s:conversion-gen-external-types",
	"k8s:deepcopy-gen", "k8s:defaulter-gen", "k8s:defaulter-gen-input",
	"k8s:informer-gen", "k8s:lister-gen",
	"k8s:openapi-gen", "k8s:openapi-model-package",
	"k8s:prerelease-lifecycle-gen", "k8s:protobuf-gen", "k8s:register-gen",
	"k8s:validation-gen", "k8s:validation-gen-input", "k8s:validation-gen-nolint",
	"k8s:validation-gen-scheme-registry", "k8s:validation-gen-test-fixture", "k8s:validation-gen-test-targets",
}

// lintPackage applies rules, in their order, to the package tags of d (the
// comments above the package clause, where the generator reads them). The
// first rule a package breaks is the error, worded as upstream's.
func lintPackage(d *declarations, rules []string) error {
	for _, rule := range rules {
		var err error
		switch rule {
		case LintKnownTagsOnly:
			err = checkKnownTags(d)
		case LintExplicitDisablement:
			err = checkExplicitDisablement(d)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// checkKnownTags refuses +k8s: tags naming a generator ("-gen") that is
// not one of knownGeneratorTags; a tag's subtag (+k8s:NAME:sub) is checked
// by its NAME. Tags outside that family pass. Each file holding such tags
// gets a line.
func checkKnownTags(d *declarations) error {
	var lines []string
	for _, fc := range d.packageComments {
		var unknown []string
		for name := range codetags.Extract("+", fc.lines) {
			rest, ok := strings.CutPrefix(name, "k8s:")
			if !ok || !strings.Contains(name, "-gen") {
				continue
			}
			base := name
			if i := strings.Index(rest, ":"); i >= 0 {
				base = name[:len("k8s:")+i]
			}
			if !slices.Contains(knownGeneratorTags, base) {
				unknown = append(unknown, "+"+name)
			}
		}
		if len(unknown) > 0 {
			slices.Sort(unknown)
			lines = append(lines, fmt.Sprintf("%s/%s: unrecognized +k8s: tag(s): %s", d.pkg.Dir, fc.file, strings.Join(unknown, ", ")))
		}
	}
	if len(lines) == 0 {
		return nil
	}
	return fmt.Errorf("%s\nrecognized generator tags: %s", strings.Join(lines, "\n"), strings.Join(knownGeneratorTags, ", "))
}

// checkExplicitDisablement refuses an API version package that does not
// set the tags of the generators its kind of package usually needs.
func checkExplicitDisablement(d *declarations) error {
	tagged := codetags.Extract("+", d.packageLines())
	role, expected := classifyPackage(d, tagged)
	var missing []generatorTag
	for _, g := range expected {
		if _, ok := tagged[g.name]; !ok {
			missing = append(missing, g)
		}
	}
	if len(missing) == 0 {
		return nil
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "%s/doc.go: this package looks like: %s.\n", d.pkg.Dir, role)
	sb.WriteString("Set explicit configuration or disablement for these generators in doc.go:")
	for _, g := range missing {
		fmt.Fprintf(&sb, "\n  +%s=<%s>", g.name, g.hint)
	}
	return errors.New(sb.String())
}

// versionPathRE matches an API version folder: v1, v1beta2, v2alpha1.
var versionPathRE = regexp.MustCompile(`^v\d+([a-z]+\d+)?$`)

// classifyPackage returns what d looks like and the generators such a
// package is expected to tag (sorted by tag), by upstream's heuristics: a
// package with +groupName or a known generator tag, in a version folder,
// holds versioned API types when a type embeds TypeMeta inline, and
// per-version internals when it has defaulter-gen or validation-gen tags.
// Anything else expects nothing.
func classifyPackage(d *declarations, tagged map[string][]string) (string, []generatorTag) {
	if !looksLikeAPIPackage(tagged) || !versionPathRE.MatchString(path.Base(d.pkg.Path)) {
		return "", nil
	}
	for _, t := range d.types {
		if t.typeMetaInline {
			return "package containing versioned API types", []generatorTag{deepcopyTag}
		}
	}
	for _, name := range []string{"k8s:defaulter-gen", "k8s:defaulter-gen-input", "k8s:validation-gen", "k8s:validation-gen-input"} {
		if _, ok := tagged[name]; ok {
			role := "package containing per-version internals (conversion, defaulting, validation)"
			if parent := path.Dir(d.pkg.Dir); parent != "" && parent != "." && parent != "/" {
				role += " for hub types at " + parent
			}
			return role, []generatorTag{conversionTag, defaulterTag, validationTag}
		}
	}
	return "", nil
}

// looksLikeAPIPackage reports whether the package tags include
// +groupName (every one well-formed) or any known generator tag.
func looksLikeAPIPackage(tagged map[string][]string) bool {
	if groupNameParses(tagged["groupName"]) {
		return true
	}
	for name := range tagged {
		if slices.Contains(knownGeneratorTags, name) {
			return true
		}
	}
	return false
}

// groupNameParses reports whether there are +groupName lines and each
// parses as a tag.
func groupNameParses(lines []string) bool {
	for _, line := range lines {
		if _, err := codetags.Parse(line, codetags.RawValues(true)); err != nil {
			return false
		}
	}
	return len(lines) > 0
}

// packageLines are the package comment lines of every file of d.
func (d *declarations) packageLines() []string {
	var lines []string
	for _, fc := range d.packageComments {
		lines = append(lines, fc.lines...)
	}
	return lines
}
