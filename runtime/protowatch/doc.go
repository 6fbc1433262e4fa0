// Package protowatch decodes a Kubernetes watch stream in protobuf itself,
// for generated informers of the types that decode themselves from
// protobuf (the types of k8s.io/api): each event's object is decoded
// once, from the frame it arrives in, where client-go's watch decoder
// copies it twice first. What a caller sees (events, objects, errors) is
// client-go's StreamWatcher's over its protobuf decoder.
//
// It imports k8s.io/apimachinery, klog and nothing of k8s.io/client-go:
// the REST request is sent through the client's own methods, declared
// here as the Request interface that client-go's *rest.Request satisfies.
//
// # Data flow
//
//	Reflector --WatchWithContext--> Watcher --Open--> OpenStream(REST client) --> response body
//	                                   |                                             |
//	                                   |  (ErrNoStream, 406, 415, other errors)      v
//	                                   +--Watch--> typed client's Watch        stream.run (one goroutine)
//	                                                                                 |
//	frames --> decodeWatchEvent --> T.Unmarshal, or the generated decoder         |
//	            (Watcher.Decode):  compactDecoding: protodecode.DecodeCompact      |
//	                               --> compact.Decoded.Adopt (no walk); else       |
//	                               decode --> compact.Decoded.Compact (the walk)   |
//	a JSON stream (otherFormat), with Watcher.DecodeJSON:                          |
//	  jsonwatch.Events --> jsondecode.DecodeEvent(Compact) (generated)             |
//	                   --> compact.Decoded.Adopt / Compact; any other frame        |
//	                   --> client-go's decoders of the frame                       |
//	a JSON stream without DecodeJSON, a CBOR stream: client-go's decoders          v
//	                                                     ResultChan (unbuffered) --> Reflector
//
// A generated informer builds one Watcher per informer (watcher.go) with
// Open calling OpenStream (open.go) with the clientset's REST client and
// Watch the typed client's. Each WatchWithContext opens the stream and
// starts a stream (stream.go), whose goroutine reads length-prefixed
// frames, decodes each event and sends it on ResultChan until the stream
// ends or Stop closes the body. A stream in another format (JSON, for a
// client configured for it) is decoded by client-go's decoders for it,
// from the codecs the Watcher is given, but for a JSON stream of a
// Watcher with T's generated JSON decoder (Watcher.DecodeJSON, which
// generated informers set when informer-gen generated JSON decoders):
// that stream is decoded as runtime/jsonwatch decodes a custom
// resource's (jsonwatch.Events, with the stream's session of the
// informer's compact.Decoded), each event's object by the generated
// decoder from its frame, into the compact object handed over with
// Decoded.Adopt (managedFields left out when the informer strips them),
// and any frame the fast path does not take (a Status, a malformed
// frame, another kind) by client-go's decoders, for their object or
// error. With the generated decoder, its
// Table and the informer's compact.Decoded, the objects of ADDED,
// MODIFIED and DELETED events of a kind whose decoder builds the compact
// object (protodecode.RegisterCompact) are decoded compact against the
// version they replace and handed over with Decoded.Adopt (compact.go);
// other objects are decoded, then compacted by the informer's walk on
// the stream's goroutine (Decoded.Compact).
package protowatch
