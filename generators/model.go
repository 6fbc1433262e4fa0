package generators

import (
	"errors"
	"fmt"
	"path"
	"sort"
	"strings"

	"k8s.io/gengo/v2/namer"
)

// model is everything the templates render: the API groups, their versions
// and the types of each version that get an informer or a lister. Every
// slice is sorted, so rendering is deterministic.
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

// HasClusterInformers reports whether a cluster-scoped kind of v has an
// informer.
func (v *version) HasClusterInformers() bool {
	for _, k := range v.Kinds {
		if k.Informer && !k.Namespaced {
			return true
		}
	}
	return false
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
}

// reservedAliases are import names the templates use for fixed packages.
var reservedAliases = map[string]bool{
	"context": true, "time": true, "reflect": true, "fmt": true,
	"metav1": true, "runtime": true, "schema": true, "watch": true, "labels": true, "wait": true,
	"cache": true, "factory": true, "lister": true, "internalinterfaces": true, "versioned": true,
	"metadata": true, "metadataclient": true,
}

func safeAlias(alias, suffix string) string {
	if reservedAliases[alias] {
		return alias + suffix
	}
	return alias
}

// buildModel reads the declarations of every input package into a model.
// All problems found are returned together, sorted.
func buildModel(decls []*declarations, names resourceNamer, out layout, fileExists func(string) bool) (*model, error) {
	var errs []error
	var notes, skipped []string
	groups := map[string]*group{} // by PackageName
	groupSource := map[string]string{}
	versionSource := map[string]string{} // group/version -> package

	for _, d := range decls {
		p := d.pkg
		ptags, err := parsePackageTags(d)
		if err != nil {
			errs = append(errs, fmt.Errorf("package %s: %w", p.Path, err))
			continue
		}
		var kinds []*kind
		internal := true // until a kind's ObjectMeta has a json tag
		for _, t := range d.types {
			k, err := newKind(t, ptags, names)
			if err != nil {
				errs = append(errs, fmt.Errorf("package %s: type %s (%s): %w", p.Path, t.name, t.position, err))
				continue
			}
			if k != nil {
				kinds = append(kinds, k)
				internal = internal && !t.objectMetaJSON
			}
		}
		if len(kinds) == 0 {
			continue
		}
		if internal {
			// As upstream informer-gen: ObjectMeta without a json tag marks
			// internal types (k8s.io/metrics/pkg/apis/metrics next to its
			// v1beta1), which no versioned clientset serves.
			notes = append(notes, fmt.Sprintf("skipped %s: internal (unversioned) API types (their ObjectMeta has no json tag); informer-gen generates versioned packages only", p.Path))
			skipped = append(skipped, p.Path)
			continue
		}
		var missing []string
		if !d.schemeGroupVersion {
			missing = append(missing, "var SchemeGroupVersion")
		}
		if !d.resource {
			missing = append(missing, "func Resource(resource string) schema.GroupResource")
		}
		if len(missing) > 0 {
			errs = append(errs, fmt.Errorf("package %s: declares +genclient types but no %s; generated listers and ForResource refer to them (add them to register.go)", p.Path, strings.Join(missing, " and no ")))
			continue
		}

		groupDir := path.Base(path.Dir(p.Path))
		groupName := groupDir
		if ptags.groupName != nil {
			groupName = *ptags.groupName
		}
		pkgName := goPackageName(groupDir)
		if ptags.groupName != nil && (groupDir == "api" || groupDir == "apis" || path.Dir(p.Path) == ".") {
			// kubebuilder's single-group layout (api/v1): the folder says
			// nothing about the group, +groupName does.
			label, _, _ := strings.Cut(groupName, ".")
			if label == "" {
				label = "core"
			}
			pkgName = goPackageName(label)
		}
		goName := groupGoName(groupName)
		if ptags.groupGoName != "" {
			goName = namer.IC(ptags.groupGoName)
		}

		g, ok := groups[pkgName]
		switch {
		case !ok:
			g = &group{
				Name:         groupName,
				PackageName:  pkgName,
				GoName:       goName,
				ImportAlias:  safeAlias(pkgName, "informers"),
				InformersPkg: path.Join(out.informersPkg, pkgName),
			}
			groups[pkgName] = g
			groupSource[pkgName] = p.Path
		case g.Name != groupName:
			errs = append(errs, fmt.Errorf("packages %s (group %q) and %s (group %q) both map to Go package %q; rename a folder or set +groupName consistently", groupSource[pkgName], g.Name, p.Path, groupName, pkgName))
			continue
		case g.GoName != goName:
			errs = append(errs, fmt.Errorf("packages %s and %s of group %q disagree on +groupGoName (%q, %q)", groupSource[pkgName], p.Path, groupName, g.GoName, goName))
			continue
		}

		vName := path.Base(p.Path)
		vPkg := goPackageName(vName)
		key := pkgName + "/" + vPkg
		if prev, ok := versionSource[key]; ok {
			errs = append(errs, fmt.Errorf("packages %s and %s both provide group %q version %q", prev, p.Path, g.NameOrCore(), vName))
			continue
		}
		versionSource[key] = p.Path
		v := &version{
			Group:        g,
			Name:         vName,
			GoName:       namer.IC(vPkg),
			PackageName:  vPkg,
			APIPackage:   p.Path,
			APIAlias:     safeAlias(pkgName+vPkg, "api"),
			InformersPkg: path.Join(g.InformersPkg, vPkg),
			ImportAlias:  safeAlias(vPkg, "informers"),
			ListersPkg:   path.Join(out.listersPkg, pkgName, vPkg),
			ListersAlias: pkgName + vPkg + "listers",
			Kinds:        kinds,
		}
		for _, k := range kinds {
			if k.Lister {
				k.UserExpansion = fileExists(path.Join(out.listersDir, pkgName, vPkg, strings.ToLower(k.Name)+"_expansion.go"))
			}
		}
		g.Versions = append(g.Versions, v)
	}

	sort.Strings(notes)
	m := &model{notes: notes}
	goNames := map[string]string{}
	for _, g := range groups {
		if prev, ok := goNames[g.GoName]; ok {
			a, b := min(prev, g.NameOrCore()), max(prev, g.NameOrCore())
			errs = append(errs, fmt.Errorf("groups %q and %q have the same Go name %q; set +groupGoName on one", a, b, g.GoName))
		}
		goNames[g.GoName] = g.NameOrCore()
		sort.Slice(g.Versions, func(i, j int) bool { return g.Versions[i].Name < g.Versions[j].Name })
		m.Groups = append(m.Groups, g)
	}
	sort.Slice(m.Groups, func(i, j int) bool { return m.Groups[i].PackageName < m.Groups[j].PackageName })

	if len(errs) > 0 {
		sort.Slice(errs, func(i, j int) bool { return errs[i].Error() < errs[j].Error() })
		return nil, errors.Join(errs...)
	}
	if len(m.Groups) == 0 {
		var paths []string
		for _, d := range decls {
			paths = append(paths, d.pkg.Path)
		}
		if len(skipped) > 0 {
			return nil, fmt.Errorf("only internal (unversioned) API packages found (%s): their ObjectMeta has no json tag, and informer-gen generates versioned packages only; pass the version packages (e.g. %s/v1)", strings.Join(skipped, ", "), skipped[0])
		}
		return nil, fmt.Errorf("no +genclient type with the list verb found in %s; nothing to generate", strings.Join(paths, ", "))
	}
	return m, nil
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
