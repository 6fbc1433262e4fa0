package generators

import "fmt"

// compactionFile is the data of compaction.go.tmpl: the compaction walks
// of one group version's types (package runtime/compact), registered from
// the informers package's init so that its informers' caches intern and
// share what they hold without reflection.
type compactionFile struct {
	fileHeader
	// Doc is the package comment, ending in a newline, when the file is
	// its package's only one (the walks-only mode's GROUP/VERSION
	// packages); empty otherwise.
	Doc     string
	Imports []importSpec
	// Registrations are the init statements: compact.Register and
	// compact.RegisterUpdate of each informer kind, compact.RegisterWalk of
	// every type walked.
	Registrations []string
	// Funcs are the walk and equality functions, Go source, sorted by name.
	Funcs []string
	// Compactions are the functions that name each informer kind's walks
	// for its informer (informer.go.tmpl's Compactor); none in the
	// walks-only mode, which has no informers.
	Compactions []kindCompaction

	// walks are the roots' walks, by root name.
	walks map[string]rootWalks
}

// rootWalks are the walk and the update walk ("nil" when none) of an
// informer kind.
type rootWalks struct{ Walk, Update string }

// kindCompaction is one informer kind's compaction function: Func
// returns compact.TransformWith(compact.Default(), Walk, Update).
type kindCompaction struct {
	Func, Kind string
	rootWalks
}

// compactionFunc is the name of the generated function returning kind's
// compaction (kindCompaction.Func), which kind's informer passes as its
// SharedIndexInformerOptions.Compactor.
func compactionFunc(k *kind) string { return k.PrivateName + "Compaction" }

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
		var roots []string
		for _, k := range v.InformerKinds() {
			roots = append(roots, k.Name)
		}
		f := newCompactionFile(newWalkWriter(v.source, v.APIAlias), roots, p.fileHeader(v.PackageName))
		for _, k := range v.InformerKinds() {
			f.Compactions = append(f.Compactions, kindCompaction{Func: compactionFunc(k), Kind: k.Name, rootWalks: f.walks[k.Name]})
		}
		p.add("compaction.go.tmpl", f, p.out.informersDir, v.Group.PackageName, v.PackageName, compactionFileName)
	}
}

// newCompactionFile writes with w the walks of the API package's types
// roots (their compact.Register and compact.RegisterUpdate) and of every
// type they hold (compact.RegisterWalk).
func newCompactionFile(w *walkWriter, roots []string, h fileHeader) compactionFile {
	var regs []string
	walks := make(map[string]rootWalks, len(roots))
	for _, name := range roots {
		rw := rootWalks{Walk: w.rootWalk(name), Update: "nil"}
		regs = append(regs, fmt.Sprintf("compact.Register(%s)", rw.Walk))
		if update, ok := w.update(name); ok {
			rw.Update = update
			regs = append(regs, fmt.Sprintf("compact.RegisterUpdate(%s)", update))
		}
		w.drain()
		walks[name] = rw
	}
	regs = append(regs, w.registrations()...)
	funcs := w.sortedFuncs()
	return compactionFile{
		fileHeader:    h,
		Imports:       w.importList(append(funcs, regs...)),
		Registrations: regs,
		Funcs:         funcs,
		walks:         walks,
	}
}
