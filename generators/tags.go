package generators

import (
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"

	"k8s.io/gengo/v2"
)

// typeTags are the +genclient tags of one type, as client-gen reads them,
// plus +resourceName.
type typeTags struct {
	genclient     bool
	nonNamespaced bool
	verbs         map[string]bool // the client verbs the type has
	resourceName  string          // +resourceName, "" when absent
}

// supportedVerbs are the verbs +genclient:onlyVerbs and skipVerbs accept.
var supportedVerbs = []string{
	"create", "update", "updateStatus", "delete", "deleteCollection",
	"get", "list", "watch", "patch", "apply", "applyStatus",
}

// knownTypeTags are the genclient tags client-gen accepts; any other
// genclient tag is an error, as in client-gen.
var knownTypeTags = map[string]bool{
	"genclient": true, "genclient:nonNamespaced": true, "genclient:noVerbs": true,
	"genclient:onlyVerbs": true, "genclient:skipVerbs": true, "genclient:noStatus": true,
	"genclient:readonly": true, "genclient:method": true,
}

var (
	resourceNameRE = regexp.MustCompile(`^[a-z0-9]([-a-z0-9]*[a-z0-9])?$`)
	groupNameRE    = regexp.MustCompile(`^([a-z0-9]([-a-z0-9]*[a-z0-9])?)(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$`)
)

// parseTypeTags reads the tags of t. Unknown genclient tags and malformed
// values are errors.
func parseTypeTags(lines []string) (typeTags, error) {
	//lint:ignore SA1019 codetags.Parse rejects the comma-separated values client-gen's tags use (+genclient:onlyVerbs=create,get; +genclient:method=F,verb=get,...).
	values := gengo.ExtractCommentTags("+", lines)
	var tags typeTags
	if err := checkGenclientTags(values); err != nil {
		return tags, err
	}
	if v, ok := values["genclient"]; ok {
		if v[0] != "" {
			return tags, fmt.Errorf("malformed tag +genclient=%s: write +genclient to generate, omit it not to", v[0])
		}
		tags.genclient = true
	}
	if v, ok := values["resourceName"]; ok {
		if !resourceNameRE.MatchString(v[0]) {
			return tags, fmt.Errorf("malformed tag +resourceName=%s: want a lowercase resource name such as \"widgets\"", v[0])
		}
		tags.resourceName = v[0]
	}
	if !tags.genclient {
		return tags, nil
	}
	for _, k := range []string{"genclient:nonNamespaced", "genclient:noVerbs", "genclient:readonly", "genclient:noStatus"} {
		if v, ok := values[k]; ok && v[0] != "" {
			return tags, fmt.Errorf("malformed tag +%s=%s: it takes no value", k, v[0])
		}
	}
	_, tags.nonNamespaced = values["genclient:nonNamespaced"]
	var err error
	tags.verbs, err = clientVerbs(values)
	return tags, err
}

// checkGenclientTags refuses the genclient tags client-gen does not know,
// in the order of their names.
func checkGenclientTags(values map[string][]string) error {
	keys := make([]string, 0, len(values))
	for k := range values {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if (k == "genclient" || strings.HasPrefix(k, "genclient:")) && !knownTypeTags[k] {
			return fmt.Errorf("unknown tag +%s (known: +genclient, +genclient:nonNamespaced, noVerbs, onlyVerbs=, skipVerbs=, noStatus, readonly, method=)", k)
		}
	}
	return nil
}

// clientVerbs returns the verbs of a +genclient type's client, as
// client-gen derives them from noVerbs, onlyVerbs, readonly and skipVerbs.
func clientVerbs(values map[string][]string) (map[string]bool, error) {
	verbs := map[string]bool{}
	if _, ok := values["genclient:noVerbs"]; ok {
		return verbs, nil
	}
	only, err := verbList(values, "genclient:onlyVerbs")
	if err != nil {
		return verbs, err
	}
	if _, ok := values["genclient:readonly"]; ok {
		only = append(only, "get", "list", "watch")
	}
	skip, err := verbList(values, "genclient:skipVerbs")
	if err != nil {
		return verbs, err
	}
	for _, v := range supportedVerbs {
		if only != nil && !slices.Contains(only, v) {
			continue
		}
		if slices.Contains(skip, v) {
			if only != nil {
				return verbs, fmt.Errorf("verb %q used both in +genclient:skipVerbs and +genclient:onlyVerbs or readonly", v)
			}
			continue
		}
		verbs[v] = true
	}
	return verbs, nil
}

// verbList reads a comma-separated verb list tag; nil when absent.
func verbList(values map[string][]string, key string) ([]string, error) {
	v, ok := values[key]
	if !ok {
		return nil, nil
	}
	if v[0] == "" {
		return nil, fmt.Errorf("malformed tag +%s: want +%s=verb,verb", key, key)
	}
	verbs := strings.Split(v[0], ",")
	for _, verb := range verbs {
		if !slices.Contains(supportedVerbs, verb) {
			return nil, fmt.Errorf("malformed tag +%s=%s: unknown verb %q (known: %s)", key, v[0], verb, strings.Join(supportedVerbs, ", "))
		}
	}
	return verbs, nil
}

// packageTags are the package-level tags the generator reads.
type packageTags struct {
	groupName   *string // +groupName, nil when absent ("" is the core group)
	groupGoName string  // +groupGoName
	informers   bool    // false with +k8s:informer-gen=false
	listers     bool    // false with +k8s:lister-gen=false
}

// parsePackageTags reads the package tags of d from the comments above the
// package clause of every file. A tag given twice with different values is
// an error naming both files.
func parsePackageTags(d *declarations) (packageTags, error) {
	tags := packageTags{informers: true, listers: true}
	seenValue := map[string]string{}
	seenWhere := map[string]string{}
	for _, fc := range d.packageComments {
		//lint:ignore SA1019 one parser for type and package tags; see parseTypeTags.
		values := gengo.ExtractCommentTags("+", fc.lines)
		for _, key := range []string{"groupName", "groupGoName", "k8s:informer-gen", "k8s:lister-gen"} {
			vs, ok := values[key]
			if !ok {
				continue
			}
			for _, v := range vs {
				where := fc.file + ": +" + key + "=" + v
				if prev, ok := seenValue[key]; ok && prev != v {
					return tags, fmt.Errorf("conflicting package tags (%s) and (%s)", seenWhere[key], where)
				}
				seenValue[key], seenWhere[key] = v, where
				if err := tags.set(key, v); err != nil {
					return tags, fmt.Errorf("%s: %w", fc.file, err)
				}
			}
		}
	}
	return tags, nil
}

func (t *packageTags) set(key, value string) error {
	switch key {
	case "groupName":
		if value != "" && !groupNameRE.MatchString(value) {
			return fmt.Errorf("malformed tag +groupName=%s: want a lowercase DNS name such as \"stable.example.com\" (empty for the core group)", value)
		}
		t.groupName = &value
	case "groupGoName":
		if !isGoIdentifier(value) {
			return fmt.Errorf("malformed tag +groupGoName=%s: want a Go identifier", value)
		}
		t.groupGoName = value
	case "k8s:informer-gen", "k8s:lister-gen":
		var on bool
		switch value {
		case "true", "":
			on = true
		case "false":
		default:
			return fmt.Errorf("malformed tag +%s=%s: want true or false", key, value)
		}
		if key == "k8s:informer-gen" {
			t.informers = on
		} else {
			t.listers = on
		}
	}
	return nil
}
