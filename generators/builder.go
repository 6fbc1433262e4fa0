package generators

import (
	"errors"
	"fmt"
	"path"
	"sort"
	"strings"

	"k8s.io/gengo/v2/namer"

	"github.com/informer-gen/informer-gen/templates"
)

// modelBuilder collects the groups and versions of the input packages,
// and every problem found on the way. It is used by one goroutine.
type modelBuilder struct {
	names      resourceNamer
	out        layout
	fileExists func(string) bool
	// reserved are the import names the templates give fixed packages.
	reserved map[string]bool

	groups        map[string]*group // by PackageName
	groupSource   map[string]string // PackageName -> first package
	versionSource map[string]string // group/version -> package
	errs          []error
	notes         []string
	skipped       []string // internal packages
}

// buildModel reads the declarations of every input package into a model.
// All problems found are returned together, sorted.
func buildModel(decls []*declarations, names resourceNamer, out layout, fileExists func(string) bool) (*model, error) {
	reserved, err := fixedImportNames(templates.Source())
	if err != nil {
		return nil, fmt.Errorf("templates: %w", err)
	}
	b := &modelBuilder{
		names: names, out: out, fileExists: fileExists, reserved: reserved,
		groups: map[string]*group{}, groupSource: map[string]string{}, versionSource: map[string]string{},
	}
	for _, d := range decls {
		b.addPackage(d)
	}
	m := b.model()
	if len(b.errs) > 0 {
		sort.Slice(b.errs, func(i, j int) bool { return b.errs[i].Error() < b.errs[j].Error() })
		return nil, errors.Join(b.errs...)
	}
	if len(m.Groups) == 0 {
		return nil, b.nothingFound(decls)
	}
	return m, nil
}

// addPackage adds the version package d declares, if it has kinds.
func (b *modelBuilder) addPackage(d *declarations) {
	p := d.pkg
	ptags, err := parsePackageTags(d)
	if err != nil {
		b.errs = append(b.errs, fmt.Errorf("package %s: %w", p.Path, err))
		return
	}
	kinds, internal := b.kinds(d, ptags)
	switch {
	case len(kinds) == 0:
		return
	case internal:
		// As upstream informer-gen: ObjectMeta without a json tag marks
		// internal types (k8s.io/metrics/pkg/apis/metrics next to its
		// v1beta1), which no versioned clientset serves.
		b.notes = append(b.notes, fmt.Sprintf("skipped %s: internal (unversioned) API types (their ObjectMeta has no json tag); informer-gen generates versioned packages only", p.Path))
		b.skipped = append(b.skipped, p.Path)
		return
	}
	if err := checkRegistration(d); err != nil {
		b.errs = append(b.errs, err)
		return
	}
	g := b.group(p.Path, ptags)
	if g == nil {
		return
	}
	b.addVersion(g, p, kinds)
}

// kinds returns the kinds of d's types, and whether the package is
// internal: no kind's ObjectMeta has a json tag.
func (b *modelBuilder) kinds(d *declarations, ptags packageTags) (kinds []*kind, internal bool) {
	internal = true
	unmarshalers := map[string]bool{}
	for _, f := range d.pkg.Files {
		for _, name := range f.Unmarshalers {
			unmarshalers[name] = true
		}
	}
	for _, t := range d.types {
		k, err := newKind(t, ptags, b.names)
		if err != nil {
			b.errs = append(b.errs, fmt.Errorf("package %s: type %s (%s): %w", d.pkg.Path, t.name, t.position, err))
			continue
		}
		if k != nil {
			k.Protobuf = unmarshalers[t.name]
			kinds = append(kinds, k)
			internal = internal && !t.objectMetaJSON
		}
	}
	return kinds, internal
}

// checkRegistration requires the declarations generated code refers to.
func checkRegistration(d *declarations) error {
	var missing []string
	if !d.schemeGroupVersion {
		missing = append(missing, "var SchemeGroupVersion")
	}
	if !d.resource {
		missing = append(missing, "func Resource(resource string) schema.GroupResource")
	}
	if len(missing) == 0 {
		return nil
	}
	return fmt.Errorf("package %s: declares +genclient types but no %s; generated listers and ForResource refer to them (add them to register.go)", d.pkg.Path, strings.Join(missing, " and no "))
}

// group returns the group of the version package pkgPath, adding it when
// new; nil (with an error recorded) when it conflicts with an earlier
// package's.
func (b *modelBuilder) group(pkgPath string, ptags packageTags) *group {
	name, pkgName, goName := groupNames(pkgPath, ptags)
	g, ok := b.groups[pkgName]
	switch {
	case !ok:
		g = &group{
			Name:         name,
			PackageName:  pkgName,
			GoName:       goName,
			ImportAlias:  b.alias(pkgName, "informers"),
			InformersPkg: path.Join(b.out.informersPkg, pkgName),
		}
		b.groups[pkgName] = g
		b.groupSource[pkgName] = pkgPath
	case g.Name != name:
		b.errs = append(b.errs, fmt.Errorf("packages %s (group %q) and %s (group %q) both map to Go package %q; rename a folder or set +groupName consistently", b.groupSource[pkgName], g.Name, pkgPath, name, pkgName))
		return nil
	case g.GoName != goName:
		b.errs = append(b.errs, fmt.Errorf("packages %s and %s of group %q disagree on +groupGoName (%q, %q)", b.groupSource[pkgName], pkgPath, name, g.GoName, goName))
		return nil
	}
	return g
}

// groupNames returns the API group of the version package pkgPath, the Go
// package name of its informers and listers, and its Go name.
func groupNames(pkgPath string, ptags packageTags) (name, pkgName, goName string) {
	groupDir := path.Base(path.Dir(pkgPath))
	name = groupDir
	if ptags.groupName != nil {
		name = *ptags.groupName
	}
	pkgName = goPackageName(groupDir)
	if ptags.groupName != nil && (groupDir == "api" || groupDir == "apis" || path.Dir(pkgPath) == ".") {
		// kubebuilder's single-group layout (api/v1): the folder says
		// nothing about the group, +groupName does.
		label, _, _ := strings.Cut(name, ".")
		if label == "" {
			label = "core"
		}
		pkgName = goPackageName(label)
	}
	goName = groupGoName(name)
	if ptags.groupGoName != "" {
		goName = namer.IC(ptags.groupGoName)
	}
	return name, pkgName, goName
}

// addVersion adds the version package src with kinds to g, unless
// another package provides the same version.
func (b *modelBuilder) addVersion(g *group, src *sourcePackage, kinds []*kind) {
	pkgPath := src.Path
	vName := path.Base(pkgPath)
	vPkg := goPackageName(vName)
	key := g.PackageName + "/" + vPkg
	if prev, ok := b.versionSource[key]; ok {
		b.errs = append(b.errs, fmt.Errorf("packages %s and %s both provide group %q version %q", prev, pkgPath, g.NameOrCore(), vName))
		return
	}
	b.versionSource[key] = pkgPath
	v := &version{
		Group:        g,
		Name:         vName,
		GoName:       namer.IC(vPkg),
		PackageName:  vPkg,
		APIPackage:   pkgPath,
		APIAlias:     b.alias(g.PackageName+vPkg, "api"),
		InformersPkg: path.Join(g.InformersPkg, vPkg),
		ImportAlias:  b.alias(vPkg, "informers"),
		ListersPkg:   path.Join(b.out.listersPkg, g.PackageName, vPkg),
		ListersAlias: g.PackageName + vPkg + "listers",
		Kinds:        kinds,
		source:       src,
	}
	for _, k := range kinds {
		k.Type = v.APIAlias + "." + k.Name
		if k.Lister && b.out.listersDir != "" {
			k.UserExpansion = b.fileExists(path.Join(b.out.listersDir, g.PackageName, vPkg, strings.ToLower(k.Name)+"_expansion.go"))
		}
	}
	g.Versions = append(g.Versions, v)
}

// model returns the model of the groups added, sorted, recording groups
// whose Go names collide.
func (b *modelBuilder) model() *model {
	sort.Strings(b.notes)
	m := &model{notes: b.notes}
	goNames := map[string]string{}
	for _, g := range b.groups {
		if prev, ok := goNames[g.GoName]; ok {
			first, second := min(prev, g.NameOrCore()), max(prev, g.NameOrCore())
			b.errs = append(b.errs, fmt.Errorf("groups %q and %q have the same Go name %q; set +groupGoName on one", first, second, g.GoName))
		}
		goNames[g.GoName] = g.NameOrCore()
		sort.Slice(g.Versions, func(i, j int) bool { return g.Versions[i].Name < g.Versions[j].Name })
		m.Groups = append(m.Groups, g)
	}
	sort.Slice(m.Groups, func(i, j int) bool { return m.Groups[i].PackageName < m.Groups[j].PackageName })
	return m
}

// nothingFound explains why decls gave no group.
func (b *modelBuilder) nothingFound(decls []*declarations) error {
	if len(b.skipped) > 0 {
		return fmt.Errorf("only internal (unversioned) API packages found (%s): their ObjectMeta has no json tag, and informer-gen generates versioned packages only; pass the version packages (e.g. %s/v1)", strings.Join(b.skipped, ", "), b.skipped[0])
	}
	var paths []string
	for _, d := range decls {
		paths = append(paths, d.pkg.Path)
	}
	return fmt.Errorf("no +genclient type with the list verb found in %s; nothing to generate", strings.Join(paths, ", "))
}
