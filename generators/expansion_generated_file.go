package generators

// expansionFile is the data of expansion_generated.go.tmpl: the expansion
// interfaces of a listers package that the user did not write.
type expansionFile struct {
	fileHeader
	Expansions []expansion
}

// expansion is one lister expansion interface.
type expansion struct {
	Name   string // "WidgetListerExpansion"
	Lister string // the lister it extends, "WidgetLister"
}

// expansionFiles plans GROUP/VERSION/expansion_generated.go in the listers
// folder for every version with listers.
func (p *planner) expansionFiles() {
	for _, g := range p.m.Groups {
		for _, v := range g.Versions {
			if !v.HasListers() {
				continue
			}
			p.add("expansion_generated.go.tmpl", expansionFile{
				fileHeader: p.fileHeader(v.PackageName),
				Expansions: expansions(v),
			}, p.out.listersDir, g.PackageName, v.PackageName, "expansion_generated.go")
		}
	}
}

// expansions returns the expansion interfaces of v's listers, except those
// the user wrote in <type>_expansion.go: one per lister, and one per
// namespace lister.
func expansions(v *version) []expansion {
	var out []expansion
	for _, k := range v.Kinds {
		if !k.Lister || k.UserExpansion {
			continue
		}
		out = append(out, expansion{k.Name + "ListerExpansion", k.Name + "Lister"})
		if k.Namespaced {
			out = append(out, expansion{k.Name + "NamespaceListerExpansion", k.Name + "NamespaceLister"})
		}
	}
	return out
}
