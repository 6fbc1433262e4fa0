package generators

import (
	"errors"
	"strings"
	"testing"
)

// lintTypes declares a +genclient type embedding TypeMeta inline, which
// makes a version package one of versioned API types to the lint rules.
const lintTypes = `package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// +genclient
type Thing struct {
	metav1.TypeMeta   ` + "`json:\",inline\"`" + `
	metav1.ObjectMeta ` + "`json:\"metadata\"`" + `
}
`

const lintRegister = `package v1

import "k8s.io/apimachinery/pkg/runtime/schema"

var SchemeGroupVersion = schema.GroupVersion{Group: "things.example.com", Version: "v1"}

func Resource(resource string) schema.GroupResource { return SchemeGroupVersion.WithResource(resource).GroupResource() }
`

const knownTagsLine = "recognized generator tags: genclient, genclient:method, genclient:noStatus, genclient:noVerbs, genclient:nonNamespaced, genclient:onlyVerbs, genclient:readonly, genclient:skipVerbs, groupGoName, k8s:applyconfiguration-gen, k8s:client-gen, k8s:conversion-gen, k8s:conversion-gen-external-types, k8s:deepcopy-gen, k8s:defaulter-gen, k8s:defaulter-gen-input, k8s:informer-gen, k8s:lister-gen, k8s:openapi-gen, k8s:openapi-model-package, k8s:prerelease-lifecycle-gen, k8s:protobuf-gen, k8s:register-gen, k8s:validation-gen, k8s:validation-gen-input, k8s:validation-gen-nolint, k8s:validation-gen-scheme-registry, k8s:validation-gen-test-fixture, k8s:validation-gen-test-targets"

// TestLintRulesRefuseWhatUpstreamRefusesWithItsMessage pins the two rules
// of code-generator v0.37's --lint-rules on the package tags: which
// packages each refuses and the exact message ($DIR is the module's
// folder). apicompat's TestLintRulesMatchUpstream compares the same
// against upstream's binaries.
func TestLintRulesRefuseWhatUpstreamRefusesWithItsMessage(t *testing.T) {
	tests := []struct {
		name  string
		doc   string // apis/things/v1/doc.go
		types string // apis/things/v1/types.go
		rules []string
		want  string // the whole error; "" when generation succeeds
	}{
		{
			name:  "no rules: unknown tags pass",
			doc:   "// +k8s:bogus-gen=true\n// +groupName=things.example.com\npackage v1\n",
			types: lintTypes,
		},
		{
			name:  "unknown generator tags, subtags by their name",
			doc:   "// +k8s:deepcopy-gen=package\n// +k8s:conversion-x-gen=foo\n// +k8s:bogus-gen:sub=1\n// +k8s:prerelease-lifecycle-gen:introduced=1.30\n// +k8s:validateFalse=field\n// +groupName=things.example.com\npackage v1\n",
			types: lintTypes,
			rules: []string{LintKnownTagsOnly},
			want:  "$DIR/apis/things/v1/doc.go: unrecognized +k8s: tag(s): +k8s:bogus-gen:sub, +k8s:conversion-x-gen\n" + knownTagsLine,
		},
		{
			name:  "known tags only pass",
			doc:   "// +k8s:deepcopy-gen=package\n// +k8s:openapi-gen=true\n// +k8s:validateFalse=field\n// +groupName=things.example.com\npackage v1\n",
			types: lintTypes,
			rules: []string{LintKnownTagsOnly},
		},
		{
			name:  "versioned types without deepcopy-gen",
			doc:   "// +groupName=things.example.com\npackage v1\n",
			types: lintTypes,
			rules: []string{LintExplicitDisablement},
			want:  "$DIR/apis/things/v1/doc.go: this package looks like: package containing versioned API types.\nSet explicit configuration or disablement for these generators in doc.go:\n  +k8s:deepcopy-gen=<package or false>",
		},
		{
			name:  "versioned types with deepcopy-gen disabled",
			doc:   "// +k8s:deepcopy-gen=false\n// +groupName=things.example.com\npackage v1\n",
			types: lintTypes,
			rules: []string{LintExplicitDisablement},
		},
		{
			name:  "no group name nor known tag: not an API package",
			doc:   "package v1\n",
			types: lintTypes,
			rules: []string{LintExplicitDisablement},
		},
		{
			name:  "TypeMeta without a json tag: not versioned types",
			doc:   "// +groupName=things.example.com\npackage v1\n",
			types: strings.Replace(lintTypes, "metav1.TypeMeta   `json:\",inline\"`", "metav1.TypeMeta", 1),
			rules: []string{LintExplicitDisablement},
		},
		{
			name:  "per-version internals without conversion and validation",
			doc:   "// +groupName=things.example.com\n// +k8s:defaulter-gen=TypeMeta\npackage v1\n",
			types: strings.Replace(lintTypes, "metav1.TypeMeta   `json:\",inline\"`", "metav1.TypeMeta", 1),
			rules: []string{LintExplicitDisablement},
			want:  "$DIR/apis/things/v1/doc.go: this package looks like: package containing per-version internals (conversion, defaulting, validation) for hub types at $DIR/apis/things.\nSet explicit configuration or disablement for these generators in doc.go:\n  +k8s:conversion-gen=<peer-package or false>\n  +k8s:validation-gen=<TypeMeta or false>",
		},
		{
			name:  "rules apply in the order given",
			doc:   "// +k8s:bogus-gen=x\n// +groupName=things.example.com\npackage v1\n",
			types: lintTypes,
			rules: []string{LintExplicitDisablement, LintKnownTagsOnly},
			want:  "$DIR/apis/things/v1/doc.go: this package looks like: package containing versioned API types.\nSet explicit configuration or disablement for these generators in doc.go:\n  +k8s:deepcopy-gen=<package or false>",
		},
		{
			name:  "a doc.go with nothing the generator otherwise reads is read",
			doc:   "// +k8s:deepcopy-gen=package\n// +k8s:bogus-gen=x\npackage v1\n",
			types: lintTypes,
			rules: []string{LintKnownTagsOnly},
			want:  "$DIR/apis/things/v1/doc.go: unrecognized +k8s: tag(s): +k8s:bogus-gen\n" + knownTagsLine,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := scratchModule(t, map[string]string{
				"apis/things/v1/doc.go":      tt.doc,
				"apis/things/v1/types.go":    tt.types,
				"apis/things/v1/register.go": lintRegister,
				"clientset/clientset.go":     "package versioned\n\ntype Interface interface{ ThingsV1() any }\n",
			})
			_, err := Generate(Options{Patterns: []string{"./apis/..."}, Dir: dir, OutputDir: "out", ClientsetPackage: "example.com/m/clientset", LintRules: tt.rules})
			got := ""
			if err != nil {
				got = strings.ReplaceAll(err.Error(), dir, "$DIR")
			}
			if got != tt.want {
				t.Errorf("Generate() error:\n%s\nwant:\n%s", got, tt.want)
			}
		})
	}
}

func TestUnknownLintRuleIsAUsageError(t *testing.T) {
	_, err := Generate(Options{Patterns: []string{"./apis/..."}, OutputDir: "out", ClientsetPackage: "example.com/m/clientset", LintRules: []string{LintKnownTagsOnly, "known-tags"}})
	if !errors.As(err, new(*UsageError)) || !strings.Contains(err.Error(), "unrecognized rule in --lint-rules: known-tags") {
		t.Fatalf("Generate() error = %v, want a *UsageError: unrecognized rule in --lint-rules: known-tags", err)
	}
}
