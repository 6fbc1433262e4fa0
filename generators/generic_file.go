package generators

// genericFile is the data of generic.go.tmpl: GenericInformer and the
// factory's ForResource, with a case per informer.
type genericFile struct {
	fileHeader
	Versions []*version // the versions with informers
}

// genericFile plans generic.go when the model has informers.
func (p *planner) genericFile() {
	versions := p.m.InformerVersions()
	if len(versions) == 0 {
		return
	}
	p.add("generic.go.tmpl", genericFile{
		fileHeader: p.fileHeader(p.informersPackage()),
		Versions:   versions,
	}, p.out.informersDir, "generic.go")
}
