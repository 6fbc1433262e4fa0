package generators

// versionFile is the data of version_interface.go.tmpl: a version's
// accessor package, with an accessor per informer.
type versionFile struct {
	fileHeader
	InternalInterfacesPkg string
	Kinds                 []*kind // the kinds with informers
}

// versionFiles plans GROUP/VERSION/interface.go for every version with
// informers.
func (p *planner) versionFiles() {
	for _, v := range p.m.InformerVersions() {
		p.add("version_interface.go.tmpl", versionFile{
			fileHeader:            p.fileHeader(v.PackageName),
			InternalInterfacesPkg: p.internalInterfacesPkg(),
			Kinds:                 v.InformerKinds(),
		}, p.out.informersDir, v.Group.PackageName, v.PackageName, "interface.go")
	}
}
