package apicompat_test

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// lintFixtureTypes is an API version package that needs no other module:
// its TypeMeta and ObjectMeta are its own, which is all the lint rules and
// both generators look at. SchemeGroupVersion and Resource are there for
// ours, which reads them by name.
const lintFixtureTypes = `package v1

type TypeMeta struct{ Kind string }

type ObjectMeta struct{ Name string }

var SchemeGroupVersion = struct{ Group, Version string }{"things.example.com", "v1"}

func Resource(resource string) string { return resource }

// +genclient
type Thing struct {
	TypeMeta   ` + "`json:\",inline\"`" + `
	ObjectMeta ` + "`json:\"metadata,omitempty\"`" + `
}
`

// klogFatal is the header klog.Fatal puts before upstream's message.
var klogFatal = regexp.MustCompile(`(?m)^F\d{4} [\d:.]+\s+\d+ [\w.]+:\d+\] `)

// TestLintRulesMatchUpstream runs upstream's informer-gen and lister-gen
// and ours with --lint-rules on API packages that break or keep each
// rule: ours must fail exactly when upstream does, with upstream's
// message.
func TestLintRulesMatchUpstream(t *testing.T) {
	gens := buildGenerators(t)
	internalTypes := strings.Replace(lintFixtureTypes, "TypeMeta   `json:\",inline\"`", "TypeMeta", 1)
	tests := []struct {
		name, doc, types, rules string
	}{
		{"unknown generator tags", "// +k8s:deepcopy-gen=package\n// +k8s:conversion-x-gen=foo\n// +k8s:bogus-gen:sub=1\n// +k8s:prerelease-lifecycle-gen:introduced=1.30\n// +k8s:validateFalse=field\n// +groupName=things.example.com\npackage v1\n", lintFixtureTypes, "known-tags-only"},
		{"known tags", "// +k8s:deepcopy-gen=package\n// +k8s:openapi-gen=true\n// +groupName=things.example.com\npackage v1\n", lintFixtureTypes, "known-tags-only"},
		{"versioned types without deepcopy-gen", "// +groupName=things.example.com\npackage v1\n", lintFixtureTypes, "require-explicit-disablement"},
		{"versioned types with deepcopy-gen off", "// +k8s:deepcopy-gen=false\n// +groupName=things.example.com\npackage v1\n", lintFixtureTypes, "require-explicit-disablement"},
		{"not an API package", "package v1\n", lintFixtureTypes, "require-explicit-disablement"},
		{"per-version internals", "// +groupName=things.example.com\n// +k8s:defaulter-gen=TypeMeta\npackage v1\n", internalTypes, "require-explicit-disablement"},
		{"both rules, both broken", "// +k8s:bogus-gen=x\n// +groupName=things.example.com\npackage v1\n", lintFixtureTypes, "require-explicit-disablement,known-tags-only"},
		{"both rules kept", "// +k8s:deepcopy-gen=package\n// +groupName=things.example.com\npackage v1\n", lintFixtureTypes, "known-tags-only,require-explicit-disablement"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			writeModule(t, dir, map[string]string{
				"go.mod":                  "module example.com/m\n\ngo 1.26\n",
				"apis/things/v1/doc.go":   tt.doc,
				"apis/things/v1/types.go": tt.types,
				"clientset/clientset.go":  "package versioned\n\ntype Interface interface{ ThingsV1() any }\n",
			})
			oursCode, oursOut := exitOf(t, dir, gens.ours, "--lint-rules="+tt.rules, "--output-dir", "./out", "--versioned-clientset-package", "./clientset", "./apis/...")
			oursMsg := strings.TrimSpace(strings.TrimPrefix(oursOut, "informer-gen: "))
			upstreamArgs := map[string][]string{
				"informer-gen": {"--output-dir", filepath.Join(dir, "up", "informers"), "--output-pkg", "example.com/m/up/informers", "--versioned-clientset-package", "example.com/m/clientset", "--listers-package", "example.com/m/up/listers"},
				"lister-gen":   {"--output-dir", filepath.Join(dir, "up", "listers"), "--output-pkg", "example.com/m/up/listers"},
			}
			for cmd, args := range upstreamArgs {
				code, out := exitOf(t, dir, gens.upstream[cmd], append(args, "--lint-rules="+tt.rules, "./apis/...")...)
				upMsg := strings.TrimSpace(klogFatal.ReplaceAllString(out, ""))
				if (code == 0) != (oursCode == 0) {
					t.Errorf("upstream %s: exit %d, ours %d\nupstream:\n%s\nours:\n%s", cmd, code, oursCode, out, oursOut)
					continue
				}
				if code != 0 && upMsg != oursMsg {
					t.Errorf("upstream %s's message:\n%s\nours:\n%s", cmd, upMsg, oursMsg)
				}
			}
		})
	}
}
