// Package jsondecode holds what the JSON decoders informer-gen generates
// (--json-decoders; zz_generated.decoders.go beside each version's
// informers) share: a Decoder over a validating tokenizer, the decoding
// of Go's scalar types, pointers, slices and maps, the decoders of the
// apimachinery types every API package uses, and the fall-backs to
// reflection. A generated decoder decodes exactly as sigs.k8s.io/json's
// UnmarshalCaseSensitivePreserveInts (apimachinery's JSON serializer)
// does, without reflection, and interns the strings it decodes in a
// compact.Table as it goes.
//
// # Data flow
//
//	JSON bytes --> Unmarshal --> Decode: pooled Decoder (jsontext tokenizer, sticky error)
//	                  |              --> generated decodeKIND: switch on each member name
//	                  |                   --> String/Int/Bool/... (strings interned: Table.InternBytes)
//	                  |                   --> Pointer/Slice/Map of generated or shared decoders
//	                  |                   --> Time, IntOrString, ObjectMeta, ... (this package)
//	                  |                   --> Unmarshaler (the type's UnmarshalJSON on the raw value)
//	                  |                   --> Value/Reflective (registered decoder, else sigs.k8s.io/json)
//	                  v
//	   on any error: *p zeroed, decoded again by sigs.k8s.io/json, whose error is returned
//
// # Decoding into the compact object
//
// DecodeEventCompact (runtime/jsonwatch, for an informer that compacts
// and registered kinds, RegisterCompact) decodes a watch event's object
// into what the informer's compaction walk would make of it (share.go):
//
//	slice, map or pointer member --> Shared
//	   previous version has it (hint, Previous) --> decoded in place --> equal: the old part
//	                                                                 \-> else: compact.ShareDecoded
//	   no previous version --> raw bytes --> Table memo hit: the canonical copy, nothing decoded
//	                                     \-> miss: decoded (nested parts as they are) --> compact.ShareDecoded
//	                                                      --> canonical? memoized by its bytes
//	strings --> the previous version's when equal, else interned (Table.InternBytes)
//
// DecodeListCompact (runtime/jsonwatch's Lister) does the same for each
// item of a LIST page (list.go): Slice starts each item of the list's
// items with its own previous version, which ItemPrevious gives by the
// item's index (the cached version on a relist, none on a first list).
//
// # Semantics
//
// encoding/json v1's, which sigs.k8s.io/json forks, case-sensitively:
// member names match exactly; unknown members are skipped (validated);
// a duplicate member decodes again into what the first one decoded (the
// last scalar wins, objects merge, a slice reuses its backing array); null
// makes a pointer, slice, map or interface nil and leaves any other value
// as it is, except that a type with UnmarshalJSON is handed the null;
// integers must be integers in range, []byte is base64; invalid UTF-8
// and unpaired surrogates in strings become U+FFFD; the whole input is
// validated and nothing but white space may follow the value. On bad
// input Unmarshal returns sigs.k8s.io/json's own error (it decodes again
// with it), so messages are client-go's exactly; Decode alone returns an
// *Error.
//
// Package jsondecodetest proves every decoder differentially against
// sigs.k8s.io/json: random objects, seed corpora and fuzzing.
//
// # Dependencies
//
// The tokenizer is github.com/go-json-experiment/json's jsontext (the
// tokenizer of encoding/json/v2, which Go 1.26 has only under
// GOEXPERIMENT=jsonv2): strict RFC 8259 validation, values read in place
// from the input; docs/decoders.md says why it was chosen.
package jsondecode
