package generators

// decoderFile is the data of decoder.go.tmpl: the JSON decoders of one
// group version's types (package runtime/jsondecode), registered from the
// informers package's init.
type decoderFile struct {
	fileHeader
	Imports []importSpec
	// Registrations are the init statements: jsondecode.Register of every
	// type with a decoder of its own.
	Registrations []string
	// Funcs are the decoders, Go source, sorted by name.
	Funcs []string
}

// decoderFileName is the decoders' file in a version's informers folder;
// no kind's informer file can have this name.
const decoderFileName = "zz_generated.decoders.go"

// decoderFiles plans GROUP/VERSION/zz_generated.decoders.go in the
// informers folder for every version with an informer, with
// Options.JSONDecoders: the decoders of its informer kinds, their lists
// (KINDList, when declared) and every type they hold.
func (p *planner) decoderFiles() {
	if !p.jsonDecoders {
		return
	}
	for _, v := range p.m.InformerVersions() {
		if v.source == nil {
			continue
		}
		w := newDecoderWriter(v.source, v.APIAlias)
		var roots []string
		for _, k := range v.InformerKinds() {
			roots = append(roots, k.Name)
		}
		walks := newWalkWriter(v.source, v.APIAlias)
		newCompactionFile(walks, roots, p.fileHeader(v.PackageName))
		w.walks, w.roots = walks.funcs, roots
		for _, k := range v.InformerKinds() {
			w.identFn(k.Name)
			if _, ok := w.decls[k.Name+"List"]; ok {
				w.identFn(k.Name + "List") // a list page
			}
			w.drain()
		}
		regs := w.registrations()
		funcs := w.sortedFuncs()
		f := decoderFile{
			fileHeader:    p.fileHeader(v.PackageName),
			Imports:       w.importList(append(funcs, regs...)),
			Registrations: regs,
			Funcs:         funcs,
		}
		p.add("decoder.go.tmpl", f, p.out.informersDir, v.Group.PackageName, v.PackageName, decoderFileName)
	}
}
