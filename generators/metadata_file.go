package generators

// metadataFile is the data of metadata.go.tmpl: the factory's
// metadata-only informers, which need to know the cluster-scoped
// resources.
type metadataFile struct {
	fileHeader
	Versions []*version // the versions with cluster-scoped informers
}

// metadataFile plans metadata.go when the model has informers.
func (p *planner) metadataFile() {
	if len(p.m.InformerGroups()) == 0 {
		return
	}
	var versions []*version
	for _, v := range p.m.InformerVersions() {
		if len(v.ClusterInformerKinds()) > 0 {
			versions = append(versions, v)
		}
	}
	p.add("metadata.go.tmpl", metadataFile{
		fileHeader: p.fileHeader(p.informersPackage()),
		Versions:   versions,
	}, p.out.informersDir, "metadata.go")
}
