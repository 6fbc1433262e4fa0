package generators

// interfacesFile is the data of factory_interfaces.go.tmpl: the
// internalinterfaces package, through which informers reach the factory.
type interfacesFile struct {
	fileHeader
	ClientsetPkg string
}

// interfacesFile plans internalinterfaces/factory_interfaces.go when the
// model has informers.
func (p *planner) interfacesFile() {
	if len(p.m.InformerGroups()) == 0 {
		return
	}
	p.add("factory_interfaces.go.tmpl", interfacesFile{
		fileHeader:   p.fileHeader("internalinterfaces"),
		ClientsetPkg: p.clientsetPkg,
	}, p.out.informersDir, "internalinterfaces", "factory_interfaces.go")
}
