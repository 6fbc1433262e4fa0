package generators

import (
	"path/filepath"
	"strings"
)

// plannedFile is one output file before rendering: where it goes, its
// template and the data the template prints.
type plannedFile struct {
	path     string // OS path
	template string
	data     any
}

// fileHeader starts the data of every template: the boilerplate and
// generated marker, ending in a blank line, and the Go package name.
type fileHeader struct {
	Header  string
	Package string
}

// planner lists the files of one run. Each kind of output file adds its
// own, in the file named after its template: factory_file.go,
// generic_file.go, metadata_file.go, factory_interfaces_file.go,
// group_interface_file.go, version_interface_file.go, informer_file.go,
// lister_file.go, expansion_generated_file.go and compaction_file.go.
type planner struct {
	m            *model
	out          layout
	header       string
	clientsetPkg string
	files        []plannedFile
	// jsonDecoders plans the JSON decoders (Options.JSONDecoders).
	jsonDecoders bool
	// protoDecoders plans the protobuf decoders (Options.ProtoDecoders).
	protoDecoders bool
	// protoTagged reads each version's types for protoDecoded.
	protoTagged map[*version]*protoWriter
}

// decoders are the generated decoders a plan has: JSON, protobuf.
type decoders struct{ json, proto bool }

// plan lists every file the model produces in the trees out has folders
// for.
func plan(m *model, out layout, clientsetPkg, boilerplate string, dec decoders) []plannedFile {
	p := &planner{m: m, out: out, header: header(boilerplate), clientsetPkg: clientsetPkg, jsonDecoders: dec.json, protoDecoders: dec.proto}
	var kinds []func()
	if out.informersDir != "" {
		kinds = append(kinds, p.factoryFile, p.genericFile, p.metadataFile, p.interfacesFile,
			p.groupFiles, p.versionFiles, p.informerFiles, p.compactionFiles, p.decoderFiles, p.protoDecoderFiles)
	}
	if out.listersDir != "" {
		kinds = append(kinds, p.expansionFiles, p.listerFiles)
	}
	for _, kind := range kinds {
		kind()
	}
	return p.files
}

// add plans the file at the OS path joined from elems.
func (p *planner) add(template string, data any, elems ...string) {
	p.files = append(p.files, plannedFile{path: filepath.Join(elems...), template: template, data: data})
}

// fileHeader returns the header of a file of Go package pkg.
func (p *planner) fileHeader(pkg string) fileHeader {
	return fileHeader{Header: p.header, Package: pkg}
}

// informersPackage is the name of the informers package, which holds the
// factory.
func (p *planner) informersPackage() string {
	return goPackageName(filepath.Base(p.out.informersDir))
}

// internalInterfacesPkg is the import path of the internalinterfaces
// package.
func (p *planner) internalInterfacesPkg() string {
	return p.out.informersPkg + "/internalinterfaces"
}

// fileName is the name of the informer and lister files of k.
func fileName(k *kind) string {
	return strings.ToLower(k.Name) + ".go"
}
