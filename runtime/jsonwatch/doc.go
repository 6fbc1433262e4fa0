// Package jsonwatch decodes Kubernetes JSON watch streams and LIST pages
// itself, for generated informers of the types that reach them as JSON
// (custom resources), with the JSON decoders informer-gen generates (by
// default; package runtime/jsondecode): each event's object is
// decoded once, by the generated decoder, straight from the frame it
// arrives in, interning its strings as it goes, where client-go decodes
// the event, copies its object's bytes and decodes them again by
// reflection. What a caller sees (events, objects, errors, the end of a
// stream) is client-go's StreamWatcher's over its JSON decoders.
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
//	  apimachinery's JSON framer --> frame --> jsondecode.DecodeEvent (generated)    |
//	                                   |  (any other shape, an ERROR event)          |
//	                                   +--> client-go's decoders of the frame        v
//	                                                     ResultChan (unbuffered) --> Reflector
//
// A generated informer builds one Watcher per informer (watcher.go) with
// Open calling OpenStream (open.go) with the clientset's REST client and
// Watch the typed client's. Each WatchWithContext opens the stream and
// starts a stream (stream.go), whose goroutine reads JSON frames with
// the framer client-go uses, decodes each event (event.go) and sends it
// on ResultChan until the stream ends or Stop closes the body. A frame
// the fast path does not take (a Status on an ERROR event, a malformed
// or unusual frame) is decoded by client-go's decoders, for client-go's
// object or error; a stream in another format (protobuf or CBOR, for a
// client configured for it) is decoded as client-go decodes it.
//
// # Lists
//
//	Reflector --ListWithContext--> Lister --Get--> GetList(REST client): the typed List's request --> rest.Result
//	                                  |                                                                 |
//	                                  |  (ErrNoStream: a fake or wrapped clientset; no decoder)         v
//	                                  +--List--> typed client's List          JSON body of the list's kind?
//	                                                                           |  yes: jsondecode.DecodeList (generated)
//	                                                                           |  no, or any doubt: Result.Into (client-go's)
//	                                                                           v
//	                                                             the page (items, resourceVersion, continue) --> Reflector
//
// A generated informer lists through a Lister (lister.go): GetList
// (list_request.go) sends the request the typed client's List sends,
// through the same REST client calls (so throttling, retries, timeouts and
// the error of a failed request are client-go's), and a JSON page of the
// list's kind is decoded by the list's generated decoder, each item's
// strings interned as a watch event's are. Anything else (an error
// status such as 410 Expired on a continue token, another format, a body
// the fast path does not certainly decode as client-go does) is decoded
// by the response's own client-go decoding, for client-go's list or
// error from the same response.
//
// With the informer's compact.Decoded enabled (Lister.Decoded), the
// items of every list, first or relist, are decoded into the compact
// object (jsondecode.DecodeListCompact), each against the version the
// informer will compact it against (compact.Decoded.Previous), which
// list_hints.go records per item and hands over with the item
// (compact.Decoded.AdoptCopied): the informer skips the walk of an item
// it compacts against that very version.
package jsonwatch
