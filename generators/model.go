package generators

import (
	"fmt"
	"strings"
)

// model is what the input packages declare, as the output needs it: the
// API groups, their versions and the types of each version that get an
// informer or a lister. Each kind of output file takes the data its
// template prints from it (see plan.go). Every slice is sorted, so
// rendering is deterministic.
type model struct {
	Groups []*group
	// notes are remarks on skipped input packages, sorted.
	notes []string
}

// group is one API group.
type group struct {
	// Name is the API group ("" for the core group).
	Name string
	// PackageName names the group's informers and listers folders and Go
	// packages.
	PackageName string
	// GoName is the group's accessor name (factory.<GoName>()) and the
	// prefix of the clientset's accessor (<GoName><Version>()).
	GoName string
	// ImportAlias is how factory.go imports the group's informers package.
	ImportAlias  string
	InformersPkg string
	Versions     []*version
}

// NameOrCore returns Name, or "core" for the core group.
func (g *group) NameOrCore() string {
	if g.Name == "" {
		return "core"
	}
	return g.Name
}

// HasInformers reports whether any version of g has an informer.
func (g *group) HasInformers() bool {
	for _, v := range g.Versions {
		if v.HasInformers() {
			return true
		}
	}
	return false
}

// InformerVersions returns the versions of g that have informers.
func (g *group) InformerVersions() []*version {
	var out []*version
	for _, v := range g.Versions {
		if v.HasInformers() {
			out = append(out, v)
		}
	}
	return out
}

// version is one version of a group, read from one API package.
type version struct {
	Group  *group
	Name   string // "v1beta1"
	GoName string // "V1beta1"
	// PackageName names the version's informers and listers packages.
	PackageName string

	APIPackage string // import path of the API types
	APIAlias   string // its import name in generated files

	InformersPkg string
	ImportAlias  string // how the group's interface.go imports InformersPkg
	ListersPkg   string
	ListersAlias string // how informers import ListersPkg

	Kinds []*kind

	// source is the API package, read for the compaction walks of its
	// types (compaction_file.go).
	source *sourcePackage
}

// HasInformers reports whether a kind of v has an informer.
func (v *version) HasInformers() bool {
	for _, k := range v.Kinds {
		if k.Informer {
			return true
		}
	}
	return false
}

// InformerKinds returns the kinds of v that have an informer.
func (v *version) InformerKinds() []*kind {
	return v.kinds(func(k *kind) bool { return k.Informer })
}

// ClusterInformerKinds returns the cluster-scoped kinds of v that have an
// informer.
func (v *version) ClusterInformerKinds() []*kind {
	return v.kinds(func(k *kind) bool { return k.Informer && !k.Namespaced })
}

// kinds returns the kinds of v that keep accepts, in order.
func (v *version) kinds(keep func(*kind) bool) []*kind {
	var out []*kind
	for _, k := range v.Kinds {
		if keep(k) {
			out = append(out, k)
		}
	}
	return out
}

// HasListers reports whether a kind of v has a lister.
func (v *version) HasListers() bool {
	for _, k := range v.Kinds {
		if k.Lister {
			return true
		}
	}
	return false
}

// kind is one API type that gets an informer, a lister or both.
type kind struct {
	Name        string // Go type name, "NetworkPolicy"
	Type        string // as generated files name it, "networkingv1.NetworkPolicy"
	PrivateName string // "networkPolicy"
	Plural      string // "NetworkPolicies": accessors and clientset methods
	Resource    string // "networkpolicies": GVR, ForResource, generic listers' NotFound errors
	// Singular is the lowercase type name ("networkpolicy"), the resource
	// typed listers' NotFound errors name, as lister-gen's do (and
	// whatever +resourceName says).
	Singular   string
	Namespaced bool
	Informer   bool // the type has list and watch
	Lister     bool
	// UserExpansion is true when the user wrote the lister's expansion
	// interfaces in <type>_expansion.go.
	UserExpansion bool
	// Protobuf is true when the type decodes itself from protobuf (it has
	// go-to-protobuf's Unmarshal method): its informer watches through a
	// protowatch.Watcher.
	Protobuf bool
}

// newKind returns the kind of t, or nil when t gets neither an informer nor
// a lister.
func newKind(t *declaredType, ptags packageTags, names resourceNamer) (*kind, error) {
	tags, err := parseTypeTags(t.comments)
	if err != nil {
		return nil, err
	}
	if !tags.genclient {
		return nil, nil
	}
	// An informer needs its lister (Informer().Lister()), so
	// +k8s:lister-gen=false drops the informers of the package too. Like
	// lister-gen, every other +genclient type gets a lister, whatever its
	// verbs (client-go has listers for Eviction and ImageReview), so code
	// naming those listers compiles; a type without object metadata gets
	// one only when it can be listed, where that is an error.
	informer := tags.verbs["list"] && tags.verbs["watch"] && ptags.informers && ptags.listers
	lister := ptags.listers
	if !informer && !lister {
		return nil, nil
	}
	if !t.objectMeta {
		if !tags.verbs["list"] {
			return nil, nil
		}
		through := ""
		if len(t.refs) > 0 {
			names := make([]string, len(t.refs))
			for i, r := range t.refs {
				names[i] = r.String()
			}
			through = ", nor through " + strings.Join(names, ", ")
		}
		return nil, fmt.Errorf("+genclient type has no ObjectMeta field%s; informers and listers need object metadata (embed metav1.ObjectMeta)", through)
	}
	return &kind{
		Name:        t.name,
		PrivateName: lowerFirst(t.name),
		Plural:      names.plural(t.name),
		Resource:    names.resource(t.name, tags.resourceName),
		Singular:    strings.ToLower(t.name),
		Namespaced:  !tags.nonNamespaced,
		Informer:    informer,
		Lister:      lister,
	}, nil
}

// InformerGroups returns the groups that have at least one informer, the
// ones the factory has an accessor for.
func (m *model) InformerGroups() []*group {
	var out []*group
	for _, g := range m.Groups {
		if g.HasInformers() {
			out = append(out, g)
		}
	}
	return out
}

// InformerVersions returns the versions of every group that have
// informers, in the order of Groups.
func (m *model) InformerVersions() []*version {
	var out []*version
	for _, g := range m.Groups {
		out = append(out, g.InformerVersions()...)
	}
	return out
}
