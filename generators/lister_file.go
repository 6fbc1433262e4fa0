package generators

// listerFile is the data of lister.go.tmpl: the lister of one kind.
type listerFile struct {
	fileHeader
	Version *version
	*kind
}

// listerFiles plans GROUP/VERSION/KIND.go in the listers folder for every
// kind with a lister.
func (p *planner) listerFiles() {
	for _, g := range p.m.Groups {
		for _, v := range g.Versions {
			for _, k := range v.Kinds {
				if !k.Lister {
					continue
				}
				p.add("lister.go.tmpl", listerFile{fileHeader: p.fileHeader(v.PackageName), Version: v, kind: k},
					p.out.listersDir, g.PackageName, v.PackageName, fileName(k))
			}
		}
	}
}
