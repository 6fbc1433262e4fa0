package generators

import (
	"go/token"
	"strings"
	"unicode"

	"k8s.io/gengo/v2/namer"
	"k8s.io/gengo/v2/types"
)

// resourceNamer is the one source of a type's names: the plural used for
// accessors and clientset methods, and the resource name used in the
// informer's GroupVersionResource, ForResource and the lister's NotFound
// errors. Both come from gengo's plural namers with the same exceptions;
// +resourceName overrides the resource only, as client-gen does.
type resourceNamer struct {
	public    namer.Namer
	lowercase namer.Namer
}

func newResourceNamer(exceptions map[string]string) resourceNamer {
	return resourceNamer{
		public:    namer.NewPublicPluralNamer(exceptions),
		lowercase: namer.NewAllLowercasePluralNamer(exceptions),
	}
}

// plural returns the public plural of a type name ("NetworkPolicies").
func (n resourceNamer) plural(typeName string) string {
	return n.public.Name(&types.Type{Name: types.Name{Name: typeName}})
}

// resource returns the resource name of a type ("networkpolicies"), or
// override when set.
func (n resourceNamer) resource(typeName, override string) string {
	if override != "" {
		return override
	}
	return n.lowercase.Name(&types.Type{Name: types.Name{Name: typeName}})
}

// goPackageName turns a directory or group label ("batch-jobs", "v1") into
// a valid Go package name: lowercase letters and digits only, not starting
// with a digit, not a keyword.
func goPackageName(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if r < unicode.MaxASCII && (unicode.IsLetter(r) || unicode.IsDigit(r)) {
			b.WriteRune(r)
		}
	}
	out := b.String()
	if out == "" || unicode.IsDigit(rune(out[0])) || token.IsKeyword(out) {
		out = "group" + out
	}
	return out
}

// groupGoName is the Go name of a group's accessors: its first DNS label in
// CamelCase, hyphens and underscores starting a new word ("batch-jobs" ->
// "BatchJobs"); "Core" for the core group.
func groupGoName(group string) string {
	label, _, _ := strings.Cut(group, ".")
	if label == "" {
		label = "core"
	}
	var b strings.Builder
	for _, part := range strings.FieldsFunc(label, func(r rune) bool { return r == '-' || r == '_' }) {
		b.WriteString(namer.IC(part))
	}
	if out := b.String(); isGoIdentifier(out) {
		return out
	}
	return "Group" + b.String()
}

// lowerFirst returns s with its first letter in lower case, the private
// name gengo's private namer gives a type.
func lowerFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToLower(s[:1]) + s[1:]
}

func isGoIdentifier(s string) bool {
	return token.IsIdentifier(s)
}
