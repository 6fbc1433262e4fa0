package generators

import "fmt"

// informerFile is the data of informer.go.tmpl: the informer of one kind.
type informerFile struct {
	fileHeader
	ClientsetPkg          string
	InternalInterfacesPkg string
	Version               *version
	*kind
	// Client is the clientset's interface to the kind's resource, as the
	// list and watch functions call it: "client.StableV1().Widgets(namespace)".
	Client string
	// GroupClient is the clientset's accessor of the kind's group
	// version: "StableV1".
	GroupClient string
	// NamespaceParam and NamespaceArg are the constructors' namespace
	// parameter (", namespace string") and the argument passing it on
	// (", namespace"); empty for a cluster-scoped kind.
	NamespaceParam, NamespaceArg string
	// Compactor is the informer's SharedIndexInformerOptions.Compactor:
	// the call of the version's zz_generated.compaction.go function that
	// returns the kind's compaction (compactionFunc), or "nil" when the
	// version has no walks (its API source is unknown), which leaves the
	// registry's.
	Compactor string
	// JSONDecoders is true when the kind's informer watches through its
	// generated JSON decoder (jsonwatch.Watcher): with
	// Options.JSONDecoders, for a kind that is not Protobuf.
	JSONDecoders bool
	// ProtoDecoders is true when the kind's informer decodes watch events
	// with its generated protobuf decoder (protowatch.Watcher's Decode):
	// with Options.ProtoDecoders, for a Protobuf kind with protobuf tags.
	ProtoDecoders bool
	// JSONStreamDecoder is true when the informer of a Protobuf kind
	// decodes a JSON watch stream (a client configured for JSON) with the
	// kind's generated JSON decoder (protowatch.Watcher's DecodeJSON):
	// with Options.JSONDecoders, for a Protobuf kind of a version whose
	// decoders are generated (its API source is known).
	JSONStreamDecoder bool
	// WatchDecoders is true when the Protobuf kind's watcher takes a
	// generated decoder unless options.DisableGeneratedDecoders:
	// ProtoDecoders or JSONStreamDecoder.
	WatchDecoders bool
	// ImportsJSONDecode is true when the file uses runtime/jsondecode:
	// JSONDecoders or JSONStreamDecoder.
	ImportsJSONDecode bool
	// Decoded is true when the informer's watch hands its objects over
	// compact (compact.Decoded): JSONDecoders, ProtoDecoders or
	// JSONStreamDecoder.
	Decoded bool
	// RawStream is true when the informer opens the raw watch stream
	// itself: Protobuf or JSONDecoders.
	RawStream bool
}

// informerFiles plans GROUP/VERSION/KIND.go in the informers folder for
// every kind with an informer.
func (p *planner) informerFiles() {
	for _, v := range p.m.InformerVersions() {
		for _, k := range v.InformerKinds() {
			f := informerFile{
				fileHeader:            p.fileHeader(v.PackageName),
				ClientsetPkg:          p.clientsetPkg,
				InternalInterfacesPkg: p.internalInterfacesPkg(),
				Version:               v,
				kind:                  k,
			}
			namespace := ""
			if k.Namespaced {
				namespace = "namespace"
				f.NamespaceParam, f.NamespaceArg = ", namespace string", ", namespace"
			}
			f.Compactor = "nil"
			if v.source != nil {
				f.Compactor = compactionFunc(k) + "()"
				f.JSONDecoders = p.jsonDecoders && !k.Protobuf
				f.JSONStreamDecoder = p.jsonDecoders && k.Protobuf
			}
			f.ProtoDecoders = p.protoDecoded(v, k)
			f.Decoded = f.JSONDecoders || f.ProtoDecoders || f.JSONStreamDecoder
			f.WatchDecoders = f.ProtoDecoders || f.JSONStreamDecoder
			f.ImportsJSONDecode = f.JSONDecoders || f.JSONStreamDecoder
			f.RawStream = k.Protobuf || f.JSONDecoders
			f.GroupClient = v.Group.GoName + v.GoName
			f.Client = fmt.Sprintf("client.%s().%s(%s)", f.GroupClient, k.Plural, namespace)
			p.add("informer.go.tmpl", f, p.out.informersDir, v.Group.PackageName, v.PackageName, fileName(k))
		}
	}
}
