package generators

// factoryFile is the data of factory.go.tmpl: the shared informer factory,
// with an accessor per group that has informers.
type factoryFile struct {
	fileHeader
	ClientsetPkg          string
	InternalInterfacesPkg string
	Groups                []*group // the groups with informers
}

// factoryFile plans factory.go when the model has informers.
func (p *planner) factoryFile() {
	groups := p.m.InformerGroups()
	if len(groups) == 0 {
		return
	}
	p.add("factory.go.tmpl", factoryFile{
		fileHeader:            p.fileHeader(p.informersPackage()),
		ClientsetPkg:          p.clientsetPkg,
		InternalInterfacesPkg: p.internalInterfacesPkg(),
		Groups:                groups,
	}, p.out.informersDir, "factory.go")
}
