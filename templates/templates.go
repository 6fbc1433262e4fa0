// Package templates holds the text of every file informer-gen writes, one
// text/template per output file kind, so that the shape of each generated
// file can be read in one place:
//
//   - factory.go.tmpl: the shared informer factory of the informers package;
//   - generic.go.tmpl: GenericInformer and ForResource;
//   - metadata.go.tmpl: metadata-only informers of the factory
//     (WithMetadataClient, ForMetadata);
//   - factory_interfaces.go.tmpl: the internalinterfaces package;
//   - group_interface.go.tmpl, version_interface.go.tmpl: one accessor
//     package per API group and per group version;
//   - informer.go.tmpl: one informer per type;
//   - lister.go.tmpl, expansion_generated.go.tmpl: one lister per type and
//     the expansion interfaces of a lister package;
//   - decoder.go.tmpl: zz_generated.decoders.go, the JSON decoders
//     (package runtime/jsondecode) of a group version's types, with
//     --json-decoders;
//   - protodecoder.go.tmpl: zz_generated.protodecoders.go, the protobuf
//     decoders (package runtime/protodecode) of a group version's types
//     that decode themselves from protobuf, with --proto-decoders;
//   - compaction.go.tmpl: zz_generated.compaction.go, the compaction walks
//     (package runtime/compact) of a group version's types, registered
//     from init;
//   - compaction_all.go.tmpl: with --walks-only and --output-dir, the
//     package importing every group version's walks.
//
// Every template receives the data the generators package declares for it
// (informer.go.tmpl gets an informerFile, in informer_file.go, and so on),
// with the decisions already made: the templates print fields and range
// over lists; their only conditionals choose the code of a namespaced kind
// (.Namespaced) over that of a cluster-scoped one. Each starts with the
// boilerplate header and the "Code generated" line.
package templates

import (
	"embed"
	"io/fs"
	"text/template"
)

//go:embed *.tmpl
var files embed.FS

// Parse parses every template; each is named after its file, e.g.
// "informer.go.tmpl". The result is safe for concurrent Execute calls.
func Parse() (*template.Template, error) {
	return template.New("").Option("missingkey=error").ParseFS(files, "*.tmpl")
}

// Source returns the template files, by file name, for reading their text
// (the generator reads the import names they use).
func Source() fs.FS {
	return files
}
