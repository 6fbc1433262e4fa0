package generators

// groupFile is the data of group_interface.go.tmpl: a group's accessor
// package, with an accessor per version that has informers.
type groupFile struct {
	fileHeader
	InternalInterfacesPkg string
	Versions              []*version // the versions with informers
}

// groupFiles plans GROUP/interface.go for every group with informers.
func (p *planner) groupFiles() {
	for _, g := range p.m.InformerGroups() {
		p.add("group_interface.go.tmpl", groupFile{
			fileHeader:            p.fileHeader(g.PackageName),
			InternalInterfacesPkg: p.internalInterfacesPkg(),
			Versions:              g.InformerVersions(),
		}, p.out.informersDir, g.PackageName, "interface.go")
	}
}
