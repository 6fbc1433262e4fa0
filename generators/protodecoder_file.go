package generators

// protoDecoderFile is the data of protodecoder.go.tmpl: the protobuf
// decoders of one group version's types (package runtime/protodecode),
// registered from the informers package's init.
type protoDecoderFile struct {
	fileHeader
	Imports []importSpec
	// Registrations are the init statements: protodecode.Register of
	// every type with a decoder.
	Registrations []string
	// Funcs are the decoders, Go source, sorted by name.
	Funcs []string
}

// protoDecoderFileName is the protobuf decoders' file in a version's
// informers folder; no kind's informer file can have this name.
const protoDecoderFileName = "zz_generated.protodecoders.go"

// protoDecoderFiles plans GROUP/VERSION/zz_generated.protodecoders.go in
// the informers folder for every version with an informer of a protobuf
// kind (kind.Protobuf), with Options.ProtoDecoders: the decoders of those
// kinds and every struct they hold.
func (p *planner) protoDecoderFiles() {
	if !p.protoDecoders {
		return
	}
	for _, v := range p.m.InformerVersions() {
		if v.source == nil {
			continue
		}
		w := newProtoWriter(v.source, v.APIAlias)
		var roots []string
		for _, k := range v.InformerKinds() {
			roots = append(roots, k.Name)
		}
		walks := newWalkWriter(v.source, v.APIAlias)
		newCompactionFile(walks, roots, p.fileHeader(v.PackageName))
		w.walks = walks.funcs
		for _, k := range v.InformerKinds() {
			if p.protoDecoded(v, k) {
				w.roots = append(w.roots, k.Name)
				w.named(k.Name)
				w.drain()
			}
		}
		if len(w.written) == 0 {
			continue
		}
		regs := append(w.registrations(), w.compactRegistrations()...)
		funcs := w.sortedFuncs()
		f := protoDecoderFile{
			fileHeader:    p.fileHeader(v.PackageName),
			Imports:       w.importList(append(funcs, regs...)),
			Registrations: regs,
			Funcs:         funcs,
		}
		p.add("protodecoder.go.tmpl", f, p.out.informersDir, v.Group.PackageName, v.PackageName, protoDecoderFileName)
	}
}

// protoDecoded reports whether k, a kind of v, gets a generated protobuf
// decoder: with Options.ProtoDecoders, for a kind that decodes itself
// from protobuf (kind.Protobuf) with protobuf struct tags, in a version
// whose source the generator read.
func (p *planner) protoDecoded(v *version, k *kind) bool {
	if !p.protoDecoders || !k.Protobuf || v.source == nil {
		return false
	}
	if p.protoTagged == nil {
		p.protoTagged = map[*version]*protoWriter{}
	}
	w, ok := p.protoTagged[v]
	if !ok {
		w = newProtoWriter(v.source, v.APIAlias)
		p.protoTagged[v] = w
	}
	return w.hasProtoTags(k.Name)
}
