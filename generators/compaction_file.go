package generators

// compactionFile is the data of compaction.go.tmpl: the compaction walks
// of one group version's types (package runtime/compact), registered from
// the informers package's init so that its informers' caches intern and
// share what they hold without reflection.
type compactionFile struct {
	fileHeader
	Imports []importSpec
	// Registrations are the init statements: compact.Register and
	// compact.RegisterUpdate of each informer kind, compact.RegisterWalk of
	// every type walked.
	Registrations []string
	// Funcs are the walk and equality functions, Go source, sorted by name.
	Funcs []string
}

// importSpec is one import of a generated file.
type importSpec struct {
	Alias, Path string
}

// compactionFileName is the walks' file in a version's informers folder;
// no kind's informer file can have this name.
const compactionFileName = "zz_generated.compaction.go"

// compactionFiles plans GROUP/VERSION/zz_generated.compaction.go in the
// informers folder for every version with an informer.
func (p *planner) compactionFiles() {
	for _, v := range p.m.InformerVersions() {
		if v.source == nil {
			continue
		}
		w := newWalkWriter(v.source, v.APIAlias)
		var regs []string
		for _, k := range v.InformerKinds() {
			regs = append(regs, w.root(k.Name))
			if update, ok := w.rootUpdate(k.Name); ok {
				regs = append(regs, update)
			}
		}
		regs = append(regs, w.registrations()...)
		funcs := w.sortedFuncs()
		f := compactionFile{
			fileHeader:    p.fileHeader(v.PackageName),
			Imports:       w.importList(append(funcs, regs...)),
			Registrations: regs,
			Funcs:         funcs,
		}
		p.add("compaction.go.tmpl", f, p.out.informersDir, v.Group.PackageName, v.PackageName, compactionFileName)
	}
}
